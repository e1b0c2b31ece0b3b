import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The new set, whole, before anything is written: every clip file's bytes (or the last build's file
/// that holds them), their copies, and the manifest.
public struct SoundSetFiles: Sendable {
    /// One clip's file in `Sounds`.
    public struct ClipFile: Sendable {
        /// Its bytes, or the last build's file that holds them.
        public enum Content: Sendable {
            case bytes(Data)
            case reused(URL)
        }

        public var name: String
        /// The byte-identical copy's name, when the clip has one.
        public var copyName: String?
        public var content: Content
    }

    public var clips: [ClipFile]
    public var manifest: Manifest
    /// What each clip file holds, by file name, for the memo.
    public var facts: [String: BuildRecord.FinishedFact]
    /// Clips the encoding left over the ceiling.
    public var warnings: [BuildProblem]
}

/// Step 5 and 6: each clip encoded (or the last build's file taken), read back, and the manifest made
/// from what the files hold.
enum WriteStage {
    static func run(
        _ finished: FinishedSet, copies: Set<String>, configuration: Configuration, outputDisplay: String, jobs: Int
    ) async throws -> SoundSetFiles {
        let level = finished.level.level
        let results = try await finished.clips.concurrentMap(maxConcurrency: jobs) { entry -> (SoundSetFiles.ClipFile, ClipFigures, BuildProblem?) in
            let name = entry.summary.name
            let file = ClipFiles.fileName(name, configuration)
            let copy = copies.contains(name) ? ClipFiles.copyName(name, configuration) : nil
            switch entry {
            case .reused(let reused):
                return (SoundSetFiles.ClipFile(name: file, copyName: copy, content: .reused(reused.url)), reused.figures, nil)
            case .made(let clip):
                let encoded = try ClipEncoder.encode(
                    clip, level: level, configuration: configuration, displayPath: "\(outputDisplay)/\(SoundSetLayout.soundsName)/\(file)")
                return (SoundSetFiles.ClipFile(name: file, copyName: copy, content: .bytes(encoded.bytes)), encoded.figures, encoded.warning)
            }
        }
        let clips = zip(finished.clips, results).map { entry, result in
            manifestClip(entry.summary, file: result.0, figures: result.1, configuration: configuration)
        }
        let manifest = Manifest(
            toolVersion: ToolVersion.current, configurationHash: configuration.hash, locale: configuration.locale,
            sampleRate: configuration.sampleRate, channels: 1, container: configuration.container, encoding: configuration.encoding,
            loudness: .init(
                target: configuration.loudness.target, truePeakCeiling: configuration.loudness.truePeak,
                maxLimiterReductionDb: configuration.limiter.maxReductionDb, setLevel: rounded(level), reason: finished.level.reason),
            reading: configuration.reading, announcement: configuration.announcement, clips: clips)
        let facts = Dictionary(
            zip(finished.clips, results).map { entry, result in (result.0.name, BuildRecord.FinishedFact(key: entry.summary.key, figures: result.1)) },
            uniquingKeysWith: { a, _ in a })
        return SoundSetFiles(clips: results.map(\.0), manifest: manifest, facts: facts, warnings: results.compactMap(\.2))
    }

    /// The manifest's entry for a clip file, from its figures (dB rounded to 2 decimals).
    private static func manifestClip(_ summary: ClipSummary, file: SoundSetFiles.ClipFile, figures: ClipFigures, configuration: Configuration)
        -> Manifest.Clip
    {
        Manifest.Clip(
            name: summary.name, file: file.name, copy: file.copyName, frames: figures.frames,
            seconds: Double(figures.frames) / Double(configuration.sampleRate), loudness: rounded(figures.loudness),
            truePeak: rounded(figures.truePeak), gain: rounded(figures.gainDb), limiting: rounded(figures.limitingDb), sha256: figures.sha256,
            source: Manifest.Source(file: summary.recording.fileName, sha256: summary.sourceSHA256))
    }
}

/// Rounds a dB figure to 2 decimals for the manifest.
func rounded(_ value: Double) -> Double { value.isFinite ? (value * 100).rounded() / 100 : value }
