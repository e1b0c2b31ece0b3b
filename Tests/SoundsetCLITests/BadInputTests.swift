import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// The bad-input corpus: generated files that a designer's Assets folder might hold. Each gets one
/// line naming the file and the reason, the run exits 1, and Output stays exactly as it was.
@Suite struct BadInputTests {
    /// A folder with a good built set; returns the folder and Output's snapshot.
    func builtFolder() throws -> (TemporaryDirectory, [String: Data]) {
        let folder = try TemporaryDirectory()
        try AssetPacks.small(in: try folder.folder("Assets"))
        let result = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return (folder, snapshot(of: folder.url.appendingPathComponent("Output")))
    }

    static func wav(_ samples: [Float], channels: Int = 1, rate: Int = 16000, format: WAVFile.Format = .pcm16) -> Data {
        WAVFile.bytes(samples, rate: rate, channels: channels, format: format)
    }

    @Test func everyBadRecordingIsOneLineInOneRun() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        let assets = folder.url.appendingPathComponent("Assets")
        let word = Takes.word().samples
        var nan = word
        nan[100] = .nan
        nan[200] = .infinity
        var claims = Self.wav(word)
        claims.replaceSubrange(40..<44, with: withUnsafeBytes(of: UInt32(word.count * 4).littleEndian, Array.init))
        var random = SplitMix64(seed: 5)
        let files: [(String, Data)] = [
            ("empty.wav", Data()),
            ("header.wav", Self.wav(word).prefix(30)),
            ("claims.wav", claims),
            ("random.wav", Data((0..<5000).map { _ in random.nextByte() })),
            ("text.aiff", Data("this is not audio\n".utf8)),
            ("nan.wav", Self.wav(nan, format: .float32)),
            ("eight.wav", Self.wav(word.flatMap { Array(repeating: $0, count: 8) }, channels: 8)),
            ("tiny.wav", Self.wav(Signals.tone(440, seconds: 0.001, rate: 16000))),
            ("silent.wav", Self.wav(Signals.silence(seconds: 0.5, rate: 16000))),
            ("noise.wav", Self.wav(Signals.noise(seconds: 0.5, rate: 16000, rmsDb: -30))),
            ("long.wav", Self.wav(Signals.silence(seconds: 31, rate: 8000), rate: 8000)),
            ("with space.wav", Self.wav(word)),
            ("naïve.wav", Self.wav(word)),
            ("-dash.wav", Self.wav(word)),
            ("a..b.wav", Self.wav(word)),
            ("yuan.aiff", Self.wav(word)),
        ]
        for (name, data) in files { try data.write(to: assets.appendingPathComponent(name)) }
        let outside = try folder.folder("Elsewhere").appendingPathComponent("secret.wav")
        try Self.wav(word).write(to: outside)
        try FileManager.default.createSymbolicLink(at: assets.appendingPathComponent("link.wav"), withDestinationURL: outside)

        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let expected: [String: String] = [
            "Assets/-dash.wav": "'-dash' is not a valid clip name: it starts with '-' (a name must start with a letter, digit or '_'); rename the file",
            "Assets/a..b.wav": "'a..b' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename the file",
            "Assets/claims.wav": "is truncated: its header declares more audio than the file holds",
            "Assets/eight.wav": "has 8 channels; a voice take is mono or stereo (export the voice alone)",
            "Assets/empty.wav": "cannot be read as audio: ",
            "Assets/header.wav": "cannot be read as audio: ",
            "Assets/link.wav": "is a symbolic link to a file outside the assets folder (copy the recording in instead)",
            "Assets/long.wav": "is 31.0 s long; iOS plays the default sound for notification sounds of 30 s or more (cut it to one word or phrase)",
            "Assets/naïve.wav": "'naïve' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename the file",
            "Assets/nan.wav": "holds NaN or infinite samples (re-export it as PCM)",
            "Assets/noise.wav": "no speech found above ",
            "Assets/random.wav": "cannot be read as audio: ",
            "Assets/silent.wav": "no speech found above -inf dBFS (noise floor digital silence; is the file silent or only noise?)",
            "Assets/text.aiff": "cannot be read as audio: ",
            "Assets/tiny.wav": "no speech found",
            "Assets/with space.wav": "'with space' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename the file",
            "Assets/yuan.aiff": "it and Assets/yuan.wav make the same clip 'yuan' (keep one of them)",
        ]
        #expect(lines.count == expected.count + 1, "\(lines)")
        for (subject, message) in expected {
            let matching = lines.filter { $0.hasPrefix("error: \(subject): ") }
            #expect(matching.count == 1, "\(subject): \(matching)")
            #expect(matching.first?.dropFirst("error: \(subject): ".count).hasPrefix(message) == true, "\(matching)")
        }
        #expect(lines.last == "soundset: build failed with \(expected.count) problems; Output was not changed")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }

    @Test(arguments: [
        (
            "{ \"sampleRate\": ",
            "Assets/soundset.json: is not valid JSON: line 1, column 17: expected a value before the end of the file"
        ),
        ("{ sampleRate: 44100 }", "Assets/soundset.json: is not valid JSON: line 1, column 3: expected a string key in double quotes"),
        ("{\n  \"trim\": {\n    \"padMs\": 30,\n  }\n}", "Assets/soundset.json: line 3, column 16: trailing comma before '}' (remove it)"),
        (
            "{\"trim\": {},\n    \"trim\": {\"padMs\": 30}}",
            "Assets/soundset.json: line 2, column 5: key 'trim' appears twice (first on line 1); keep one"
        ),
        ("[1, 2]", "Assets/soundset.json: must hold a JSON object, not an array"),
        (
            #"{"sampleRat": 44100}"#,
            "Assets/soundset.json: sampleRat: unknown key: did you mean sampleRate? (known keys here: locale, sampleRate, container, encoding, loudness, limiter, trim, tempo, copies, reading, announcement, limits, maxAmount, maxAnnouncementSeconds, report)"
        ),
        (#"{"sampleRate": "44100"}"#, "Assets/soundset.json: sampleRate: must be a whole number (Hz), not a string"),
        (
            #"{"sampleRate": 0}"#,
            "Assets/soundset.json: sampleRate: 0 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)"
        ),
        (
            #"{"sampleRate": 10000000}"#,
            "Assets/soundset.json: sampleRate: 10000000 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)"
        ),
        (#"{"loudness": {"target": 20}}"#, "Assets/soundset.json: loudness.target: 20 LUFS is out of range (-40 to -6)"),
        (#"{"trim": {"padMs": -5}}"#, "Assets/soundset.json: trim.padMs: -5 ms is out of range (0 to 500)"),
        (#"{"limiter": {"maxReductionDb": 1e300}}"#, "Assets/soundset.json: limiter.maxReductionDb: 1e+300 dB is out of range (0 to 20)"),
        (#"{"copies": "0"}"#, "Assets/soundset.json: copies: must be an array of clip names, not a string"),
        (
            #"{"announcement": {"prefix": "../etc"}}"#,
            "Assets/soundset.json: announcement.prefix: '../etc' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed"
        ),
        (
            #"{"maxAmount": "1,000"}"#,
            "Assets/soundset.json: maxAmount: '1,000' is not an amount: the amount contains a thousands separator: write 1000"
        ),
        (
            #"{"x\n::error file=Assets/7.wav::forged": 1}"#,
            #"Assets/soundset.json: x\n::error file=Assets/7.wav::forged: unknown key (known keys here: locale, sampleRate, container, encoding, loudness, limiter, trim, tempo, copies, reading, announcement, limits, maxAmount, maxAnnouncementSeconds, report)"#
        ),
        (#"{"locale": "zh\r\n::error::forged"}"#, #"Assets/soundset.json: locale: 'zh\r\n::error::forged' is not one of zh-CN, en-US"#),
    ])
    func badConfigurationIsOneLine(json: String, line: String) throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        try Data(json.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(line)\nsoundset: build failed with 1 problem; Output was not changed\n")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }

    /// Under GitHub Actions, `check` prints each problem once as text and once as an annotation; a
    /// key holding a newline and `::error` adds no annotation of its own.
    @Test func aKeyFromTheFileCannotForgeAnAnnotation() throws {
        let (folder, _) = try builtFolder()
        defer { folder.remove() }
        try Data(#"{"x\n::error file=Assets/7.wav::forged": 1}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let result = try SoundsetExecutable.run(["check"], in: folder.url, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let texts = lines.filter { $0.hasPrefix("[") }
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == texts.count, "\(lines)")
        #expect(
            texts.contains(
                #"[configuration] Assets/soundset.json: x\n::error file=Assets/7.wav::forged: unknown key (known keys here: locale, sampleRate, container, encoding, loudness, limiter, trim, tempo, copies, reading, announcement, limits, maxAmount, maxAnnouncementSeconds, report)"#
            ), "\(lines)")
        #expect(lines.count == texts.count * 2 + 1, "\(lines)")
    }

    @Test func aClippedRecordingBuildsWithAWarning() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        var take = Takes.word(levelDb: -6).samples
        take = take.map { max(-1, min(1, $0 * 4)) }
        let clipped = take.filter { abs($0) >= 0.999 }.count  // at or within 0.01 dB of full scale
        try WAVFile.write(take, to: assets.appendingPathComponent("loud.wav"), rate: 16000, format: .float32)
        let result = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(clipped > 10)
        #expect(result.stderr.hasPrefix("warning: Assets/loud.wav: \(clipped) samples are clipped at full scale (record it again at a lower level)\n"))
    }

    /// A 20-minute recording is refused from its header: the process never decodes it, so its peak
    /// memory stays near an empty run's (decoding would need over 75 MB for the samples alone).
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["SOUNDSET_SANITIZER"] == nil,
            "the address sanitizer's shadow memory swamps the figure"))
    func aTwentyMinuteRecordingIsRefusedWithoutDecoding() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        // 16 kHz mono 16-bit: 38 MB on disk, 19.2 M samples.
        let url = assets.appendingPathComponent("lecture.wav")
        var header = Self.wav([])
        let bytes = 1200 * 16000 * 2
        header.replaceSubrange(4..<8, with: withUnsafeBytes(of: UInt32(36 + bytes).littleEndian, Array.init))
        header.replaceSubrange(40..<44, with: withUnsafeBytes(of: UInt32(bytes).littleEndian, Array.init))
        _ = FileManager.default.createFile(atPath: url.path, contents: header)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        let chunk = Data(repeating: 0x11, count: 1 << 20)
        for _ in 0..<(bytes / chunk.count) { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data(repeating: 0x11, count: bytes % chunk.count))
        try handle.close()
        let run = try SoundsetExecutable.runMeasuringMemory(["build", "--assets", assets.path, "--output", folder.url.appendingPathComponent("Output").path])
        #expect(run.status == 1)
        #expect(run.maxRSSKilobytes < 50_000, "peak \(run.maxRSSKilobytes) KB")
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.stderr.hasPrefix("error: Assets/lecture.wav: is 1200.0 s long; iOS plays the default sound"))
    }
}
