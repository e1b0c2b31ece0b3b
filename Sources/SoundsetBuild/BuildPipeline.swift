import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The whole build, in the README's words: catalog → hash → prepare → decide the level → finish →
/// write the set → swap. Each step is a stage in `Stages/`; what earlier builds found is the memo's
/// (`Memo/`), which every stage asks before it works.
public enum BuildPipeline {
    /// Runs the build, and warns of what the check will say of the set (its durations, completeness
    /// and budgets), so a designer hears of it before the app's CI does.
    /// - Throws: `BuildFailure` with every problem found; the output folder is then untouched.
    public static func run(_ options: BuildOptions) async throws -> BuildReport {
        try await build(options)
    }

    /// What the check's file-free parts say of `manifest` (`Checker.setCheck`), asked of the memo
    /// first: they depend on the manifest, `soundset.json` and the tool only, so a build that finds
    /// the set up to date says what the last one said without searching the budgets again.
    private static func setCheck(
        _ manifest: Manifest, options: BuildOptions, memo: any BuildMemo, configuration: () -> Configuration?
    ) -> CheckReport {
        let manifestSHA = (try? manifest.encoded()).map(SHA256.hex) ?? ""
        let key = [
            ToolVersion.current, manifestSHA, Stamps.configurationFileSHA256(options.assets) ?? "", options.assetsDisplay, options.outputDisplay,
            options.spelling.description,
        ].joined(separator: "\n")
        if let known = memo.setCheck(under: key) { return known }
        let configuration = configuration()
        let check = Checker.setCheck(
            manifest, configuration: configuration, assetsDisplay: options.assetsDisplay, outputDisplay: options.outputDisplay, spelling: options.spelling)
        if configuration != nil { memo.remember(check, under: key) }
        return check
    }

    /// What the check will say of the set (`Checker.setCheck`), as the build's warnings.
    private static func checkWarnings(_ check: CheckReport) -> [BuildProblem] {
        check.problems.map { BuildProblem($0.subject, $0.message) }
    }

    /// Writes the set's report again as `options` asks (reloading or not) when it is not so, holding
    /// the build's lock: what `build --watch` does last, whether or not its last build succeeded.
    public static func rewriteReport(_ options: BuildOptions) throws {
        let outputURL = try failing { () throws(BuildProblem) in try OutputFolder.resolve(options.output, display: options.outputDisplay) }
        let lock = try failing { () throws(BuildProblem) in
            try OutputLocks.build(outputURL, display: options.outputDisplay, wait: options.waitForOtherBuilds, waiting: options.waiting)
        }
        defer { withExtendedLifetime(lock) {} }
        let reportURL = outputURL.appendingPathComponent(Report.fileName)
        guard let written = Report.head(of: reportURL), Report.refreshes(written) != (options.reportRefreshSeconds != nil) else { return }
        try writeReport(options, outputURL: outputURL)
    }

    /// The report of the set in `outputURL`, written in place (the caller holds the build's lock).
    private static func writeReport(_ options: BuildOptions, outputURL: URL) throws(BuildFailure) {
        do {
            _ = try Report.write(
                assets: options.assets, assetsDisplay: options.assetsDisplay, output: outputURL, outputDisplay: options.outputDisplay,
                to: outputURL.appendingPathComponent(Report.fileName), fileDisplay: "\(options.outputDisplay)/\(Report.fileName)",
                refreshSeconds: options.reportRefreshSeconds, spelling: options.spelling)
        } catch let problem as BuildProblem { throw BuildFailure([problem]) } catch { throw BuildFailure([BuildProblem(options.outputDisplay, "\(error)")]) }
    }

    /// A set found up to date, whose report is made again (holding the build's lock) when it is not
    /// the one this build would write: missing (built with --no-report before), made with another
    /// `soundset.json` (the report's own settings changed), or reloading when it should not (a build
    /// after --watch), or the other way round; with --no-report, a report there is removed.
    private static func upToDate(_ manifest: Manifest, _ options: BuildOptions, outputURL: URL, memo: any BuildMemo) throws -> BuildReport {
        // What a killed build left beside the folder goes now, not at the next build that writes.
        OutputFolder.recoverInterruptedSwap(of: outputURL)
        var report = BuildReport.upToDate(manifest)
        report.warnings = checkWarnings(setCheck(manifest, options: options, memo: memo) {
            let configPath = "\(options.assetsDisplay)/\(ConfigurationLoader.fileName)"
            return try? ConfigurationLoader.load(from: options.assets.appendingPathComponent(ConfigurationLoader.fileName), displayPath: configPath)
        })
        let reportURL = outputURL.appendingPathComponent(Report.fileName)
        if !options.writeReport {
            if FileManager.default.fileExists(atPath: reportURL.path), (try? FileManager.default.removeItem(at: reportURL)) != nil {
                report.reportChange = .removed
            }
        } else if !(Report.head(of: reportURL).map { Report.isCurrent($0, assets: options.assets, refreshSeconds: options.reportRefreshSeconds) } ?? false) {
            try writeReport(options, outputURL: outputURL)
            report.reportChange = .written
        }
        return report
    }

    /// The build itself.
    private static func build(_ options: BuildOptions) async throws -> BuildReport {
        let outputURL = try failing { () throws(BuildProblem) in try OutputFolder.resolve(options.output, display: options.outputDisplay) }
        // A folder refused now is refused before anything is written beside it (asked again below,
        // holding the lock, for what another build did meanwhile).
        _ = try failing { () throws(BuildProblem) in try OutputFolder(url: outputURL, displayName: options.outputDisplay, assets: options.assets) }
        let lock = try failing { () throws(BuildProblem) in
            try OutputLocks.build(outputURL, display: options.outputDisplay, wait: options.waitForOtherBuilds, waiting: options.waiting)
        }
        defer { withExtendedLifetime(lock) {} }
        let memo = options.memo(for: outputURL)
        if let manifest = memo.unchangedSet(assets: options.assets, output: outputURL) { return try upToDate(manifest, options, outputURL: outputURL, memo: memo) }

        let catalog = try await AssetCatalog.load(assets: options.assets, displayName: options.assetsDisplay, jobs: options.jobs)
        let configuration = catalog.configuration
        let output = try failing { () throws(BuildProblem) in try OutputFolder(url: outputURL, displayName: options.outputDisplay, assets: options.assets) }
        let hashed = try await HashStage.run(catalog.recordings, memo: memo, clockFolder: outputURL.deletingLastPathComponent(), jobs: options.jobs)
        let problems = catalog.problems + hashed.problems
        if problems.isEmpty, let manifest = memo.currentSet(in: outputURL, for: hashed, configurationHash: configuration.hash, copies: catalog.copies) {
            memo.remember(findings(options, outputURL: outputURL, configuration, manifest: manifest, hashed: hashed, prepared: nil, files: nil, probes: [:]))
            return try upToDate(manifest, options, outputURL: outputURL, memo: memo)
        }

        let prepared = try await PrepareStage.run(hashed, configuration: configuration, memo: memo, jobs: options.jobs, progress: options.progress)
        guard problems.isEmpty, prepared.problems.isEmpty else {
            throw BuildFailure((problems + prepared.problems).sorted { $0.subject < $1.subject }, warnings: prepared.entries.flatMap(\.summary.warnings))
        }
        let loader = ClipLoader(memo: memo, configuration: configuration)
        let (decision, finished, set, reportWarnings) = try await oneProblemFails {
            let decision = try await LevelStage.decide(prepared, configuration: configuration, memo: memo, loader: loader, jobs: options.jobs)
            let finished = try await FinishStage.run(
                prepared, decision: decision, configuration: configuration, memo: memo, loader: loader, jobs: options.jobs)
            let set = try await WriteStage.run(
                finished, copies: catalog.copies, configuration: configuration, outputDisplay: options.outputDisplay, jobs: options.jobs)
            let check = setCheck(set.manifest, options: options, memo: memo) { configuration }
            var reportWarnings: [BuildProblem] = []
            try output.commit(set) { staging throws(BuildProblem) in
                guard options.writeReport else { return [:] }
                let report = try reportOf(staging, options: options, prepared: prepared, previous: output.previous, check: check)
                reportWarnings = report.warnings
                return [Report.fileName: report.html]
            }
            return (decision, finished, set, reportWarnings + checkWarnings(check))
        }
        memo.remember(findings(options, outputURL: outputURL, configuration, manifest: set.manifest, hashed: hashed, prepared: prepared, files: set, probes: decision.probes))

        return BuildReport(
            manifest: set.manifest, warnings: prepared.entries.flatMap(\.summary.warnings) + set.warnings + reportWarnings, upToDate: false,
            preparedFromCache: prepared.remembered, finishedFromCache: finished.reused, searchedFromCache: decision.remembered,
            previous: output.previous)
    }

    /// The report of the staged set, and its designer's warnings.
    private static func reportOf(_ staging: URL, options: BuildOptions, prepared: PreparedSet, previous: Manifest?, check: CheckReport) throws(BuildProblem)
        -> (html: Data, warnings: [BuildProblem])
    {
        let summaries = Dictionary(prepared.entries.map { ($0.summary.name, $0.summary) }, uniquingKeysWith: { a, _ in a })
        do {
            return try Report.staged(
                assets: options.assets, assetsDisplay: options.assetsDisplay, staging: staging, outputDisplay: options.outputDisplay,
                summaries: summaries, previous: previous, check: check, refreshSeconds: options.reportRefreshSeconds, spelling: options.spelling)
        } catch let problem as BuildProblem {
            throw problem
        } catch {
            throw BuildProblem("\(options.outputDisplay)/\(Report.fileName)", "cannot be made (\(error)); build with --no-report to skip it")
        }
    }

    /// One problem as a failed build.
    private static func failing<T>(_ body: () throws(BuildProblem) -> T) throws(BuildFailure) -> T {
        do { return try body() } catch { throw BuildFailure([error]) }
    }

    /// The stages after preparing stop at the first problem (a clip that cannot be read again or
    /// written): it is the build's one problem.
    private static func oneProblemFails<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let problem as BuildProblem { throw BuildFailure([problem]) }
    }

    /// What this build found, for the memo: the recordings as read (a recording whose bytes changed
    /// between hashing and decoding is not stamped), the files of the set (or, for a set found up to
    /// date, the last record's facts still true of it), and the level search's tries.
    private static func findings(
        _ options: BuildOptions, outputURL: URL, _ configuration: Configuration, manifest: Manifest, hashed: HashedRecordings, prepared: PreparedSet?,
        files: SoundSetFiles?,
        probes: [String: Double]
    ) -> BuildFindings {
        let decoded = Dictionary((prepared?.entries ?? []).map { ($0.summary.recording.fileName, $0.summary.sourceSHA256) }, uniquingKeysWith: { a, _ in a })
        var recordings: [String: BuildRecord.RecordingFact] = [:]
        for item in hashed.items where decoded[item.recording.fileName].map({ $0 == item.sha256 }) ?? true {
            if let stamp = item.stamp { recordings[item.recording.fileName] = .init(stamp: stamp, sha256: item.sha256) }
        }
        let configurationHash = configuration.hash
        let keys = Set(hashed.items.map { ClipKey.of(sourceSHA256: $0.sha256, configurationHash: configurationHash) })
        return BuildFindings(
            assets: options.assets, output: outputURL,
            configurationFileSHA256: Stamps.configurationFileSHA256(options.assets) ?? "", configurationHash: configurationHash,
            manifest: manifest, recordings: recordings, recordingsStampedAt: hashed.readFrom, finished: files?.facts, probes: probes, keys: keys)
    }
}
