import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// The whole build, in the README's words: catalog → hash → prepare → decide the level → finish →
/// write the set → find what there is to say of it → swap, with the report written beside the set.
/// Each step is a stage in `Stages/`; what earlier builds found is the memo's (`Memo/`), which
/// every stage asks before it works; the report (`Report/`) only draws the set and its findings.
public enum BuildPipeline {
    /// Runs the build, and warns of what a designer should know of the takes and what the check
    /// will say of the set (its durations, completeness and budgets), so a designer hears of it
    /// before the app's CI does: the same warnings whether the set was built now or found up to date.
    /// - Throws: `BuildFailure` with every problem found; the output folder is then untouched.
    public static func run(_ options: BuildOptions) async throws -> BuildReport {
        let counter = BuildWork.Counter()
        var report = try await BuildWork.Counter.$current.withValue(counter) {
            try await holdingTheLock(options) { outputURL, memo, scratch, notes in
                try await build(options, outputURL: outputURL, memo: memo, scratch: scratch, notes: notes)
            }
        }
        report.work = counter.counted
        return report
    }

    /// `soundset report`: writes the report of the set in the output folder where `options` says
    /// (`reportLocation`), made again whether or not one is there. The set must be up to date.
    /// - Throws: `BuildFailure` saying what to run when the set is not up to date.
    public static func writeReport(_ options: BuildOptions) async throws -> BuildReport {
        var options = options
        options.writeReport = true
        return try await holdingTheLock(options) { outputURL, memo, scratch, notes in
            let rebuild = Checker.rebuildCommand(assetsDisplay: options.assetsDisplay, outputDisplay: options.outputDisplay)
            guard let built = try? ManifestFiles.load(from: outputURL.appendingPathComponent(SoundSetLayout.manifestName)) else {
                throw BuildFailure([BuildProblem("\(options.outputDisplay)/\(SoundSetLayout.manifestName)", PipelineProblem.noManifest(rebuild: rebuild))])
            }
            guard let (manifest, configuration, hashed) = try await freshSet(options, outputURL: outputURL, memo: memo, scratch: scratch) else {
                // What is stale, in the check's words; else what else keeps the set from being the one built.
                let configuration = try? ConfigurationLoader.load(from: configurationURL(options), displayPath: configurationPath(options))
                let stale = Checker.freshness(
                    built, assets: options.assets, assetsDisplay: options.assetsDisplay, configuration: configuration,
                    configPath: configurationPath(options), manifestPath: "\(options.outputDisplay)/\(SoundSetLayout.manifestName)", rebuild: rebuild)
                throw BuildFailure(
                    stale.isEmpty
                        ? [BuildProblem(options.outputDisplay, PipelineProblem.notTheSetBuilt(assets: options.assetsDisplay, rebuild: rebuild))]
                        : stale.map { BuildProblem($0.subject, $0.message) })
            }
            return try await upToDate(manifest, configuration, options, outputURL: outputURL, memo: memo, hashed: hashed, notes: notes, rewrite: true)
        }
    }

    /// Writes the set's report again as `options` asks (reloading or not) when the one there does
    /// not: what `build --watch` does last, whether or not its last build succeeded.
    /// - Throws: `BuildFailure` when the report must be written again and the set is not up to date.
    public static func rewriteReport(_ options: BuildOptions) async throws {
        guard let head = Report.head(of: options.reportLocation.url), Report.refreshes(head) != (options.reportRefreshSeconds != nil) else { return }
        _ = try await writeReport(options)
    }

    // MARK: The build

    /// Resolves the output folder, refuses one that may not be replaced, takes its build lock, and
    /// moves soundset 0.8's report out of the set; then runs `body` with the build's scratch folder
    /// (`BuildScratch`), removed when it returns or throws (and what a killed build left, before).
    private static func holdingTheLock(
        _ options: BuildOptions, _ body: (URL, any BuildMemo, BuildScratch, [String]) async throws -> BuildReport
    ) async throws -> BuildReport {
        Interruption.shared.beginBuild()
        let outputURL = try failing { () throws(BuildProblem) in try OutputFolder.resolve(options.output, display: options.outputDisplay) }
        // A folder refused now is refused before anything is written beside it (asked again below,
        // holding the lock, for what another build did meanwhile).
        _ = try failing { () throws(BuildProblem) in try OutputFolder(url: outputURL, displayName: options.outputDisplay, assets: options.assets) }
        let lock = try failing { () throws(BuildProblem) in
            try OutputLocks.build(outputURL, display: options.outputDisplay, wait: options.waitForOtherBuilds, waiting: options.waiting)
        }
        defer { withExtendedLifetime(lock) {} }
        BuildScratch.removeLeftovers(of: outputURL)
        let scratch = BuildScratch(output: outputURL)
        defer { scratch.remove() }
        if options.writeReport {
            // The app bundles the output folder whole: no report goes in it.
            let report = options.reportLocation.url.standardizedFileURL.resolvingSymlinksInPath().path
            let folder = outputURL.resolvingSymlinksInPath().path
            if FolderPath.isWithin(report, folder: folder) {
                throw BuildFailure([
                    BuildProblem(
                        options.reportLocation.display,
                        PipelineProblem.reportInside(
                            output: options.outputDisplay,
                            defaultReport: Report.defaultLocation(output: options.output, outputDisplay: options.outputDisplay).display))
                ])
            }
        }
        let moved = try failing { () throws(BuildProblem) in
            try OutputFolder.moveLegacyReport(of: outputURL, displayName: options.outputDisplay, to: options.writeReport ? options.reportLocation : nil)
        }
        return try await body(outputURL, options.memo(for: outputURL), scratch, moved.map { [$0] } ?? [])
    }

    /// The set in the output folder, with its configuration, when it is fresh: by stamps, or by
    /// hashing the recordings (which are then given back); nil when it is not.
    private static func freshSet(
        _ options: BuildOptions, outputURL: URL, memo: any BuildMemo, scratch: BuildScratch
    ) async throws -> (Manifest, Configuration, HashedRecordings?)? {
        if let configuration = try? ConfigurationLoader.load(from: configurationURL(options), displayPath: configurationPath(options)),
            let manifest = memo.unchangedSet(assets: options.assets, output: outputURL, settingsHash: configuration.hash)
        {
            return (manifest, configuration, nil)
        }
        let (catalog, hashed) = try await readRecordings(options, outputURL: outputURL, memo: memo)
        guard catalog.problems.isEmpty, hashed.problems.isEmpty,
            let manifest = memo.currentSet(in: outputURL, for: hashed, configurationHash: catalog.configuration.hash, copies: catalog.copies)
        else { return nil }
        // Every value of its manifest as the build makes it.
        let prepared = try await PrepareStage.run(
            hashed, configuration: catalog.configuration, memo: memo, scratch: scratch, jobs: options.jobs, progress: nil)
        guard prepared.problems.isEmpty else { return nil }
        let set = try await derive(
            prepared, copies: catalog.copies, configuration: catalog.configuration, memo: memo, scratch: scratch, options: options
        ).2
        guard ManifestDifferences.between(manifest, set.manifest).isEmpty else { return nil }
        return (manifest, catalog.configuration, hashed)
    }

    /// The assets folder's recordings, read (their headers, which the memo answers for a take its
    /// stamp proves unchanged) and hashed. The clock is read before any header: a take edited after
    /// that is not proven unchanged by its stamp next time, so the header the record keeps is always
    /// the stamped file's.
    private static func readRecordings(
        _ options: BuildOptions, outputURL: URL, memo: any BuildMemo
    ) async throws -> (AssetCatalog, HashedRecordings) {
        let clockFolder = outputURL.deletingLastPathComponent()
        let readFrom = FileTime.now(in: clockFolder)
        let catalog = try await AssetCatalog.load(
            assets: options.assets, displayName: options.assetsDisplay, jobs: options.jobs, knownHeader: { memo.header(of: $0, stamp: $1) })
        let hashed = try await HashStage.run(catalog.recordings, memo: memo, clockFolder: clockFolder, readFrom: readFrom, jobs: options.jobs)
        return (catalog, hashed)
    }

    /// The build itself.
    private static func build(
        _ options: BuildOptions, outputURL: URL, memo: any BuildMemo, scratch: BuildScratch, notes: [String]
    ) async throws -> BuildReport {
        if let configuration = try? ConfigurationLoader.load(from: configurationURL(options), displayPath: configurationPath(options)),
            let manifest = memo.unchangedSet(assets: options.assets, output: outputURL, settingsHash: configuration.hash)
        {
            return try await upToDate(manifest, configuration, options, outputURL: outputURL, memo: memo, hashed: nil, notes: notes)
        }

        let (catalog, hashed) = try await readRecordings(options, outputURL: outputURL, memo: memo)
        let configuration = catalog.configuration
        let output = try failing { () throws(BuildProblem) in try OutputFolder(url: outputURL, displayName: options.outputDisplay, assets: options.assets) }
        let problems = catalog.problems + hashed.problems
        // A set fresh by its recordings' and settings' hashes, its files intact: up to date when its
        // manifest is the one this build makes (below), every value of it.
        let current = problems.isEmpty ? memo.currentSet(in: outputURL, for: hashed, configurationHash: configuration.hash, copies: catalog.copies) : nil

        let prepared = try await PrepareStage.run(
            hashed, configuration: configuration, memo: memo, scratch: scratch, budget: PreparedBudget(bytes: options.preparedBytesInMemory),
            jobs: options.jobs, progress: options.progress)
        guard problems.isEmpty, prepared.problems.isEmpty else {
            throw BuildFailure((problems + prepared.problems).sorted { $0.subject < $1.subject }, warnings: takeNotes(of: prepared))
        }
        let (decision, finished, set) = try await derive(
            prepared, copies: catalog.copies, configuration: configuration, memo: memo, scratch: scratch, options: options)
        var notes = notes
        if let note = linksNote(outputURL, options: options) { notes.append(note) }
        if let current {
            let differences = ManifestDifferences.between(current, set.manifest)
            if differences.isEmpty {
                memo.remember(
                    facts(
                        configuration, manifest: current, hashed: hashed, prepared: prepared, files: set, probes: decision.probes, options: options,
                        outputURL: outputURL))
                return try await upToDate(
                    current, configuration, options, outputURL: outputURL, memo: memo, hashed: hashed, prepared: prepared, notes: notes)
            }
            notes.append(rewriting(differences, options: options))
        }
        let sha256 = manifestSHA256(set.manifest)
        let (findings, same) = FindingsStage.run(
            manifest: set.manifest, facts: prepared.entries.map { ClipFacts($0.summary) },
            check: setCheck(set.manifest, sha256: sha256, options: options, memo: memo, configuration: configuration),
            changes: output.previous.map { BuildChanges(set.manifest, replacing: $0) }, known: memo.sameRecordingVerdicts())

        let place = options.writeReport ? options.reportLocation : nil
        let kept = place == nil ? [:] : memo.drawings()
        let (committed, drawn, reportChange) = try commit(
            set, to: output, report: place, findings: findings, configuration: configuration, prepared: prepared, kept: kept, options: options)
        let unwritten = committed.unwritten
        memo.remember(
            facts(
                configuration, manifest: set.manifest, hashed: hashed, prepared: prepared, files: set, probes: decision.probes, options: options,
                outputURL: outputURL))
        memo.remember(findings, ofManifest: sha256)
        memo.remember(same.verdicts)
        if place != nil { memo.remember(drawings: drawingsOf(set.manifest, kept: kept, drawn: drawn)) }

        var report = BuildReport(
            manifest: set.manifest,
            warnings: findings.warnings(manifest: set.manifest, assetsDisplay: options.assetsDisplay, outputDisplay: options.outputDisplay)
                + unwritten, upToDate: false, preparedFromCache: prepared.remembered, finishedFromCache: finished.reused,
            searchedFromCache: decision.remembered, previous: output.previous)
        report.report = unwritten.isEmpty ? place?.display : nil
        report.reportChange = reportChange
        report.drawnFromCache = place == nil ? 0 : set.manifest.clips.count - drawn.count
        report.notes = notes
        report.errors = committed.leftovers
        return report
    }

    /// Why a set with links in it is written again (the memo finds no such set up to date), or nil.
    private static func linksNote(_ outputURL: URL, options: BuildOptions) -> String? {
        let links = SetLink.links(in: outputURL)
        guard let link = links.first else { return nil }
        let more = links.count > 1 ? " (and \(links.count - 1) more link\(links.count == 2 ? "" : "s"))" : ""
        return
            "\(options.outputDisplay)/\(link.path) is a link to \(link.target)\(more), which a commit or an app bundle carries instead of the file: the set is written again with files in their place"
    }

    /// Commits `set` to `output`. The report (at `place`, unless nil), drawn from the staged set
    /// once it is verified, is written beside it right after the swap, under the same lock; with
    /// no report asked, a stale one is removed. Returns the commit, the drawings made, and what
    /// became of the report.
    private static func commit(
        _ set: SoundSetFiles, to output: OutputFolder, report place: (url: URL, display: String)?, findings: SetFindings, configuration: Configuration,
        prepared: PreparedSet, kept: [String: ClipDrawing], options: BuildOptions
    ) throws -> (OutputFolder.Committed, [String: ClipDrawing], BuildReport.ReportChange?) {
        let envelopes = Dictionary(prepared.entries.map { ($0.summary.name, $0.summary.analysis.envelope) }, uniquingKeysWith: { a, _ in a })
        var drawn: [String: ClipDrawing] = [:]
        var reportChange: BuildReport.ReportChange?
        let committed = try failing { () throws(BuildProblem) in
            try output.commit(set) { staging throws(BuildProblem) in
                guard let place else {
                    guard let removed = staleReportRemoval(options) else { return [] }
                    reportChange = .removed
                    return [removed]
                }
                let rendered = try render(
                    ReportInput(
                        manifest: set.manifest, sounds: staging.appendingPathComponent(SoundSetLayout.soundsName), outputDisplay: options.outputDisplay,
                        findings: findings, configuration: configuration, drawings: kept, envelopes: envelopes,
                        refreshSeconds: options.reportRefreshSeconds, jobs: options.jobs), display: place.display)
                drawn = rendered.drawn
                return [OutputFolder.Beside(url: place.url, display: place.display, data: rendered.html)]
            }
        }
        return (committed, drawn, reportChange)
    }

    /// The set the build makes of `prepared`: the level decided, every clip finished at it, each
    /// file (its bytes in `scratch`, or in memory without one; or the last build's file) and the
    /// manifest made from them. The one place a
    /// manifest's values are computed: the build writes it, and a set found in the output folder
    /// is up to date only when its manifest is this one (the build's, `soundset report`'s and the
    /// check's judgement). The memo answers what earlier builds found, so a set the memo knows is
    /// derived again without finishing a clip.
    static func derive(
        _ prepared: PreparedSet, copies: Set<String>, configuration: Configuration, memo: any BuildMemo, scratch: BuildScratch?,
        options: BuildOptions
    ) async throws -> (LevelDecision, FinishedSet, SoundSetFiles) {
        let loader = ClipLoader(memo: memo, scratch: scratch, configuration: configuration)
        let writer = ClipFileWriter(configuration: configuration, outputDisplay: options.outputDisplay, scratch: scratch)
        return try await oneProblemFails {
            let decision = try await LevelStage.decide(
                prepared, configuration: configuration, memo: memo, loader: loader, writer: writer, jobs: options.jobs)
            let finished = try await FinishStage.run(
                prepared, decision: decision, configuration: configuration, memo: memo, loader: loader, writer: writer, jobs: options.jobs)
            let set = try await WriteStage.run(
                finished, copies: copies, configuration: configuration, outputDisplay: options.outputDisplay, jobs: options.jobs)
            // Every clip is finished: the prepared samples' room on the disk goes to the set.
            scratch?.dropClips()
            return (decision, finished, set)
        }
    }

    /// What a build says when the manifest in the output folder is not the one it makes of the
    /// same recordings and settings (edited by hand, or written by something else): the keys.
    private static func rewriting(_ differences: [ManifestDifference], options: BuildOptions) -> String {
        let shown = differences.prefix(6).map(\.key).joined(separator: ", ") + (differences.count > 6 ? " and \(differences.count - 6) more" : "")
        return "\(options.outputDisplay)/\(SoundSetLayout.manifestName) is not what \(options.assetsDisplay) gives (\(shown)): the set is built again"
    }

    /// A set found up to date: its findings (the last build's, kept by the memo, or found again
    /// from its clips' facts, prepared again where the memo lacks them), and its report written
    /// again when the one beside it is not the one this build would write (`rewrite`: always);
    /// with --no-report, the one at its default place is removed.
    private static func upToDate(
        _ manifest: Manifest, _ configuration: Configuration, _ options: BuildOptions, outputURL: URL, memo: any BuildMemo, hashed: HashedRecordings?,
        prepared: PreparedSet? = nil, notes: [String], rewrite: Bool = false
    ) async throws -> BuildReport {
        // What a killed build left beside the folder goes now, not at the next build that writes.
        try OutputFolder.recoverInterruptedSwap(of: outputURL, displayName: options.outputDisplay)
        // The manifest's bytes as written (what `Manifest.encoded` gives), read rather than encoded again.
        let sha256 =
            (try? SHA256.hex(fileAt: outputURL.appendingPathComponent(SoundSetLayout.manifestName))) ?? manifestSHA256(manifest)
        var summaries: [ClipSummary]?
        let kept = memo.findings(ofManifest: sha256).flatMap { $0.clips.map(\.name) == manifest.clips.map(\.name) ? $0 : nil }
        let check = setCheck(manifest, sha256: sha256, options: options, memo: memo, configuration: configuration)
        let findings: SetFindings
        if let kept {
            // The notes the findings stage gave this very manifest and these facts: the same again,
            // without comparing a take (only the check's words may differ, with the folders' names).
            findings = SetFindings(clips: kept.clips, check: check, changes: kept.changes)
        } else {
            summaries = try await prepareAgain(manifest, configuration, options, outputURL: outputURL, memo: memo, hashed: hashed, prepared: prepared)
            let (made, same) = FindingsStage.run(
                manifest: manifest, facts: summaries!.map(ClipFacts.init), check: check, changes: nil, known: memo.sameRecordingVerdicts())
            findings = made
            memo.remember(findings, ofManifest: sha256)
            memo.remember(same.verdicts)
        }
        var report = BuildReport.upToDate(
            manifest, warnings: findings.warnings(manifest: manifest, assetsDisplay: options.assetsDisplay, outputDisplay: options.outputDisplay))
        report.notes = notes

        guard options.writeReport else {
            if let removal = staleReportRemoval(options) {
                report.warnings += try failing { () throws(BuildProblem) in try OutputFolder.placeBeside(outputURL, [removal]) }
                report.reportChange = .removed
            }
            return report
        }
        let place = options.reportLocation
        let id = SoundSet(manifest: manifest, folder: outputURL).id
        let key = Report.key(configuration: configuration, refreshSeconds: options.reportRefreshSeconds)
        if !rewrite, let head = Report.head(of: place.url), Report.isCurrent(head, setID: id, key: key) {
            report.report = place.display
            return report
        }
        let drawings = memo.drawings()
        var envelopes: [String: ClipEnvelope] = [:]
        if manifest.clips.contains(where: { drawings[ClipDrawing.key($0)] == nil }) {
            if summaries == nil {
                summaries = try await prepareAgain(manifest, configuration, options, outputURL: outputURL, memo: memo, hashed: hashed, prepared: prepared)
            }
            envelopes = Dictionary(summaries!.map { ($0.name, $0.analysis.envelope) }, uniquingKeysWith: { a, _ in a })
        }
        let rendered = try failing { () throws(BuildProblem) in
            try render(
                ReportInput(
                    manifest: manifest, sounds: outputURL.appendingPathComponent(SoundSetLayout.soundsName), outputDisplay: options.outputDisplay,
                    findings: findings, configuration: configuration, drawings: drawings, envelopes: envelopes,
                    refreshSeconds: options.reportRefreshSeconds, jobs: options.jobs), display: place.display)
        }
        let unwritten = try failing { () throws(BuildProblem) in
            try OutputFolder.placeBeside(outputURL, [OutputFolder.Beside(url: place.url, display: place.display, data: rendered.html)])
        }
        memo.remember(drawings: drawingsOf(manifest, kept: drawings, drawn: rendered.drawn))
        report.warnings += unwritten
        if unwritten.isEmpty {
            report.report = place.display
            report.reportChange = .written
        }
        return report
    }

    /// The summaries of a set's clips, prepared again (the memo answers for the clips it keeps):
    /// for a set found up to date whose findings or drawings the memo does not have.
    /// - Throws: `BuildFailure` when a recording cannot be prepared, or is no longer the one built.
    private static func prepareAgain(
        _ manifest: Manifest, _ configuration: Configuration, _ options: BuildOptions, outputURL: URL, memo: any BuildMemo, hashed: HashedRecordings?,
        prepared given: PreparedSet?
    ) async throws -> [ClipSummary] {
        var recordings = hashed
        if recordings == nil {
            let (catalog, hashed) = try await readRecordings(options, outputURL: outputURL, memo: memo)
            guard catalog.problems.isEmpty else { throw BuildFailure(catalog.problems) }
            recordings = hashed
        }
        let prepared: PreparedSet
        if let given {
            prepared = given
        } else {
            prepared = try await PrepareStage.run(recordings!, configuration: configuration, memo: memo, jobs: options.jobs, progress: nil)
        }
        guard prepared.problems.isEmpty else { throw BuildFailure(prepared.problems) }
        let summaries = Dictionary(prepared.entries.map { ($0.summary.name, $0.summary) }, uniquingKeysWith: { a, _ in a })
        return try manifest.clips.map { clip in
            guard let summary = summaries[clip.name], summary.sourceSHA256 == clip.source.sha256 else {
                throw BuildFailure([
                    BuildProblem("\(options.assetsDisplay)/\(ClipName.printable(clip.source.file))", StageProblem.changed)
                ])
            }
            return summary
        }
    }

    /// The report drawn, or the problem worded as the build says it.
    private static func render(_ input: ReportInput, display: String) throws(BuildProblem) -> (html: Data, drawn: [String: ClipDrawing]) {
        do { return try Report.render(input) } catch {
            throw BuildProblem(display, PipelineProblem.reportUnmade(subject: error.subject, reason: error.message))
        }
    }

    /// With --no-report: the report at its default place, when soundset wrote it, to remove (a
    /// report older than the set is worse than none).
    private static func staleReportRemoval(_ options: BuildOptions) -> OutputFolder.Beside? {
        let place = Report.defaultLocation(output: options.output, outputDisplay: options.outputDisplay)
        guard let head = Report.head(of: place.url), Report.isSoundsetReport(head) else { return nil }
        return OutputFolder.Beside(url: place.url, display: place.display, data: nil)
    }

    /// The drawings of `manifest`'s clips, kept or drawn now: what the memo keeps for the next report.
    private static func drawingsOf(_ manifest: Manifest, kept: [String: ClipDrawing], drawn: [String: ClipDrawing]) -> [String: ClipDrawing] {
        var drawings: [String: ClipDrawing] = [:]
        for clip in manifest.clips {
            let key = ClipDrawing.key(clip)
            if let drawing = drawn[key] ?? kept[key] { drawings[key] = drawing }
        }
        return drawings
    }

    /// The take's own notes of the clips prepared, as the warnings of a build that failed.
    private static func takeNotes(of prepared: PreparedSet) -> [BuildProblem] {
        prepared.entries.flatMap { entry in entry.summary.analysis.notes.map { BuildProblem(entry.summary.recording.displayPath, $0.message) } }
    }

    /// What the check's file-free parts say of `manifest` (`Checker.setCheck`), asked of the memo
    /// first: they depend on the manifest, every setting and the tool only, so a build that finds
    /// the set up to date says what the last one said without searching the budgets again.
    private static func setCheck(
        _ manifest: Manifest, sha256: String, options: BuildOptions, memo: any BuildMemo, configuration: Configuration
    ) -> CheckReport {
        let key = [ToolVersion.current, sha256, configuration.allSettingsHash, options.assetsDisplay, options.outputDisplay]
            .joined(separator: "\n")
        if let known = memo.setCheck(under: key) { return known }
        let check = Checker.setCheck(manifest, configuration: configuration, assetsDisplay: options.assetsDisplay, outputDisplay: options.outputDisplay)
        memo.remember(check, under: key)
        return check
    }

    private static func manifestSHA256(_ manifest: Manifest) -> String { (try? ManifestFiles.bytes(of: manifest)).map(SHA256.hex) ?? "" }

    private static func configurationURL(_ options: BuildOptions) -> URL { options.assets.appendingPathComponent(ConfigurationLoader.fileName) }
    private static func configurationPath(_ options: BuildOptions) -> String { "\(options.assetsDisplay)/\(ConfigurationLoader.fileName)" }

    /// One problem as a failed build.
    private static func failing<T>(_ body: () throws(BuildProblem) -> T) throws(BuildFailure) -> T {
        do { return try body() } catch { throw BuildFailure([error]) }
    }

    /// The stages after preparing stop at the first problem (a clip that cannot be read again or
    /// written): it is the build's one problem.
    private static func oneProblemFails<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let problem as BuildProblem { throw BuildFailure([problem]) }
    }

    /// What this build read and wrote, for the memo: the recordings as read (a recording whose
    /// bytes changed between hashing and decoding is not stamped), the files of the set (or, for a
    /// set found up to date, the last record's facts still true of it), and the level search's tries.
    private static func facts(
        _ configuration: Configuration, manifest: Manifest, hashed: HashedRecordings, prepared: PreparedSet?, files: SoundSetFiles?,
        probes: [String: Double], options: BuildOptions, outputURL: URL
    ) -> BuildFacts {
        let decoded = Dictionary((prepared?.entries ?? []).map { ($0.summary.recording.fileName, $0.summary.sourceSHA256) }, uniquingKeysWith: { a, _ in a })
        var recordings: [String: BuildRecord.RecordingFact] = [:]
        for item in hashed.items where decoded[item.recording.fileName].map({ $0 == item.sha256 }) ?? true {
            if let stamp = item.stamp { recordings[item.recording.fileName] = .init(stamp: stamp, sha256: item.sha256, header: item.recording.info) }
        }
        let configurationHash = configuration.hash
        let keys = Set(hashed.items.map { ClipKey.of(sourceSHA256: $0.sha256, configurationHash: configurationHash) })
        return BuildFacts(
            assets: options.assets, output: outputURL, configurationHash: configurationHash, manifest: manifest, recordings: recordings,
            recordingsStampedAt: hashed.readFrom, finished: files?.facts, probes: probes, keys: keys)
    }
}
