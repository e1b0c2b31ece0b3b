import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

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
    /// Remember what builds found (`DiskMemo`), or nothing (`NoMemo`, `--no-cache`).
    public var useCache: Bool
    /// Called as each recording is prepared: (done, total, clip name). May be called from any task.
    public var progress: (@Sendable (Int, Int, String) -> Void)?
    /// Wait while another build of the output folder runs (`waiting` is told, once); false stops
    /// at once instead (`--no-wait`).
    public var waitForOtherBuilds: Bool
    public var waiting: @Sendable (String) -> Void
    /// Write the report, made from the staged set, beside it (`--no-report` skips it, and removes
    /// the one at its default place).
    public var writeReport: Bool
    /// Where the report goes (`--report FILE`), and how it is named in messages; nil for its
    /// default place, beside the output folder (`Report.defaultLocation`).
    public var reportFile: (url: URL, display: String)?
    /// The report reloads itself this often, in seconds (`build --watch`, so that a browser left open
    /// shows each new take); nil for a report that stays as it is.
    public var reportRefreshSeconds: Int?
    /// How the hints of the build's warnings and errors name the commands to run.
    public var spelling = CommandSpelling.installed
    /// The prepared clips' samples a build without the memo (`--no-cache`) may hold in memory, in
    /// bytes (`PreparedBudget`): a pack of a few hundred takes is prepared without writing a clip to
    /// the scratch folder and reading it back; past it, clips wait there. 32 MiB: about 190 one-second
    /// takes at 44.1 kHz.
    public var preparedBytesInMemory = 32 << 20

    public init(
        assets: URL, assetsDisplay: String, output: URL, outputDisplay: String,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, useCache: Bool = true,
        progress: (@Sendable (Int, Int, String) -> Void)? = nil, waitForOtherBuilds: Bool = true, waiting: @escaping @Sendable (String) -> Void = { _ in },
        writeReport: Bool = false
    ) {
        self.writeReport = writeReport
        self.waitForOtherBuilds = waitForOtherBuilds
        self.waiting = waiting
        self.assets = assets
        self.assetsDisplay = assetsDisplay
        self.output = output
        self.outputDisplay = outputDisplay
        self.jobs = jobs
        self.useCache = useCache
        self.progress = progress
    }

    /// The memo the build of `output` asks.
    func memo(for output: URL) -> any BuildMemo { useCache ? DiskMemo(output: output) : NoMemo() }

    /// Where the report goes: `--report FILE`, or beside the output folder as the user named it.
    public var reportLocation: (url: URL, display: String) {
        reportFile ?? Report.defaultLocation(output: output, outputDisplay: outputDisplay)
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
    /// Recordings whose prepared clip came from the memo.
    public var preparedFromCache: Int
    /// Clips whose file is the last build's.
    public var finishedFromCache: Int
    /// Tries of the level search the memo answered.
    public var searchedFromCache: Int = 0
    /// Clips whose part of the report (waveforms and preview) the memo kept, not drawn again.
    public var drawnFromCache: Int = 0
    /// The manifest of the set this build replaced, or nil when there was none.
    public var previous: Manifest?
    /// What the build did to the report: written (by a build that found the set up to date: made
    /// again), removed (`--no-report`), or nil (up to date already, or not asked for).
    public var reportChange: ReportChange?
    /// The report that goes with the set, as named in messages, when there is one.
    public var report: String?
    /// What else the build did, one line each (soundset 0.8's report moved out of the set).
    public var notes: [String] = []
    /// What went wrong once the set was in place (the old set, swapped out, that cannot be
    /// removed): errors, each naming what to do; the build exits 1.
    public var errors: [BuildProblem] = []
    /// What the build did, counted (`BuildWork`).
    public var work = BuildWork()

    public enum ReportChange: Sendable { case written, removed }

    /// What changed against the set replaced.
    public var changes: BuildChanges { BuildChanges(manifest, replacing: previous) }

    /// The report of a build that found the set up to date.
    static func upToDate(_ manifest: Manifest, warnings: [BuildProblem]) -> BuildReport {
        BuildReport(
            manifest: manifest, warnings: warnings, upToDate: true, preparedFromCache: manifest.clips.count, finishedFromCache: manifest.clips.count)
    }
}
