import Foundation
import SoundsetTestSupport
import Testing

@Suite struct MeasureCommandTests {
    @Test func measuresFilesLikeTheBuild() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // 1 kHz sines at -20 and -26 dBFS: -23.01 and -29.00 LUFS, true peaks -20 and -26 dBTP.
        try WAVFile.write(
            Signals.tone(1000, seconds: 0.5, rate: 48000, amplitudeDb: -20), to: folder.url.appendingPathComponent("a.wav"), rate: 48000, format: .float32)
        try WAVFile.write(
            Signals.tone(1000, seconds: 0.3, rate: 48000, amplitudeDb: -26), to: folder.url.appendingPathComponent("b.wav"), rate: 48000, format: .float32)
        let result = try SoundsetExecutable.run(["measure", "a.wav", "b.wav"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "   0.500 s  -23.00 LUFS  -20.00 dBTP  a.wav",
                "   0.300 s  -29.00 LUFS  -26.00 dBTP  b.wav",
                "2 files: loudness -29.00 to -23.00 LUFS (spread 6.00 LU), worst true peak -20.00 dBTP"
                    + " (whole files; --trimmed measures the words as the build keeps them)",
            ])
        let json = try SoundsetExecutable.run(["measure", "--format", "json", "a.wav"], in: folder.url)
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(entries.count == 1)
        #expect(abs((entries[0]["loudness"] as! Double) - -23.01) < 0.01)
        #expect(entries[0]["part"] as? String == "whole")
        // Printed lengths are to the millisecond: 16001 frames at 48 kHz are 0.333354… s.
        try WAVFile.write(
            Array(Signals.tone(1000, seconds: 1, rate: 48000, amplitudeDb: -20).prefix(16001)), to: folder.url.appendingPathComponent("d.wav"), rate: 48000,
            format: .float32)
        let odd = try SoundsetExecutable.run(["measure", "--format", "json", "d.wav"], in: folder.url)
        let measured = try JSONSerialization.jsonObject(with: Data(odd.stdout.utf8)) as! [[String: Any]]
        #expect(measured[0]["seconds"] as? Double == 0.333)

        try Data("no".utf8).write(to: folder.url.appendingPathComponent("c.wav"))
        let bad = try SoundsetExecutable.run(["measure", "a.wav", "c.wav"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: c.wav: cannot be read as audio: "))
        #expect(bad.stdout.hasPrefix("   0.500 s  -23.00 LUFS"))
        let usage = try SoundsetExecutable.run(["measure"], in: folder.url)
        #expect(usage.status == 64)
        #expect(usage.stderr == "soundset: measure needs one or more FILEs\nrun 'soundset measure --help' for usage\n")
    }

    /// `soundset measure --format json ARGUMENTS 7.wav` in `folder`, which must succeed: its one result.
    static func measured(_ arguments: [String], in folder: TemporaryDirectory) throws -> [String: Any] {
        let result = try SoundsetExecutable.run(["measure", "--format", "json"] + arguments + ["7.wav"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])?.first)
    }

    /// A take of 0.3 s of tone between 0.5 s of room tone each side: the whole file is 0.3/1.3 of
    /// the tone's energy (6.4 dB under it), the word as the build keeps it (the tone and its 20 ms
    /// pads, faded over 5 ms, at the set's rate) within a few tenths of the tone itself; each output
    /// says which it is, and the assets' soundset.json (--assets, or Assets when there is one) gives
    /// the settings (a 100 ms pad keeps 0.16 s more).
    @Test func measuresTheTrimmedWordWhenAsked() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let rate = 48000
        let dry =
            Signals.silence(seconds: 0.5, rate: rate) + Signals.tone(1000, seconds: 0.3, rate: rate, amplitudeDb: -20)
            + Signals.silence(seconds: 0.5, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: 1.3, rate: rate, rmsDb: -80))
        try WAVFile.write(take, to: folder.url.appendingPathComponent("7.wav"), rate: rate, format: .float32)
        func measured(_ arguments: [String]) throws -> [String: Any] { try Self.measured(arguments, in: folder) }
        let whole = try measured([]), word = try measured(["--trimmed"])
        #expect(whole["part"] as? String == "whole" && word["part"] as? String == "word")
        #expect(abs((whole["seconds"] as! Double) - 1.3) < 0.001)
        #expect(abs((word["seconds"] as! Double) - 0.34) <= 0.011, "\(word)")
        let tone = -23.01
        #expect(abs((whole["loudness"] as! Double) - (tone + 10 * log10(0.3 / 1.3))) < 0.1, "\(whole)")
        #expect(abs((word["loudness"] as! Double) - (tone + 10 * log10(0.3 / 0.34))) < 0.3, "\(word)")
        let text = try SoundsetExecutable.run(["measure", "--trimmed", "7.wav"], in: folder.url)
        #expect(text.stdout.hasSuffix("(the trimmed words, as the build keeps them)\n"), "\(text.stdout)")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        try Data(#"{"trim": {"padMs": 100}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let padded = try measured(["--trimmed", "--assets", "Assets"])
        #expect(abs((padded["seconds"] as! Double) - 0.5) <= 0.011, "\(padded)")
        // Assets, when there is one, without being named; a folder named that is not there is bad usage.
        #expect(try measured(["--trimmed"])["seconds"] as? Double == padded["seconds"] as? Double)
        let missing = try SoundsetExecutable.run(["measure", "--trimmed", "--assets", "Nowhere", "7.wav"], in: folder.url)
        #expect(missing.status == 64 && missing.stderr.contains("--assets Nowhere: no such folder"), "\(missing.stderr)")
        // A folder is not a take.
        let notAFile = try SoundsetExecutable.run(["measure", "--trimmed", "Assets"], in: folder.url)
        #expect(notAFile.status == 1 && notAFile.stderr.hasPrefix("error: Assets: cannot be read ("), "\(notAFile.stderr)")
        let alone = try SoundsetExecutable.run(["measure", "--assets", "Assets", "7.wav"], in: folder.url)
        #expect(alone.status == 64 && alone.stderr.contains("--assets is only for --trimmed"), "\(alone.stderr)")
    }

    /// With several voices in the assets folder, the trimmed word follows the voice's own
    /// soundset.json (a 100 ms pad in en-US's keeps 0.5 s of the 0.3 s tone, zh-CN's 10 ms 0.32 s):
    /// --voice names it, else the default voice; without either, or for a voice there is not, the
    /// error says what to pass.
    @Test func theTrimmedWordOfAVoiceIsTrimmedByThatVoicesSettings() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let rate = 16000
        let take =
            Signals.silence(seconds: 0.5, rate: rate) + Signals.tone(800, seconds: 0.3, rate: rate, amplitudeDb: -20)
            + Signals.silence(seconds: 0.5, rate: rate)
        try WAVFile.write(take, to: folder.url.appendingPathComponent("7.wav"), rate: rate)
        for (voice, pad) in [("zh-CN", 10), ("en-US", 100)] {
            let voiceFolder = try folder.folder("Assets/voices/\(voice)")
            try Data(#"{"trim": {"padMs": \#(pad)}}"#.utf8).write(to: voiceFolder.appendingPathComponent("soundset.json"))
        }
        func seconds(_ arguments: [String]) throws -> Double { try #require(try Self.measured(arguments, in: folder)["seconds"] as? Double) }
        // Several voices and no default: which voice's settings is the question.
        let which = try SoundsetExecutable.run(["measure", "--trimmed", "7.wav"], in: folder.url)
        #expect(which.status == 1, "\(which.stderr)")
        #expect(which.stderr.contains("several voices (en-US, zh-CN): pass --voice NAME or set defaultVoice in Assets/soundset.json"), "\(which.stderr)")
        let english = try seconds(["--trimmed", "--voice", "en-US"])
        #expect(english == (try seconds(["--trimmed", "--assets", "Assets/voices/en-US"])))
        #expect(abs(english - 0.5) <= 0.011, "\(english)")
        try Data(#"{"defaultVoice": "zh-CN", "sameLevel": -18}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        #expect(abs((try seconds(["--trimmed"])) - 0.32) <= 0.011)
        let unknown = try SoundsetExecutable.run(["measure", "--trimmed", "--voice", "fr-FR", "7.wav"], in: folder.url)
        #expect(unknown.status == 1 && unknown.stderr.contains("is not a voice of Assets (its voices: en-US, zh-CN)"), "\(unknown.stderr)")
        let whole = try SoundsetExecutable.run(["measure", "--voice", "en-US", "7.wav"], in: folder.url)
        #expect(whole.status == 64 && whole.stderr.contains("--voice is only for --trimmed"), "\(whole.stderr)")
        // A voice's own folder, named as the assets: one voice, and --voice has nothing to choose.
        let oneVoice = try SoundsetExecutable.run(["measure", "--trimmed", "--assets", "Assets/voices/en-US", "--voice", "en-US", "7.wav"], in: folder.url)
        #expect(
            oneVoice.status == 1
                && oneVoice.stderr.contains(
                    "--voice en-US: Assets/voices/en-US holds one voice (no Assets/voices/en-US/voices/): leave out --voice"),
            "\(oneVoice.stderr)")
        // No assets folder at all.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Assets"))
        let none = try SoundsetExecutable.run(["measure", "--trimmed", "--voice", "en-US", "7.wav"], in: folder.url)
        #expect(none.status == 64 && none.stderr.contains("--voice en-US: there is no Assets folder here; pass --assets DIR"), "\(none.stderr)")
    }
}
