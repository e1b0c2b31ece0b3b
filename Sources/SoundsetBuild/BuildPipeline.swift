import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Where the build reads and writes, and how.
public struct BuildOptions: Sendable {
    public var assets: URL
    /// How the assets folder is named in messages.
    public var assetsDisplay: String
    public var output: URL
    /// How the output folder is named in messages.
    public var outputDisplay: String
    /// Clips processed at once; defaults to the number of cores.
    public var jobs: Int

    public init(assets: URL, assetsDisplay: String, output: URL, outputDisplay: String,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.assets = assets
        self.assetsDisplay = assetsDisplay
        self.output = output
        self.outputDisplay = outputDisplay
        self.jobs = jobs
    }
}

/// What a build did.
public struct BuildReport: Sendable {
    /// The manifest written to the output folder.
    public var manifest: Manifest
    /// How the set's level was decided.
    public var setLevel: SetLevel
    /// Things to look at that did not stop the build.
    public var warnings: [BuildProblem]
}

/// The whole build: catalog, prepare every clip, decide the set's level, finish and write every clip,
/// write the manifest, swap the output folder.
public enum BuildPipeline {
    /// Runs the build.
    /// - Throws: `BuildFailure` with every problem found; the output folder is then untouched.
    public static func run(_ options: BuildOptions) async throws -> BuildReport {
        let catalog = try AssetCatalog.load(assets: options.assets, displayName: options.assetsDisplay)
        let configuration = catalog.configuration
        let output: OutputFolder
        do { output = try OutputFolder(url: options.output, displayName: options.outputDisplay, assets: options.assets) } catch let problem as BuildProblem {
            throw BuildFailure([problem])
        }

        let outcomes = try await catalog.recordings.concurrentMap(maxConcurrency: options.jobs) { recording in
            Result { try ClipPreparer.prepare(recording, configuration: configuration) }.mapError { $0 as! BuildProblem }
        }
        let problems = catalog.problems + outcomes.compactMap { outcome -> BuildProblem? in
            if case .failure(let problem) = outcome { problem } else { nil }
        }
        let prepared = outcomes.compactMap { try? $0.get() }
        guard problems.isEmpty else {
            throw BuildFailure(problems.sorted { $0.subject < $1.subject }, warnings: prepared.flatMap(\.warnings))
        }

        var setLevel = SetLevel.decide(
            peakToLoudness: prepared.map { ($0.recording.name, $0.peakToLoudness) },
            target: configuration.loudness.target, ceiling: configuration.loudness.truePeak,
            maxReductionDb: configuration.limiter.maxReductionDb)
        // The level above comes from each clip's peak-to-loudness ratio; limiting lowers loudness, and
        // the make-up gain asks a little more of the limiter. Lower the level by any overshoot.
        var finished: [FinishedClip] = []
        for _ in 0..<3 {
            let level = setLevel.level
            finished = try await prepared.concurrentMap(maxConcurrency: options.jobs) { clip in
                try ClipFinisher.finish(clip, level: level, ceilingDb: configuration.loudness.truePeak - ClipWriter.ceilingMargin,
                                        sampleRate: configuration.sampleRate)
            }
            guard let worst = finished.max(by: { $0.limitingDb < $1.limitingDb }),
                  worst.limitingDb > configuration.limiter.maxReductionDb + 0.05 else { break }
            setLevel.lower(to: level - (worst.limitingDb - configuration.limiter.maxReductionDb),
                           because: worst.prepared.recording.name)
        }

        let staging = try { () throws -> URL in
            do { return try output.makeStaging() } catch let problem as BuildProblem { throw BuildFailure([problem]) }
        }()
        do {
            let copies = catalog.copies
            let level = setLevel.level
            let clips = try await finished.concurrentMap(maxConcurrency: options.jobs) { clip in
                try ClipWriter.write(clip, into: staging.appendingPathComponent(OutputFolder.soundsName),
                                     copy: copies.contains(clip.prepared.recording.name),
                                     level: level, configuration: configuration)
            }
            let manifest = Manifest(
                toolVersion: ToolVersion.current, configurationHash: configuration.hash, locale: configuration.locale,
                sampleRate: configuration.sampleRate, channels: 1, container: configuration.container.rawValue,
                encoding: configuration.encoding.rawValue,
                loudness: .init(target: configuration.loudness.target, truePeakCeiling: configuration.loudness.truePeak,
                                maxLimiterReductionDb: configuration.limiter.maxReductionDb,
                                setLevel: rounded(setLevel.level), reason: setLevel.reason),
                reading: configuration.reading, announcement: configuration.announcement, clips: clips)
            try manifest.encoded().write(to: staging.appendingPathComponent(OutputFolder.manifestName))
            try output.swap(in: staging)
            return BuildReport(manifest: manifest, setLevel: setLevel, warnings: prepared.flatMap(\.warnings))
        } catch let problem as BuildProblem {
            output.discard(staging)
            throw BuildFailure([problem])
        } catch {
            output.discard(staging)
            throw error
        }
    }
}

/// Rounds a dB figure to 2 decimals for the manifest.
func rounded(_ value: Double) -> Double { value.isFinite ? (value * 100).rounded() / 100 : value }
