import Foundation
import SoundsetAudio
import SoundsetBuild
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// Takes that are not what they seem: a click in the room tone, a soft last sound.
@Suite struct TakeProblemsTests {
    func build(_ assets: URL, _ output: URL) async throws -> BuildReport {
        try await BuildPipeline.run(
            BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2, useCache: false))
    }

    /// The complete zh-CN pack with `five` as 5.wav; built, its report.
    func built(five: [Float], in folder: TemporaryDirectory) async throws -> BuildReport {
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        try WAVFile.write(five, to: assets.appendingPathComponent("5.wav"), rate: 16000)
        return try await build(assets, folder.url.appendingPathComponent("Output"))
    }

    /// One full-scale sample in the room tone 0.15 s before the word: the set keeps the level it has
    /// without it (-16.00 LUFS both; 2.7 dB lower before clicks were removed), the clip starts where
    /// the word does, and nothing is said of it (it was trimmed away).
    @Test func aClickInTheRoomToneNeitherLowersTheSetNorCountsAsSpeech() async throws {
        let clean = try TemporaryDirectory()
        defer { clean.remove() }
        let clicked = try TemporaryDirectory()
        defer { clicked.remove() }
        let without = try await built(five: Takes.withClick(at: 0.25, wordAt: 0.4, click: 0), in: clean)
        let with = try await built(five: Takes.withClick(at: 0.25, wordAt: 0.4), in: clicked)
        #expect(without.manifest.loudness.setLevel == -16)
        #expect(with.manifest.loudness.setLevel == without.manifest.loudness.setLevel)
        let five = try #require(with.manifest.clips.first { $0.name == "5" })
        let cleanFive = try #require(without.manifest.clips.first { $0.name == "5" })
        #expect(five.frames == cleanFive.frames)
        #expect(five.speech == cleanFive.speech)
        #expect(five.limiting == 0)
        #expect(!with.warnings.contains { $0.subject == "Assets/5.wav" }, "\(with.warnings)")
    }

    /// A click on the word is removed and said, with its time in the recording.
    @Test func aClickOnTheWordIsRemovedAndSaid() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let report = try await built(five: Takes.withClick(at: 0.55, wordAt: 0.4, levelDb: -32), in: folder)
        #expect(report.warnings.map(\.description).contains("Assets/5.wav: removed a click at 0.550 s"), "\(report.warnings)")
        #expect(report.manifest.loudness.setLevel == -16)
    }

    /// A take saying its word twice, 1.5 s apart: the louder is kept, and the other is a warning
    /// naming where it starts and how long it is (1.90 s within 10 ms, 0.25 s within 25 ms: the windows' 10 ms and the filter's ring).
    @Test func aSecondWordInATakeIsAWarningWithItsTimeAndLength() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let rate = 16000
        let dry =
            Signals.silence(seconds: 0.1, rate: rate) + Signals.tone(300, seconds: 0.3, rate: rate) + Signals.silence(seconds: 1.5, rate: rate)
            + Signals.tone(250, seconds: 0.25, rate: rate, amplitudeDb: -16) + Signals.silence(seconds: 0.2, rate: rate)
        let five = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -72))
        let report = try await built(five: five, in: folder)
        let said = report.warnings.map(\.description).filter { $0.hasPrefix("Assets/5.wav: a second word at ") }
        #expect(said.count == 1, "\(report.warnings)")
        let numbers = try #require(said.first).components(separatedBy: " was left out")[0].split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "(s")))
        }
        #expect(numbers.count == 2, "\(said)")
        #expect(abs(numbers[0] - 1.9) <= 0.01 && abs(numbers[1] - 0.25) <= 0.025, "\(said)")
        #expect(
            try #require(said.first).hasSuffix(
                "was left out, only the loudest is kept: record one word per take, or cut the take; if it is one phrase, raise trim.maxGapMs (now 250 ms) above its pause"
            ))
    }

    /// The manifest's speech reaches a soft final stop: its end, in ms after the clip's speech
    /// starts, is the burst's end after the vowel's start (within one 10 ms window of the start's
    /// own search, and never before the burst ends).
    @Test func theSpeechEndReachesASoftFinalStop() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        let take = Takes.softFinalStop()
        try WAVFile.write(take.samples, to: assets.appendingPathComponent("yuan.wav"), rate: 16000)
        try Data(#"{"sampleRate": 16000}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let clip = try #require(try await build(assets, folder.url.appendingPathComponent("Output")).manifest.clips.first)
        let speech = try #require(clip.speech)
        let speechMs = Double(speech.end - speech.start) / 16
        let soundMs = Double(take.burstEnd - take.start) / 16
        #expect(speechMs >= soundMs - 1 && speechMs <= soundMs + 12, "speech \(speechMs) ms, the word to the burst's end \(soundMs) ms")
        // The pad after it is the whole 20 ms.
        #expect(clip.frames - speech.end == 320)
    }
}
