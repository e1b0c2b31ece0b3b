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
    /// Use the cache beside the output folder (and skip the build when Output is up to date).
    public var useCache: Bool
    /// Called as each recording is prepared: (done, total, clip name). May be called from any task.
    public var progress: (@Sendable (Int, Int, String) -> Void)?

    public init(
        assets: URL, assetsDisplay: String, output: URL, outputDisplay: String,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, useCache: Bool = true,
        progress: (@Sendable (Int, Int, String) -> Void)? = nil
    ) {
        self.assets = assets
        self.assetsDisplay = assetsDisplay
        self.output = output
        self.outputDisplay = outputDisplay
        self.jobs = jobs
        self.useCache = useCache
        self.progress = progress
    }
}

/// What a build did.
public struct BuildReport: Sendable {
    /// The manifest written to (or, when up to date, found in) the output folder.
    public var manifest: Manifest
    /// Things to look at that did not stop the build.
    public var warnings: [BuildProblem]
    /// Nothing had changed: no audio work was done and nothing was written.
    public var upToDate: Bool
    /// Recordings whose prepared clip came from the cache.
    public var preparedFromCache: Int
    /// Clips whose finished file came from the cache.
    public var finishedFromCache: Int
    /// Tries of the level search answered by what the last build's search found (`BuildStamps.probes`).
    public var searchedFromCache: Int = 0
}

/// The whole build: catalog, prepare every clip, decide the set's level, finish and write every clip,
/// write the manifest, swap the output folder.
public enum BuildPipeline {
    /// Clips the level search finishes at each level it tries: the ones with the most true peak above loudness.
    static let levelProbes = 8

    /// Runs the build.
    /// - Throws: `BuildFailure` with every problem found; the output folder is then untouched.
    public static func run(_ options: BuildOptions) async throws -> BuildReport {
        let cacheFolder = ClipCache.folder(for: options.output.standardizedFileURL)
        // Nothing touched since the last build (by stat alone): done, without reading a byte of audio.
        if options.useCache, let head = BuildStamps.loadHead(cache: cacheFolder, output: options.output.standardizedFileURL),
            let manifest = UpToDate.byStamps(head, assets: options.assets, output: options.output.standardizedFileURL)
        {
            return BuildReport(
                manifest: manifest, warnings: [], upToDate: true, preparedFromCache: manifest.clips.count,
                finishedFromCache: manifest.clips.count)
        }
        let stamps = options.useCache ? BuildStamps.load(cache: cacheFolder, output: options.output.standardizedFileURL) : nil
        let catalog = try await AssetCatalog.load(assets: options.assets, displayName: options.assetsDisplay, jobs: options.jobs)
        let configuration = catalog.configuration
        let output: OutputFolder
        do { output = try OutputFolder(url: options.output, displayName: options.outputDisplay, assets: options.assets) } catch let problem as BuildProblem {
            throw BuildFailure([problem])
        }
        let jobs = options.jobs
        let progress = options.progress
        let total = catalog.recordings.count

        // Every recording's sha256 (the cache key, and what the manifest records); unchanged files
        // keep the one the last build found.
        let hashed = try await RecordingHashes.find(catalog.recordings, known: stamps, jobs: jobs)
        var problems = catalog.problems + hashed.compactMap(\.failure)
        guard problems.isEmpty || !catalog.recordings.isEmpty else { throw BuildFailure(problems) }
        let sources = zip(catalog.recordings, hashed).compactMap { recording, hash in (try? hash.get()).map { (recording, $0.0) } }
        let newStamps = BuildStamps(
            toolVersion: ToolVersion.current, configurationFileSHA256: BuildStamps.configurationFileSHA256(options.assets) ?? "",
            configurationHash: configuration.hash,
            recordings: Dictionary(
                zip(catalog.recordings, hashed).compactMap { recording, hash -> (String, BuildStamps.Recording)? in
                    guard let (sha, stamp) = try? hash.get(), let stamp else { return nil }
                    return (recording.fileName, BuildStamps.Recording(stamp: stamp, sha256: sha))
                }, uniquingKeysWith: { a, _ in a }),
            outputs: [:], finished: [:])
        // What this build's level search found (see `probe` below).
        var probes: [String: Double] = [:]
        var searchedFromCache = 0
        func saveStamps(finished: [String: FinishedFiles.Entry]) {
            guard options.useCache, let outputs = BuildStamps.outputStamps(output.url) else { return }
            var stamps = newStamps
            stamps.outputs = outputs
            stamps.finished = finished
            stamps.probes = probes
            stamps.save(cache: cacheFolder, output: output.url)
        }

        if problems.isEmpty, options.useCache,
            let current = UpToDate.manifest(in: output.url, sources: sources, configuration: configuration, copies: catalog.copies)
        {
            probes = stamps?.probes ?? [:]
            saveStamps(finished: stamps?.finished ?? [:])
            return BuildReport(manifest: current, warnings: [], upToDate: true, preparedFromCache: total, finishedFromCache: total)
        }

        let cache = options.useCache ? ClipCache(output: output.url, configurationHash: configuration.hash) : nil
        let lastFinished = stamps.map { FinishedFiles(stamps: $0, output: output.url) }
        let done = Counter()
        let outcomes = try await sources.concurrentMap(maxConcurrency: jobs) { recording, sha in
            defer { progress?(done.increment(), total, recording.name) }
            if let cached = cache?.prepared(recording, sourceSHA256: sha) { return Result<(PreparedClip, Bool), BuildProblem>.success((cached, true)) }
            return Result { () throws(BuildProblem) -> (PreparedClip, Bool) in
                let clip = try ClipPreparer.prepare(recording, sourceSHA256: sha, configuration: configuration)
                cache?.store(clip)
                return (clip, false)
            }
        }
        problems += outcomes.compactMap(\.failure)
        let preparedPairs = outcomes.compactMap { try? $0.get() }
        let prepared = preparedPairs.map(\.0)
        guard problems.isEmpty else {
            throw BuildFailure(problems.sorted { $0.subject < $1.subject }, warnings: prepared.flatMap(\.warnings))
        }

        var setLevel = SetLevel.decide(
            peakToLoudness: prepared.map { ($0.recording.name, $0.peakToLoudness) },
            target: configuration.loudness.target, ceiling: configuration.loudness.truePeak,
            maxReductionDb: configuration.limiter.maxReductionDb)
        // The level above comes from each clip's peak-to-loudness ratio; limiting lowers loudness, and
        // the make-up gain asks more of the limiter. The level search below settles it on the peakiest
        // clips; the full pass then lowers it by any overshoot left on the whole set (rarely).
        // The last round's results: the peakiest clips need not be finished twice at the same level.
        var lastRound: (level: Double, results: [String: Finishing]) = (.nan, [:])
        func finishAll(_ clips: [PreparedClip], at level: Double) async throws -> [Finishing] {
            let known = lastRound.level == level ? lastRound.results : [:]
            let results = try await clips.concurrentMap(maxConcurrency: jobs) { clip -> Finishing in
                if let done = known[clip.recording.name] { return done }
                if let cache, let (meta, file) = lastFinished?.file(
                    ClipWriter.fileName(clip.recording.name, configuration), key: cache.key(sourceSHA256: clip.sourceSHA256), level: level)
                {
                    return .cached(clip, meta, file)
                }
                // A clip read from the cache without its samples gets them now, or is made again.
                var full = clip
                if clip.isHollow {
                    full =
                        try cache?.filled(clip)
                        ?? ClipPreparer.prepare(clip.recording, sourceSHA256: clip.sourceSHA256, configuration: configuration)
                }
                return .computed(
                    try ClipFinisher.finish(
                        full, level: level, ceilingDb: configuration.loudness.truePeak - ClipWriter.ceilingMargin,
                        sampleRate: configuration.sampleRate))
            }
            lastRound = (level, Dictionary(results.map { ($0.prepared.recording.name, $0) }, uniquingKeysWith: { a, _ in a }))
            return results
        }
        // What the last build's level search found, by prepared clip and level: the same clip at the
        // same level needs the same limiting, so an unchanged set retraces the search without finishing.
        let lastProbes = stamps?.probes ?? [:]
        func probe(_ clips: [PreparedClip], at level: Double) async throws -> [Finishing] {
            func key(_ clip: PreparedClip) -> String { BuildStamps.probeKey(cache?.key(sourceSHA256: clip.sourceSHA256), level: level) }
            let computed = try await finishAll(clips.filter { lastProbes[key($0)] == nil }, at: level)
            let byName = Dictionary(computed.map { ($0.prepared.recording.name, $0) }, uniquingKeysWith: { a, _ in a })
            let results = clips.map { clip in byName[clip.recording.name] ?? .known(clip, limitingDb: lastProbes[key(clip)]!) }
            searchedFromCache += clips.count - computed.count
            if cache != nil { for result in results { probes[key(result.prepared)] = result.limitingDb } }
            return results
        }
        func overshoot(_ results: [Finishing]) -> Finishing? {
            results.filter { $0.limitingDb > configuration.limiter.maxReductionDb + LevelSearch.over }.max { $0.limitingDb < $1.limitingDb }
        }
        // The highest level at which no clip needs more than the allowed limiting, found on the
        // peakiest clips (the same few whatever the number of jobs): limiting grows with the level,
        // and faster than it, since the gain also makes up the loudness the limiter takes away.
        var probing = Array(
            prepared.sorted { ($0.peakToLoudness, $0.recording.name) > ($1.peakToLoudness, $1.recording.name) }.prefix(Self.levelProbes))
        let start = setLevel.level
        if let (level, clip) = try await LevelSearch.highest(
            from: start, maxReductionDb: configuration.limiter.maxReductionDb,
            limiting: { level in
                let results = try await probe(probing, at: level)
                // Every later try is lower, and the clips that needed the most limiting at the start
                // hold the level down: follow those two (the full pass below checks every clip). The
                // results hold the clips with their samples loaded and envelopes refined for the next try.
                probing = results.map(\.prepared)
                if level == start {
                    probing = results.sorted { ($0.limitingDb, $0.prepared.recording.name) > ($1.limitingDb, $1.prepared.recording.name) }
                        .prefix(2).map(\.prepared)
                }
                let worst = results.max { $0.limitingDb < $1.limitingDb }
                return (worst?.limitingDb ?? 0, worst?.prepared.recording.name ?? "")
            })
        {
            setLevel.lower(to: level, because: clip)
        }
        var finished: [Finishing] = []
        for round in 0..<3 {
            finished = try await finishAll(prepared, at: setLevel.level)
            // The last round's results are kept whatever they show, so the files match the level recorded.
            guard round < 2, let worst = overshoot(finished) else { break }
            setLevel.lower(to: setLevel.level - (worst.limitingDb - configuration.limiter.maxReductionDb), because: worst.prepared.recording.name)
        }

        let staging = try { () throws -> URL in
            do { return try output.makeStaging() } catch let problem as BuildProblem { throw BuildFailure([problem]) }
        }()
        do {
            let copies = catalog.copies
            let level = setLevel.level
            let sounds = staging.appendingPathComponent(SoundSetLayout.soundsName)
            // In groups of four, so that the new files are hashed together (see `ClipWriter.write`).
            let groups = stride(from: 0, to: finished.count, by: 4).map { Array(finished[$0..<min(finished.count, $0 + 4)]) }
            let written = try await groups.concurrentMap(maxConcurrency: jobs) { group -> [(Manifest.Clip, ClipCache.Finished)] in
                var results = [(Manifest.Clip, ClipCache.Finished)?](repeating: nil, count: group.count)
                var computed: [(position: Int, clip: FinishedClip)] = []
                for (position, item) in group.enumerated() {
                    switch item {
                    case .cached(let clip, let meta, let file):
                        let entry = try ClipWriter.place(
                            file, of: clip, meta: meta, from: lastFinished!, into: sounds, copy: copies.contains(clip.recording.name),
                            configuration: configuration)
                        results[position] = (entry, meta)
                    case .computed(let clip):
                        computed.append((position, clip))
                    case .known:
                        preconditionFailure("the full pass finishes every clip; only the level search knows a clip by its limiting")
                    }
                }
                let new = try ClipWriter.write(computed.map(\.clip), into: sounds, copies: copies, level: level, configuration: configuration)
                for (item, result) in zip(computed, new) { results[item.position] = result }
                return results.map { $0! }
            }.flatMap { $0 }
            let clips = written.map(\.0)
            let manifest = Manifest(
                toolVersion: ToolVersion.current, configurationHash: configuration.hash, locale: configuration.locale,
                sampleRate: configuration.sampleRate, channels: 1, container: configuration.container,
                encoding: configuration.encoding,
                loudness: .init(
                    target: configuration.loudness.target, truePeakCeiling: configuration.loudness.truePeak,
                    maxLimiterReductionDb: configuration.limiter.maxReductionDb,
                    setLevel: rounded(setLevel.level), reason: setLevel.reason),
                reading: configuration.reading, announcement: configuration.announcement, clips: clips)
            try manifest.encoded().write(to: staging.appendingPathComponent(SoundSetLayout.manifestName))
            try output.swap(in: staging)
            if let cache {
                saveStamps(
                    finished: Dictionary(
                        zip(finished, written).map { item, result in
                            (result.0.file, FinishedFiles.Entry(key: cache.key(sourceSHA256: item.prepared.sourceSHA256), finished: result.1))
                        }, uniquingKeysWith: { a, _ in a }))
            }
            cache?.prune(keeping: Set(prepared.map { cache!.key(sourceSHA256: $0.sourceSHA256) }))
            return BuildReport(
                manifest: manifest, warnings: prepared.flatMap(\.warnings), upToDate: false,
                preparedFromCache: preparedPairs.filter(\.1).count,
                finishedFromCache: finished.filter { if case .cached = $0 { true } else { false } }.count,
                searchedFromCache: searchedFromCache)
        } catch let problem as BuildProblem {
            output.discard(staging)
            throw BuildFailure([problem])
        } catch {
            output.discard(staging)
            throw error
        }
    }
}

/// A clip at the set's level: finished now, or its file taken from the cache.
enum Finishing: Sendable {
    case computed(FinishedClip)
    /// The last build's file for the clip, and its figures.
    case cached(PreparedClip, ClipCache.Finished, URL)
    /// Only the limiting, as the last build's level search found it (`BuildStamps.probes`).
    case known(PreparedClip, limitingDb: Double)

    var prepared: PreparedClip {
        switch self {
        case .computed(let clip): clip.prepared
        case .cached(let clip, _, _), .known(let clip, _): clip
        }
    }

    /// The limiting the level search goes by: the same whether the clip was finished now or cached.
    var limitingDb: Double {
        switch self {
        case .computed(let clip): clip.limitingDb
        case .cached(_, let meta, _): meta.searchLimitingDb
        case .known(_, let limitingDb): limitingDb
        }
    }
}

/// Counts finished clips across tasks for progress reports.
final class Counter: @unchecked Sendable {
    // Safe: the value is only touched under the lock.
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

/// Rounds a dB figure to 2 decimals for the manifest.
func rounded(_ value: Double) -> Double { value.isFinite ? (value * 100).rounded() / 100 : value }
