import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Step 5 and 6: each clip encoded (or the last build's file taken), read back, and the manifest made
/// from what the files hold. The clips of the set come encoded already (`ClipFileWriter`, as each
/// was finished), their bytes in the build's scratch folder: this stage holds no clip's bytes.
enum WriteStage {
    static func run(
        _ finished: FinishedSet, copies: Set<String>, configuration: Configuration, outputDisplay: String, jobs: Int
    ) async throws -> SoundSetFiles {
        let level = finished.level.level
        /// One clip's file and its figures.
        struct Written: Sendable {
            var file: SoundSetFiles.ClipFile
            var figures: ClipFigures
        }
        let results = try await finished.clips.concurrentMap(maxConcurrency: jobs) { entry -> Written in
            let name = entry.summary.name
            let file = ClipFiles.fileName(name, configuration)
            let copy = copies.contains(name) ? ClipFiles.copyName(name, configuration) : nil
            switch entry {
            case .reused(let reused):
                return Written(file: .init(name: file, copyName: copy, content: .reused(reused.url)), figures: reused.figures)
            case .encoded(let encoded):
                return Written(file: .init(name: file, copyName: copy, content: encoded.content), figures: encoded.figures)
            case .made(let clip):
                let encoded = try ClipEncoder.encode(
                    clip, level: level, configuration: configuration, displayPath: "\(outputDisplay)/\(SoundSetLayout.soundsName)/\(file)")
                return Written(file: .init(name: file, copyName: copy, content: .bytes(encoded.bytes)), figures: encoded.figures)
            }
        }
        let clips = zip(finished.clips, results).map { entry, result in
            manifestClip(entry.summary, file: result.file, figures: result.figures, configuration: configuration)
        }
        let manifest = Manifest(
            toolVersion: ToolVersion.current, configurationHash: configuration.hash, locale: configuration.locale,
            sampleRate: configuration.sampleRate, channels: 1, container: configuration.container, encoding: configuration.encoding,
            loudness: .init(
                target: configuration.loudness.target, truePeakCeiling: configuration.loudness.truePeak,
                maxLimiterReductionDb: configuration.limiter.maxReductionDb, setLevel: rounded(level), reason: finished.level.reason),
            reading: configuration.reading, announcement: configuration.announcement, clips: clips)
        let facts = Dictionary(
            zip(finished.clips, results).map { entry, result in
                (result.file.name, BuildRecord.FinishedFact(key: entry.summary.key, figures: result.figures))
            }, uniquingKeysWith: { a, _ in a })
        return SoundSetFiles(clips: results.map(\.file), manifest: manifest, facts: facts)
    }

    /// The manifest's entry for a clip file, from its figures (dB rounded to 2 decimals).
    private static func manifestClip(_ summary: ClipSummary, file: SoundSetFiles.ClipFile, figures: ClipFigures, configuration: Configuration)
        -> Manifest.Clip
    {
        Manifest.Clip(
            name: summary.name, file: file.name, copy: file.copyName, frames: figures.frames,
            seconds: Double(figures.frames) / Double(configuration.sampleRate), loudness: rounded(figures.loudness),
            truePeak: rounded(figures.truePeak), gain: rounded(figures.gainDb), limiting: rounded(figures.limitingDb), sha256: figures.sha256,
            source: Manifest.Source(file: summary.recording.fileName, sha256: summary.sourceSHA256), speech: summary.speech(inFileOf: figures.frames))
    }
}
