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
