import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// Several voices in one assets folder (`Assets/voices/<voice>/`): each built into its own set
/// (`Output/voices/<voice>/`), indexed by `Output/voices.json`, checked and read per voice.
@Suite struct VoicesCommandTests {
    /// A folder with `Assets/voices/zh-CN` and `Assets/voices/en-US`, built once.
    func builtVoices() throws -> (TemporaryDirectory, RunResult) {
        let folder = try TemporaryDirectory()
        try AssetPacks.twoVoices(in: try folder.folder("Assets"))
        let build = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        return (folder, build)
    }

    func index(_ folder: TemporaryDirectory) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("Output/voices.json"))) as? [String: Any])
    }

    func manifest(_ folder: TemporaryDirectory, _ voice: String) throws -> Data {
        try Data(contentsOf: folder.url.appendingPathComponent("Output/voices/\(voice)/manifest.json"))
    }

    /// Every non-empty line of `text`.
    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func twoVoicesBuildTwoSetsAndASecondBuildDoesNothing() throws {
        let (folder, build) = try builtVoices()
        defer { folder.remove() }
        let top = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Output").path).sorted()
        #expect(top == ["voices", "voices.json"])
        for (voice, locale) in [("zh-CN", "zh-CN"), ("en-US", "en-US")] {
            let object = try #require(JSONSerialization.jsonObject(with: try manifest(folder, voice)) as? [String: Any])
            #expect(object["locale"] as? String == locale)
            #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output/voices/\(voice)/Sounds").path))
            #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output/voices/\(voice).report.html").path))
        }
        let index = try index(folder)
        #expect(index["schemaVersion"] as? Int == 1)
        #expect(index["defaultVoice"] is NSNull)
        let voices = try #require(index["voices"] as? [[String: Any]])
        #expect(voices.map { $0["voice"] as? String } == ["en-US", "zh-CN"])
        #expect(voices.map { $0["locale"] as? String } == ["en-US", "zh-CN"])
        #expect(voices.allSatisfy { ($0["setId"] as? String)?.count == 10 })
        // Every line names its voice; the last names the index.
        for line in lines(build.stdout + build.stderr) {
            #expect(line.hasPrefix("voice en-US: ") || line.hasPrefix("voice zh-CN: ") || line.hasPrefix("voices: "), "\(line)")
        }
        #expect(build.stdout.contains("voice en-US: built 38 clips"), "\(build.stdout)")
        #expect(build.stdout.contains("voice zh-CN: built 18 clips"), "\(build.stdout)")
        #expect(build.stdout.hasSuffix("voices: en-US, zh-CN (no default: set defaultVoice in Assets/soundset.json) in Output/voices.json\n"))

        let indexURL = folder.url.appendingPathComponent("Output/voices.json")
        let indexBefore = try Data(contentsOf: indexURL)
        let stampBefore = try FileManager.default.attributesOfItem(atPath: indexURL.path)[.modificationDate] as? Date
        let again = try SoundsetExecutable.run(["build", "--verbose"], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        for voice in ["en-US", "zh-CN"] {
            #expect(again.stdout.contains("voice \(voice): Output/voices/\(voice) is up to date"), "\(again.stdout)")
            #expect(again.stdout.contains("voice \(voice): work: "), "\(again.stdout)")
        }
        for line in lines(again.stdout) where line.contains(": work: ") {
            #expect(line.contains(" 0 decoded, 0 resampled;") && line.contains(" 0 clips encoded, 0 bytes written"), "\(line)")
        }
        #expect(try Data(contentsOf: indexURL) == indexBefore)
        #expect(try FileManager.default.attributesOfItem(atPath: indexURL.path)[.modificationDate] as? Date == stampBefore)
    }

    @Test func oneVoiceChangedRebuildsThatVoiceAlone() throws {
        let (folder, _) = try builtVoices()
        defer { folder.remove() }
        let chinese = try manifest(folder, "zh-CN")
        let english = try manifest(folder, "en-US")
        let take = Takes.word(before: 0.05, word: 0.2, after: 0.05, rate: 16000, levelDb: -20, seed: 4)
        try WAVFile.write(take.samples, to: folder.url.appendingPathComponent("Assets/voices/en-US/7.wav"), rate: 16000)
        let rebuild = try SoundsetExecutable.run(["build", "--verbose"], in: folder.url)
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(rebuild.stdout.contains("voice zh-CN: Output/voices/zh-CN is up to date"), "\(rebuild.stdout)")
        #expect(!rebuild.stdout.contains("Output/voices/en-US is up to date"), "\(rebuild.stdout)")
        #expect(rebuild.stdout.contains("voice en-US: built 38 clips"), "\(rebuild.stdout)")
        #expect(try manifest(folder, "zh-CN") == chinese)
        #expect(try manifest(folder, "en-US") != english)
        // The index follows the rebuilt set's id.
        let ids = try #require(index(folder)["voices"] as? [[String: Any]]).map { $0["setId"] as? String }
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(Set(ids).count == 2)

        // A voice removed from the assets is removed from the output, and said so.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Assets/voices/en-US"))
        let removed = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr == "voice en-US: soundset: removed Output/voices/en-US (Assets/voices/en-US is gone)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output/voices/en-US").path))
        #expect(try #require(index(folder)["voices"] as? [[String: Any]]).map { $0["voice"] as? String } == ["zh-CN"])
        #expect(try index(folder)["defaultVoice"] as? String == "zh-CN")
    }

    @Test func checkNamesTheVoiceOfAProblem() throws {
        let (folder, _) = try builtVoices()
        defer { folder.remove() }
        let pass = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(pass.status == 0, "\(pass.stdout)")
        #expect(pass.stdout.hasSuffix("check passed: 2 voices (en-US, zh-CN)\n"), "\(pass.stdout)")
        for line in lines(pass.stdout).dropLast() { #expect(line.hasPrefix("voice en-US: ") || line.hasPrefix("voice zh-CN: "), "\(line)") }

        // One byte of one of en-US's clips changed.
        let clip = folder.url.appendingPathComponent("Output/voices/en-US/Sounds/7.caf")
        var bytes = try Data(contentsOf: clip)
        bytes[bytes.count - 10] ^= 0x55
        try bytes.write(to: clip)
        let fail = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(fail.status == 1)
        let problems = lines(fail.stdout).filter { $0.contains("[integrity]") }
        #expect(problems.count == 1, "\(fail.stdout)")
        #expect(problems.first?.hasPrefix("voice en-US: [integrity] Output/voices/en-US/Sounds/7.caf: ") == true, "\(fail.stdout)")
        #expect(fail.stdout.contains("voice zh-CN: check passed: 18 clips"), "\(fail.stdout)")
        #expect(fail.stdout.hasSuffix("check failed: voice en-US\n"), "\(fail.stdout)")

        let one = try SoundsetExecutable.run(["check", "--voice", "zh-CN"], in: folder.url)
        #expect(one.status == 0, "\(one.stdout)")
        #expect(!one.stdout.contains("en-US"), "\(one.stdout)")
        let json = try SoundsetExecutable.run(["check", "--format", "json"], in: folder.url)
        #expect(json.status == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let voices = try #require(object["voices"] as? [[String: Any]])
        #expect(voices.map { $0["voice"] as? String } == ["en-US", "zh-CN"])
        #expect(voices.map { ($0["report"] as? [String: Any])?["ok"] as? Bool } == [false, true])
    }

    /// The loudness figures of a voice's manifest.
    func loudness(_ folder: TemporaryDirectory, _ voice: String) throws -> [String: Any] {
        let object = try #require(JSONSerialization.jsonObject(with: try manifest(folder, voice)) as? [String: Any])
        return try #require(object["loudness"] as? [String: Any])
    }

    @Test func sameLevelHoldsEveryVoiceToOneLevelOrSaysWhichCannot() throws {
        let (folder, _) = try builtVoices()
        defer { folder.remove() }
        let settings = folder.url.appendingPathComponent("Assets/soundset.json")
        // Built without it, the two voices are at the default target, -16 LUFS.
        #expect(try loudness(folder, "en-US")["setLevel"] as? Double == -16)

        try Data(#"{"defaultVoice": "zh-CN", "sameLevel": -21.5}"#.utf8).write(to: settings)
        let held = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(held.status == 0, "\(held.stderr)")
        #expect(!held.stderr.contains("warning"), "\(held.stderr)")
        for voice in ["en-US", "zh-CN"] {
            let figures = try loudness(folder, voice)
            #expect(figures["setLevel"] as? Double == -21.5, "\(voice): \(figures)")
            #expect(figures["target"] as? Double == -21.5, "\(voice): \(figures)")
        }
        // Each clip as measured in the file written: at the level, within the encoding's rounding.
        for voice in ["en-US", "zh-CN"] {
            let object = try #require(JSONSerialization.jsonObject(with: try manifest(folder, voice)) as? [String: Any])
            let clips = try #require(object["clips"] as? [[String: Any]])
            #expect(clips.allSatisfy { abs(($0["loudness"] as? Double ?? 0) - -21.5) < 0.2 }, "\(voice)")
        }
        let pass = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(pass.status == 0, "\(pass.stdout)")
        let again = try SoundsetExecutable.run(["build", "--verbose"], in: folder.url)
        #expect(again.stdout.contains("voice en-US: Output/voices/en-US is up to date"), "\(again.stdout)")

        // A voice's own target beside sameLevel is refused, naming the file.
        let english = folder.url.appendingPathComponent("Assets/voices/en-US/soundset.json")
        let englishSettings = try Data(contentsOf: english)
        try Data(#"{"locale": "en-US", "sampleRate": 16000, "announcement": {"prefix": "received"}, "loudness": {"target": -18}}"#.utf8).write(to: english)
        let twoTargets = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(twoTargets.status == 1)
        #expect(
            twoTargets.stderr.contains(
                "Assets/voices/en-US/soundset.json: loudness.target: every voice is held to one level, -21.5 LUFS, by sameLevel in the assets "
                    + "folder's soundset.json: remove this target (or sameLevel)"), "\(twoTargets.stderr)")
        try englishSettings.write(to: english)

        // A level the voices' peaks cannot reach: each voice below it is a warning, and the check fails naming it.
        try Data(#"{"sameLevel": -6}"#.utf8).write(to: settings)
        let loud = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(loud.status == 0, "\(loud.stderr)")
        let below = lines(loud.stderr).filter { $0.contains("below the -6 LUFS that sameLevel") }
        #expect(below.count == 2, "\(loud.stderr)")
        let level = try #require(try loudness(folder, "zh-CN")["setLevel"] as? Double)
        #expect(level < -6.5)
        let lowest = min(level, try #require(try loudness(folder, "en-US")["setLevel"] as? Double))
        let suggested = String(format: "set sameLevel to %.1f or lower (every voice reaches it)", (lowest * 10).rounded(.down) / 10)
        #expect(
            below.contains {
                $0.hasPrefix("voice zh-CN: warning: Output/voices/zh-CN/manifest.json: setLevel: voice zh-CN is at ")
                    && $0.contains("Assets/soundset.json") && $0.contains(suggested)
            }, "\(loud.stderr)")
        let fail = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(fail.status == 1)
        #expect(lines(fail.stdout).contains { $0.hasPrefix("voice zh-CN: [configuration] Output/voices/zh-CN/manifest.json: setLevel: ") })
        #expect(fail.stdout.hasSuffix("check failed: voices en-US, zh-CN\n"), "\(fail.stdout)")

        // A voice whose build fails is not held to the level: its set is the last one built.
        let chinese = folder.url.appendingPathComponent("Assets/voices/zh-CN/soundset.json")
        let chineseSettings = try Data(contentsOf: chinese)
        try Data(#"{"tempo": 9}"#.utf8).write(to: chinese)
        let oneFails = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(oneFails.status == 1)
        let warned = lines(oneFails.stderr).filter { $0.contains("below the -6 LUFS that sameLevel") }
        #expect(warned.count == 1 && warned.first?.hasPrefix("voice en-US: warning: ") == true, "\(oneFails.stderr)")
        try chineseSettings.write(to: chinese)

        // A new level: each voice's check names sameLevel, not the voice's own file.
        try Data(#"{"defaultVoice": "zh-CN", "sameLevel": -22.25}"#.utf8).write(to: settings)
        let stale = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(stale.status == 1)
        #expect(
            lines(stale.stdout).contains {
                $0.hasPrefix(
                    "voice en-US: [freshness] Assets/soundset.json: sameLevel: holds voice en-US to -22.25 LUFS, but its set was built to -6 LUFS: run ")
            }, "\(stale.stdout)")
        #expect(!stale.stdout.contains("Assets/voices/en-US/soundset.json"), "\(stale.stdout)")

        // A level at or above a voice's true-peak ceiling: the ceiling is what the voice's file says.
        try Data(#"{"sameLevel": -7}"#.utf8).write(to: settings)
        try Data(#"{"locale": "en-US", "sampleRate": 16000, "announcement": {"prefix": "received"}, "loudness": {"truePeak": -9}}"#.utf8).write(to: english)
        let ceiling = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(ceiling.status == 1)
        #expect(
            ceiling.stderr.contains(
                "Assets/voices/en-US/soundset.json: loudness.truePeak: must be above the -7 LUFS every voice is held to by sameLevel"),
            "\(ceiling.stderr)")
        try englishSettings.write(to: english)

        // Not a level: refused before anything is built.
        try Data(#"{"sameLevel": true}"#.utf8).write(to: settings)
        let wrong = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("Assets/soundset.json: sameLevel: "), "\(wrong.stderr)")
        #expect(
            wrong.stderr.contains("'1' is not a level: give the one loudness of every voice in LUFS, a number from -40 to -6")
                || wrong.stderr.contains("'true' is not a level"), "\(wrong.stderr)")
    }

    @Test func commandsReadTheVoiceAskedOrTheDefault() throws {
        let (folder, _) = try builtVoices()
        defer { folder.remove() }
        let noDefault = try SoundsetExecutable.run(["plan", "2.5"], in: folder.url)
        #expect(noDefault.status == 1)
        #expect(
            noDefault.stderr
                == "soundset: Output: several voices (en-US, zh-CN): pass --voice NAME or set defaultVoice in Assets/soundset.json\n")
        let english = try SoundsetExecutable.run(["plan", "2.5", "--voice", "en-US"], in: folder.url)
        #expect(english.status == 0, "\(english.stderr)")
        #expect(english.stdout.hasPrefix("2.50 (en-US): received 2 dollars and 50 cents"), "\(english.stdout)")
        let chinese = try SoundsetExecutable.run(["plan", "2.5", "--voice", "zh-CN"], in: folder.url)
        #expect(chinese.stdout.hasPrefix("2.50 (zh-CN): received 2 point 5 yuan"), "\(chinese.stdout)")
        let render = try SoundsetExecutable.run(["render", "2.5", "--voice", "en-US", "--out", "two.wav"], in: folder.url)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.hasPrefix("wrote two.wav (wav pcm16, 16000 Hz)"), "\(render.stdout)")
        let clips = try SoundsetExecutable.run(["clips", "--voice", "en-US"], in: folder.url)
        #expect(clips.status == 0 && clips.stdout.contains("\ndollars "), "\(clips.stdout)")
        let report = try SoundsetExecutable.run(["report", "--voice", "en-US"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.hasPrefix("wrote Output/voices/en-US.report.html: 38 clips, "), "\(report.stdout)")
        let announce = try SoundsetExecutable.run(["announce", "2.5", "--voice", "en-US", "--group", "G", "--format", "json"], in: folder.url)
        #expect(announce.status == 0, "\(announce.stderr)")
        #expect(announce.stdout.contains("\"dollars\""), "\(announce.stdout)")

        // The default named in Assets/soundset.json, written to the index by the next build.
        try Data(#"{"defaultVoice": "en-US"}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let build = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try index(folder)["defaultVoice"] as? String == "en-US")
        let defaulted = try SoundsetExecutable.run(["plan", "2.5"], in: folder.url)
        #expect(defaulted.stdout == english.stdout)
        let defaultClips = try SoundsetExecutable.run(["clips"], in: folder.url)
        #expect(defaultClips.stdout == clips.stdout)

        let unknown = try SoundsetExecutable.run(["plan", "1", "--voice", "fr-FR"], in: folder.url)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "soundset: --voice fr-FR: is not a voice of Output (its voices: en-US, zh-CN)\n")
        let bad = try SoundsetExecutable.run(["render", "1", "--voice", "../x", "--out", "x.wav"], in: folder.url)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("soundset: --voice '../x' is not a voice's name ("), "\(bad.stderr)")
        try Data("0 2.5\n".utf8).write(to: folder.url.appendingPathComponent("pushes.txt"))
        let replayed = try SoundsetExecutable.run(["replay", "pushes.txt", "--voice", "zh-CN", "--group", "R1", "--format", "jsonl"], in: folder.url)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains(#""clips":["received","2","point","5","yuan"]"#), "\(replayed.stdout)")
        let replay = try SoundsetExecutable.run(["replay", "pushes.txt", "--voice", "-x", "--group", "R"], in: folder.url)
        #expect(replay.status == 64)
        #expect(replay.stderr.hasPrefix("soundset: --voice '-x' is not a voice's name (a voice's name cannot start with '-')"), "\(replay.stderr)")
    }

    @Test func aBuildOfSeveralVoicesHoldsTheOutputsBuildLock() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.twoVoices(in: try folder.folder("Assets"))
        // This test holds the build lock of Output, as a running build (of one voice or several) would.
        _ = try folder.folder(".soundset-cache")
        let lock = try LockFile(folder.url.appendingPathComponent(".soundset-cache/lock-Output"))
        try lock.lock()
        lock.note("4242")
        let refused = try SoundsetExecutable.run(["build", "--no-wait"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: Output: is being built by another soundset (pid 4242); wait for it, or run again without --no-wait to wait\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output").path))
        lock.unlock()
        let built = try SoundsetExecutable.run(["build", "--quiet", "--no-wait"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output/voices.json").path))
    }

    @Test func oneVoiceOutputBecomesSeveralAndBadLayoutsAreRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let oneVoice = try SoundsetExecutable.run(["plan", "1", "--voice", "zh-CN"], in: folder.url)
        #expect(oneVoice.status == 1)
        #expect(oneVoice.stderr.hasPrefix("soundset: --voice zh-CN: Output holds one voice's set, not several: leave out --voice"), "\(oneVoice.stderr)")
        // Of the assets folder, the check says it of the assets.
        let checkOne = try SoundsetExecutable.run(["check", "--voice", "zh-CN"], in: folder.url)
        #expect(checkOne.status == 1)
        #expect(
            checkOne.stderr.contains(
                "--voice zh-CN: Assets holds one voice (no Assets/voices/): leave out --voice, or put each voice's takes in Assets/voices/<voice>/"),
            "\(checkOne.stderr)")

        // The takes move into a voice's folder: the one-voice set goes, and the build says so.
        let voice = assets.appendingPathComponent("voices/zh-CN")
        try FileManager.default.createDirectory(at: voice, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: assets.path) where name != "voices" {
            try FileManager.default.moveItem(at: assets.appendingPathComponent(name), to: voice.appendingPathComponent(name))
        }
        let moved = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stderr.contains("soundset: removed the one-voice set Output held (manifest.json, Sounds/)"), "\(moved.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Output").path).sorted() == ["voices", "voices.json"])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output.report.html").path))

        // A take beside voices/, a setting beside defaultVoice, a folder that cannot name a voice.
        try WAVFile.write(Takes.word().samples, to: assets.appendingPathComponent("8.wav"), rate: 16000)
        try Data(#"{"defaultVoice": "zh-CN", "tempo": 0.9}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        try FileManager.default.createDirectory(at: assets.appendingPathComponent("voices/zh CN"), withIntermediateDirectories: true)
        let refused = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(refused.status == 1)
        let errors = lines(refused.stderr)
        #expect(
            errors.contains { $0.hasPrefix("error: Assets/voices/zh CN: cannot name a voice (") && $0.hasSuffix("): rename the folder") }, "\(refused.stderr)")
        #expect(errors.contains { $0.hasPrefix("error: Assets/8.wav: is beside Assets/voices: ") && $0.contains("move it into Assets/voices/<voice>/") })
        #expect(errors.contains { $0.hasPrefix("error: Assets/soundset.json: tempo: with several voices this file holds only \"defaultVoice\"") })
        #expect(errors.last == "soundset: build failed with 3 problems; Output was not changed")
    }
}
