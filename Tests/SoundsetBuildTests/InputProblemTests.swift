import Foundation
import SoundsetAudio
import SoundsetBuild
import SoundsetSetFolder
import SoundsetTestSupport
import Testing

@Suite struct InputProblemTests {
    /// Builds `assets` into a folder that already holds a set, expects failure and an untouched output.
    func failures(_ prepare: (URL) throws -> Void) async throws -> [String] {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let output = folder.url.appendingPathComponent("Output")
        _ = try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output"))
        let before = snapshot(of: output)
        try prepare(assets)
        do {
            _ = try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output"))
            Issue.record("the build succeeded")
            return []
        } catch let failure as BuildFailure {
            #expect(snapshot(of: output) == before, "Output changed")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".soundset") && $0 != ".soundset-cache" }
            #expect(leftovers.isEmpty)
            return failure.problems.map(\.description)
        }
    }

    @Test func everyBadRecordingIsReportedInOneRun() async throws {
        let problems = try await failures { assets in
            try Data().write(to: assets.appendingPathComponent("empty.wav"))
            try Data("hello".utf8).write(to: assets.appendingPathComponent("notes.aiff"))
            try WAVFile.write(Signals.silence(seconds: 0.5, rate: 16000), to: assets.appendingPathComponent("quiet.wav"), rate: 16000)
            try WAVFile.write(Signals.tone(440, seconds: 0.2, rate: 16000), to: assets.appendingPathComponent("bad name.wav"), rate: 16000)
            try WAVFile.write(Signals.tone(440, seconds: 0.2, rate: 16000), to: assets.appendingPathComponent("yuan.aiff"), rate: 16000)
            try WAVFile.write(Signals.silence(seconds: 31, rate: 8000), to: assets.appendingPathComponent("long.wav"), rate: 8000)
            var nan = Signals.tone(440, seconds: 0.3, rate: 16000)
            nan[100] = .nan
            try WAVFile.write(nan, to: assets.appendingPathComponent("nan.wav"), rate: 16000, format: .float32)
        }
        #expect(problems.count == 7, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("Assets/empty.wav: cannot be read as audio: ") })
        #expect(problems.contains { $0.hasPrefix("Assets/notes.aiff: cannot be read as audio: ") })
        #expect(problems.contains { $0.hasPrefix("Assets/quiet.wav: no speech found") })
        #expect(
            problems.contains("Assets/bad name.wav: 'bad name' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename the file"))
        #expect(problems.contains("Assets/yuan.aiff: it and Assets/yuan.wav make the same clip 'yuan' (keep one of them)"))
        #expect(
            problems.contains(
                "Assets/long.wav: is 31.0 s long; iOS plays the default sound for notification sounds of 30 s or more (cut it to one word or phrase)"))
        #expect(problems.contains("Assets/nan.wav: holds NaN or infinite samples (re-export it as PCM)"))
    }

    /// Headers are read in parallel (and other tests open files meanwhile), and libsndfile reports a
    /// failed open through a global: each unreadable file must still get its own message, the one it
    /// gets when opened alone.
    @Test func everyUnreadableFileGetsItsOwnMessage() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let kinds: [Data] = [Data(), Data("hello, not audio".utf8), Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8), Data(repeating: 0x7f, count: 4000)]
        for index in 0..<24 { try kinds[index % kinds.count].write(to: assets.appendingPathComponent("bad\(index).wav")) }
        var alone: [String: String] = [:]
        for index in 0..<24 {
            let path = assets.appendingPathComponent("bad\(index).wav").path
            do { _ = try SoundFile.open(reading: path) } catch let error as SoundFileError {
                alone["Assets/bad\(index).wav"] = error.reason
            }
        }
        #expect(Set(alone.values).count > 1, "the kinds of damage should give different messages: \(alone)")
        for _ in 0..<5 {
            let catalog = try await AssetCatalog.load(assets: assets, displayName: "Assets", jobs: 4)
            #expect(catalog.problems.count == 24)
            for problem in catalog.problems {
                let reason = try #require(alone[problem.subject])
                #expect(problem.message.lowercased().hasPrefix("cannot be read as audio: \(reason.prefix(12).lowercased())"), "\(problem)")
            }
        }
    }

    @Test func badConfigurationNamesTheKey() async throws {
        let problems = try await failures { assets in
            try Data(
                #"{"loudnes": {}, "sampleRate": 0, "loudness": {"target": "loud", "truePeak": 3}, "container": "mp3", "encoding": "ima4", "trim": {"padMs": -1}}"#
                    .utf8
            )
            .write(to: assets.appendingPathComponent("soundset.json"))
        }
        #expect(problems.contains { $0.hasPrefix("Assets/soundset.json: loudnes: unknown key") })
        #expect(
            problems.contains("Assets/soundset.json: sampleRate: 0 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)"))
        #expect(problems.contains("Assets/soundset.json: loudness.target: must be a number (LUFS), not a string"))
        #expect(problems.contains("Assets/soundset.json: loudness.truePeak: 3 dBTP is out of range (-12 to 0)"))
        #expect(problems.contains { $0.hasPrefix("Assets/soundset.json: container: mp3 is not a supported iOS notification sound format") })
        #expect(problems.contains { $0.hasPrefix("Assets/soundset.json: encoding: ima4 is refused") })
        #expect(problems.contains("Assets/soundset.json: trim.padMs: -1 ms is out of range (0 to 500)"))
        #expect(problems.count == 7, "\(problems)")
    }

    @Test func configurationThatIsNotJSON() async throws {
        let problems = try await failures { assets in
            try Data("{ sampleRate: 44100 ".utf8).write(to: assets.appendingPathComponent("soundset.json"))
        }
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("Assets/soundset.json: is not valid JSON") == true)
    }

    @Test func copiesMustNameRecordingsAndNotCollide() async throws {
        let problems = try await failures { assets in
            try Data(#"{"copies": ["yuan", "ghost"]}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
            try WAVFile.write(Takes.word().samples, to: assets.appendingPathComponent("yuanCopy.wav"), rate: 16000)
        }
        #expect(problems.contains("Assets/soundset.json: copies: lists 'ghost' but there is no recording for it (add one or remove it from copies)"))
        #expect(problems.contains("Assets/yuanCopy.wav: has the name of the copy of clip 'yuan' (rename the recording)"))
    }

    @Test func announcementKeysAreCheckedAndTheirClipsMustExist() async throws {
        let problems = try await failures { assets in
            try Data(#"{"announcement": {"fallback": "ghost", "delivery": "push", "bannerSeconds": 40, "maxWait": 3}}"#.utf8)
                .write(to: assets.appendingPathComponent("soundset.json"))
        }
        #expect(problems.contains("Assets/soundset.json: announcement.delivery: 'push' is not one of composed, chain, auto"))
        #expect(problems.contains("Assets/soundset.json: announcement.bannerSeconds: 40 s is out of range (1 to 30)"))
        #expect(
            problems.contains(
                "Assets/soundset.json: announcement.maxWait: unknown key (known keys here: prefix, suffix, join, delivery, fallback, rushSound, gapMs, bannerSeconds, spacingSeconds, maxWaitSeconds, dedupeSeconds, leadInMs)"
            ))
        let missing = try await failures { assets in
            try Data(#"{"announcement": {"fallback": "ghost"}}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        }
        #expect(missing == ["Assets/soundset.json: announcement.fallback: names 'ghost' but there is no recording for it (add ghost.wav or change the fallback)"])
    }

    @Test func refusesAFolderThatIsNotASoundSet() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let precious = try folder.folder("Documents")
        try Data("keep me".utf8).write(to: precious.appendingPathComponent("thesis.txt"))
        for (output, message) in [
            (precious, "Documents: holds files but no soundset manifest; refusing to replace it (empty it or choose another --output)"),
            (assets, "Documents: is the assets folder or contains it; refusing to replace it (choose another --output)"),
            (folder.url, "Documents: is the assets folder or contains it; refusing to replace it (choose another --output)"),
        ] {
            let error = await #expect(throws: BuildFailure.self) {
                try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Documents"))
            }
            #expect(error?.problems.map(\.description) == [message])
        }
        #expect(try String(contentsOf: precious.appendingPathComponent("thesis.txt"), encoding: .utf8) == "keep me")
    }
}
