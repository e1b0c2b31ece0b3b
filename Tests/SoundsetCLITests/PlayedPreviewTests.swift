import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// `plan` and `render` show what the phone plays (`PlayedAnnouncement`), say how it differs from
/// the whole announcement, and `--whole` shows the whole; `render` writes the container its `--out`
/// names. A shop's set: words 0.4 s, 收款到账 1.5 s, joined as files, a 5 s banner.
@Suite struct PlayedPreviewTests {
    static func shop(_ folder: TemporaryDirectory, leadInMs: Double = 0) throws {
        try FakeSets.write(
            in: folder.url.appendingPathComponent("Output"), rate: 8000, prefix: "received", gapMs: 0,
            announcement: AnnouncementSettings(join: .file, leadInMs: leadInMs), frames: { $0 == "received" ? 12000 : 3200 })
    }

    @Test func planShowsWhatPlaysAndSaysWhy() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let played = try SoundsetExecutable.run(["plan", "1234.56"], in: folder.url)
        #expect(played.status == 0, "\(played.stderr)")
        let lines = played.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "1234.56 (zh-CN): 1 thousand 2 hundred 3 ten 4 point 5 6 yuan")
        #expect(lines.dropLast().last == "total 4.400 s (35200 frames at 8000 Hz) in 11 steps, composed")
        #expect(lines.last == "played without 收款到账: whole it lasts 5.90 s, over the 5 s banner")

        let whole = try SoundsetExecutable.run(["plan", "1234.56", "--whole"], in: folder.url)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.hasPrefix("1234.56 (zh-CN): received 1 thousand"))
        #expect(whole.stdout.hasSuffix("total 5.900 s (47200 frames at 8000 Hz) in 12 steps, composed\n"))

        // A short amount plays whole: no note.
        let short = try SoundsetExecutable.run(["plan", "1"], in: folder.url)
        #expect(short.stdout.hasSuffix("total 2.300 s (18400 frames at 8000 Hz) in 3 steps, composed\n"))

        let json = try SoundsetExecutable.run(["plan", "1234.56", "--format", "json"], in: folder.url)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["delivery"] as? String == "composed")
        #expect(object["outcome"] as? String == "shortened")
        #expect(object["leadInFrames"] as? Int == 0)
        #expect(object["seconds"] as? Double == 4.4)
        #expect(object["note"] as? String == "played without 收款到账: whole it lasts 5.90 s, over the 5 s banner")
        let plan = try JSONDecoder().decode(AnnouncementPlan.self, from: Data(json.stdout.utf8))
        #expect(plan.clips.first == "1")
        let wholeJSON = try SoundsetExecutable.run(["plan", "1234.56", "--format", "json", "--whole"], in: folder.url)
        let wholeObject = try #require(try JSONSerialization.jsonObject(with: Data(wholeJSON.stdout.utf8)) as? [String: Any])
        #expect(wholeObject["note"] is NSNull)
        #expect(wholeObject["outcome"] as? String == "announced")
    }

    @Test func theLeadInIsPlayedShownAndRendered() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder, leadInMs: 250)
        let plan = try SoundsetExecutable.run(["plan", "1"], in: folder.url)
        let lines = plan.stdout.split(separator: "\n").map(String.init)
        // The clips start after the 0.25 s of silence, as in the composed file.
        #expect(lines[2].hasPrefix("    0.250     1.500  received"))
        #expect(lines.last == "played with 250 ms of silence first (announcement.leadInMs)")
        let render = try SoundsetExecutable.run(["render", "1", "--out", "one.caf"], in: folder.url)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(
            render.stdout == "wrote one.caf (caf pcm16, 8000 Hz): 20400 frames, 2.550 s, 3 clips\nplayed with 250 ms of silence first (announcement.leadInMs)\n"
        )
        let sound = try SoundData(parsing: Data(contentsOf: folder.url.appendingPathComponent("one.caf")), name: "one.caf")
        #expect(sound.frames == 2000 + 18400)
        #expect(sound.samples.prefix(4000).allSatisfy { $0 == 0 })
        let whole = try SoundsetExecutable.run(["render", "1", "--out", "whole.caf", "--whole"], in: folder.url)
        #expect(whole.stdout == "wrote whole.caf (caf pcm16, 8000 Hz): 18400 frames, 2.300 s, 3 clips\n")
    }

    /// A CAF set's announcement as WAV and AIFF: the same samples, in the container the name says.
    @Test func renderWritesTheContainerItsOutNames() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        func int16s(_ sound: SoundData) -> [Int16] {
            stride(from: 0, to: sound.samples.count - 1, by: 2).map { index in
                let (a, b) = (UInt16(sound.samples[index]), UInt16(sound.samples[index + 1]))
                return Int16(bitPattern: sound.format.littleEndian ? a | b << 8 : a << 8 | b)
            }
        }
        var samples: [Container: [Int16]] = [:]
        for name in ["a.caf", "a.wav", "a.aiff", "b.AIF"] {
            let result = try SoundsetExecutable.run(["render", "1234.56", "--out", name], in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            let sound = try SoundData(parsing: Data(contentsOf: folder.url.appendingPathComponent(name)), name: name)
            #expect(sound.frames == 35200, "\(name)")
            #expect(result.stdout.hasPrefix("wrote \(name) (\(sound.format.container.rawValue) pcm16, 8000 Hz): 35200 frames, 4.400 s, 11 clips\n"))
            samples[sound.format.container] = int16s(sound)
        }
        #expect(Set(samples.keys) == [.caf, .wav, .aiff])
        #expect(samples[.wav] == samples[.caf])
        #expect(samples[.aiff] == samples[.caf])

        // A clip file gone from the set: the set is built again (the runtime speaks of installing).
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output/Sounds/yuan.caf"))
        let missing = try SoundsetExecutable.run(["render", "1", "--out", "c.wav"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "soundset: Output/Sounds/yuan.caf: missing (run soundset build --output Output)\n")

        // MP3 too reads the clips it plays from the folder.
        let missingMP3 = try SoundsetExecutable.run(["render", "1", "--out", "c.mp3"], in: folder.url)
        #expect(missingMP3.status == 1)
        #expect(missingMP3.stderr == "soundset: Output/Sounds/yuan.caf: missing (run soundset build --output Output)\n")

        for (name, named) in [("a.ogg", "ends in .ogg"), ("announcement", "has no extension")] {
            let refused = try SoundsetExecutable.run(["render", "1", "--out", name], in: folder.url)
            #expect(refused.status == 1)
            #expect(
                refused.stderr
                    == "soundset: \(name): \(named); render writes .caf, .wav or .aiff (the sounds iOS plays), or .mp3 (what soundset serve sends): name the file so\n"
            )
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(name).path))
        }
    }
}
