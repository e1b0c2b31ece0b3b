import Foundation
import SoundsetTestSupport
import Testing

/// Takes that are not what their names say (#22), through the binary: a take under a copy's name,
/// one recording under two names, a click in the room tone, a soft last sound.
@Suite struct TakesTests {
    /// A folder with the complete zh-CN pack in Assets.
    func pack() throws -> (TemporaryDirectory, URL) {
        let folder = try TemporaryDirectory()
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        return (folder, assets)
    }

    func manifest(_ folder: TemporaryDirectory) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("Output/manifest.json"))) as! [String: Any]
    }

    func clip(_ name: String, of manifest: [String: Any]) -> [String: Any]? {
        (manifest["clips"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    /// A recording under any clip's copy name is refused, whether "copies" lists that clip or not.
    @Test(arguments: [
        (#"{"sampleRate": 16000, "copies": ["0"]}"#, "2Copy", "2"),
        (#"{"sampleRate": 16000, "copies": []}"#, "2Copy", "2"),
        (#"{"sampleRate": 16000}"#, "yuanCopy", "yuan"),
    ])
    func aTakeNamedLikeACopyIsRefused(settings: String, file: String, clip: String) throws {
        let (folder, assets) = try pack()
        defer { folder.remove() }
        try Data(settings.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        try FileManager.default.copyItem(at: assets.appendingPathComponent("0.wav"), to: assets.appendingPathComponent("\(file).wav"))
        let result = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: Assets/\(file).wav: has the name of the copy of clip '\(clip)' (rename the recording)\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output").path))
    }

    /// The same take saved as 7.wav and 8.wav (byte for byte, or rescaled, with noise 50 dB under
    /// it, as 24-bit): a warning of every build (first, up to date, --no-report), of the report and
    /// of the check, which still passes.
    @Test(arguments: [false, true])
    func theSameRecordingUnderTwoNamesIsAWarning(rescaled: Bool) throws {
        let (folder, assets) = try pack()
        defer { folder.remove() }
        let take = Takes.word(before: 0.05, word: 0.16, after: 0.05, rate: 16000, levelDb: -26, seed: 9).samples
        try WAVFile.write(take, to: assets.appendingPathComponent("8.wav"), rate: 16000)
        let seven =
            rescaled ? Signals.mix(take.map { $0 * 0.7 }, Signals.noise(seconds: Double(take.count) / 16000, rate: 16000, rmsDb: -76, seed: 4)) : take
        try WAVFile.write(seven, to: assets.appendingPathComponent("7.wav"), rate: 16000, format: rescaled ? .pcm24 : .pcm16)
        let warning = "warning: Assets/7.wav and Assets/8.wav are the same recording (record each word on its own, unless one stands in for another)\n"
        for arguments in [["build"], ["build"], ["build", "--no-report"]] {
            let result = try SoundsetExecutable.run(arguments, in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == warning, "\(arguments): \(result.stderr)")
        }
        _ = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        let report = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
        #expect(report.contains("7.wav and 8.wav are the same recording (record each word on its own, unless one stands in for another)"))
        let check = try SoundsetExecutable.run(["check"], in: folder.url, environment: ["GITHUB_ACTIONS": "false"])
        #expect(check.status == 0)
        #expect(check.stdout.hasPrefix(warning + "check passed: 18 clips; "), "\(check.stdout)")
        let json = try SoundsetExecutable.run(["check", "--format", "json"], in: folder.url, environment: ["GITHUB_ACTIONS": "false"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["warnings"] as? [String] == [String(warning.dropFirst("warning: ".count).dropLast())])
    }

    /// Two takes of one word, of the same length and level at another pitch, are not named.
    @Test func twoTakesOfOneWordAreNotTheSameRecording() throws {
        let (folder, assets) = try pack()
        defer { folder.remove() }
        try WAVFile.write(
            Takes.word(before: 0.05, word: 0.16, after: 0.05, rate: 16000, levelDb: -26, seed: 9).samples, to: assets.appendingPathComponent("8.wav"),
            rate: 16000)
        try WAVFile.write(
            Takes.word(before: 0.05, word: 0.16, after: 0.05, rate: 16000, levelDb: -26, seed: 13).samples, to: assets.appendingPathComponent("7.wav"),
            rate: 16000)
        let result = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let check = try SoundsetExecutable.run(["check"], in: folder.url, environment: ["GITHUB_ACTIONS": "false"])
        #expect(check.stdout.hasPrefix("check passed: 18 clips; "), "\(check.stdout)")
    }

    /// One full-scale sample 0.15 s before the word: not kept, not said, and the set stays at the
    /// target (-16 LUFS; 2.7 dB lower before); one on the word is removed and said by its time.
    @Test func clicksAreNotSpeech() throws {
        let (folder, assets) = try pack()
        defer { folder.remove() }
        try WAVFile.write(Takes.withClick(at: 0.25, wordAt: 0.4), to: assets.appendingPathComponent("5.wav"), rate: 16000)
        let outside = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(outside.status == 0)
        // Neither clipped nor a click kept: nothing is said of 5.wav.
        #expect(!outside.stderr.contains("Assets/5.wav"), "\(outside.stderr)")
        let level = (try manifest(folder)["loudness"] as? [String: Any])?["setLevel"] as? Double
        #expect(level == -16)
        #expect(clip("5", of: try manifest(folder))?["limiting"] as? Double == 0)
        // The kept clip starts 20 ms (the pad) before the word at 0.4 s, not before the click.
        let speech = clip("5", of: try manifest(folder))?["speech"] as? [String: Int]
        #expect(speech?["start"] == 320)

        try WAVFile.write(Takes.withClick(at: 0.55, wordAt: 0.4, levelDb: -32), to: assets.appendingPathComponent("5.wav"), rate: 16000)
        let inside = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(inside.status == 0)
        #expect(inside.stderr.split(separator: "\n").filter { $0.contains("Assets/5.wav") } == ["warning: Assets/5.wav: removed a click at 0.550 s"])
        #expect((try manifest(folder)["loudness"] as? [String: Any])?["setLevel"] as? Double == -16)
    }

    /// A word whose last sound is a soft stop 40 ms after the vowel: the manifest's speech reaches
    /// the stop's end (it stopped with the vowel, 42 ms early, before).
    @Test func theSpeechReachesASoftLastSound() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        let take = Takes.softFinalStop()
        try WAVFile.write(take.samples, to: assets.appendingPathComponent("yuan.wav"), rate: 16000)
        try Data(#"{"sampleRate": 16000}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let result = try SoundsetExecutable.run(["build", "--quiet", "--no-report"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let speech = try #require(clip("yuan", of: try manifest(folder))?["speech"] as? [String: Int])
        let speechMs = Double(speech["end"]! - speech["start"]!) / 16
        let soundMs = Double(take.burstEnd - take.start) / 16
        #expect(speechMs >= soundMs - 1 && speechMs <= soundMs + 12, "speech \(speechMs) ms, the word to the stop's end \(soundMs) ms")
    }
}
