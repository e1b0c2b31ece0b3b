import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// Everything a build may remember from the builds before it, behind one interface: each stage asks
/// it "do you already know this?" and does the work when it does not. The answers are facts keyed by
/// what they depend on (a recording's bytes, the configuration, the tool version, a level, a file's
/// stamp), so a wrong answer is a memo that lies, never a stage that forgot a case.
///
/// `DiskMemo` keeps them in `.soundset-cache` beside the output folder; `NoMemo` (`--no-cache`)
/// remembers nothing, and a build with it gives the same set, byte for byte.
protocol BuildMemo: Sendable {
    /// The set in the output folder, when it is fresh (`Freshness`) against output settings whose
    /// digest is `settingsHash`, proven by stamps alone: the recordings and the output files are
    /// the ones the last build recorded.
    func unchangedSet(assets: URL, output: URL, settingsHash: String) -> Manifest?

    /// The set in the output folder, when it was built by this tool from exactly these recordings
    /// (by sha256), this configuration and these copies, and every file it lists is intact with
    /// nothing else beside it.
    func currentSet(in output: URL, for recordings: HashedRecordings, configurationHash: String, copies: Set<String>) -> Manifest?

    /// The header of the recording `fileName` (in the assets folder), when its file, stamped `stamp`
    /// now, is proven unchanged since it was read: the catalog then opens it not.
    func header(of fileName: String, stamp: FileStamp) -> SoundFileInfo?

    /// The sha256 of `recording`'s bytes, when its file is proven unchanged since it was hashed.
    func sha256(of recording: Recording, stamp: FileStamp) -> String?

    /// The prepared clip of `recording`, whose bytes hash to `sha256`, under `key`: without its samples.
    func summary(of recording: Recording, sha256: String, key: String) -> ClipSummary?

    /// The samples of a clip whose summary came from `summary(of:sha256:)`, if they are intact.
    func preparedClip(_ summary: ClipSummary) -> PreparedClip?

    /// Keeps a clip prepared now. Returns whether its samples were kept: then `preparedClip(_:)`
    /// reads them back (the build does, when it finishes the clip), and the build holds only its summary.
    @discardableResult func remember(_ clip: PreparedClip) -> Bool

    /// The limiting `clip` needed at `level`, as a level search found it.
    func limiting(of clip: ClipSummary, at level: Double) -> Double?

    /// The last build's file of `clip` finished at `level`, when it is still in the output folder as
    /// that build wrote it.
    func finishedFile(of clip: ClipSummary, named fileName: String, at level: Double) -> ReusedFile?

    /// Keeps what a build read and wrote, once its set is in the output folder (or found to be
    /// there already).
    func remember(_ build: BuildFacts)

    /// The findings kept of the set whose manifest's bytes hash to `manifestSHA256`.
    func findings(ofManifest manifestSHA256: String) -> SetFindings?

    /// Keeps the findings of the set whose manifest's bytes hash to `manifestSHA256`.
    func remember(_ findings: SetFindings, ofManifest manifestSHA256: String)

    /// What the same-recording check of the last build of the output folder decided.
    func sameRecordingVerdicts() -> SameRecordings.Verdicts?

    /// Keeps what the same-recording check decided, for the next build.
    func remember(_ verdicts: SameRecordings.Verdicts)

    /// The clips' drawings the last report of the output folder was made with, by `ClipDrawing.key`.
    func drawings() -> [String: ClipDrawing]

    /// Keeps `drawings`: the last report's, the only ones kept.
    func remember(drawings: [String: ClipDrawing])

    /// What the check's file-free parts (`Checker.setCheck`) said under `key` (the manifest's
    /// sha256, every setting's digest and the tool version, which decide it), when they were asked
    /// before.
    func setCheck(under key: String) -> CheckReport?

    /// Keeps what the check's file-free parts said under `key`.
    func remember(_ check: CheckReport, under key: String)
}
