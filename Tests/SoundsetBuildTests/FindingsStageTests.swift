import Foundation
import SoundsetRuntime
import Testing

@testable import SoundsetAudio
@testable import SoundsetBuild
@testable import SoundsetFindings
@testable import SoundsetSetFolder

/// The findings stage: pure, from the clips' facts and the manifest, the same whatever built them.
@Suite struct FindingsStageTests {
    /// A manifest clip named `name` of `seconds`, and the facts of its take recorded at `loudness`.
    func clip(_ name: String, seconds: Double, loudness: Double, truePeak: Double = -1.5, notes: [ClipNote] = []) -> (Manifest.Clip, ClipFacts) {
        let frames = Int(seconds * 16000)
        let clip = Manifest.Clip(
            name: name, file: "\(name).caf", copy: nil, frames: frames, seconds: seconds, loudness: -16, truePeak: truePeak, gain: 0, limiting: 0,
            sha256: String(repeating: "0", count: 64), source: .init(file: "\(name).wav", sha256: String(repeating: "1", count: 64)), speech: nil)
        let region = TrimRegion(soundStart: 800, soundEnd: frames, keepStart: 0, keepEnd: frames + 800, noiseFloorDb: -70, peakDb: -10, thresholdDb: -60)
        let facts = ClipFacts(
            name: name, sourceFile: "\(name).wav", sourceRate: 16000, sourceFrames: frames + 1600, region: region, loudness: loudness, notes: notes)
        return (clip, facts)
    }

    func manifest(_ clips: [Manifest.Clip], prefix: String? = nil) -> Manifest {
        var announcement = AnnouncementSettings()
        announcement.prefix = prefix
        return Manifest(
            toolVersion: ToolVersion.current, configurationHash: "", locale: .zhCN, sampleRate: 16000, channels: 1, container: .caf, encoding: .ulaw,
            loudness: .init(target: -16, truePeakCeiling: -1, maxLimiterReductionDb: 6, setLevel: -16, reason: ""), announcement: announcement, clips: clips)
    }

    @Test func theSetsRulesNoteTheClipsTheyFind() {
        let parts = [
            clip("1", seconds: 0.3, loudness: -20, notes: [.clipped(samples: 3)]),
            clip("2", seconds: 0.3, loudness: -34),
            clip("3", seconds: 0.3, loudness: -21, truePeak: -0.8),
            clip("yuan", seconds: 0.9, loudness: -19),
            clip("received", seconds: 1.5, loudness: -20),
        ]
        let set = manifest(parts.map(\.0), prefix: "received")
        let check = CheckReport(
            ok: false, problems: [CheckProblem(.durations, "Output/Sounds/yuan.caf", "lasts 0.900 s, over the 0.5 s limit")], budget: nil, clips: 5)
        let findings = FindingsStage.run(manifest: set, facts: parts.map(\.1).reversed(), check: check, changes: nil).findings
        #expect(findings.clips.map(\.name) == set.clips.map(\.name))
        let notes = Dictionary(uniqueKeysWithValues: findings.clips.map { ($0.name, $0.notes) })
        // The take's own note first, then the set's: 2 is 14 LU under the median take (-20).
        #expect(notes["1"] == [.clipped(samples: 3)])
        #expect(notes["2"] == [.farFromOthers(lu: 14, quieter: true)])
        // Words only: the prefix is no word, so the median word is 0.3 s, and yuan is over twice it.
        #expect(notes["yuan"] == [.longerThanMedian(seconds: 0.9, median: 0.3)])
        #expect(notes["received"] == [])
        // A file over the ceiling is said of the file.
        #expect(notes["3"] == [.overCeiling(truePeak: -0.8, encoding: "ulaw", ceiling: -1)])
        let lines = findings.warnings(manifest: set, assetsDisplay: "Assets", outputDisplay: "Output").map(\.description)
        #expect(
            lines == [
                "Assets/1.wav: 3 samples are clipped at full scale (record it again at a lower level)",
                "Assets/2.wav: recorded 14 LU quieter than the other takes: check the microphone gain",
                "Output/Sounds/3.caf: its true peak is -0.80 dBTP after encoding as ulaw, over the -1.0 dBTP ceiling (lower loudness.truePeak or use pcm16)",
                "Assets/yuan.wav: 0.90 s, over twice the median word (0.30 s): is it one word?",
                "Output/Sounds/yuan.caf: lasts 0.900 s, over the 0.5 s limit",
            ])
        // The same facts give the same findings: a build that found the set up to date says the same.
        #expect(FindingsStage.run(manifest: set, facts: findings.clips.map(\.facts), check: check, changes: nil).findings == findings)
    }
}
