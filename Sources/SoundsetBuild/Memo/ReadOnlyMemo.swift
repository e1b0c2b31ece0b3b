import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// A memo that answers what `base` knows and keeps nothing: the check's, which writes nothing but
/// the shared lock it reads under.
struct ReadOnlyMemo: BuildMemo {
    let base: any BuildMemo

    func unchangedSet(assets: URL, output: URL, settingsHash: String) -> Manifest? {
        base.unchangedSet(assets: assets, output: output, settingsHash: settingsHash)
    }
    func currentSet(in output: URL, for recordings: HashedRecordings, configurationHash: String, copies: Set<String>) -> Manifest? {
        base.currentSet(in: output, for: recordings, configurationHash: configurationHash, copies: copies)
    }
    func header(of fileName: String, stamp: FileStamp) -> SoundFileInfo? { base.header(of: fileName, stamp: stamp) }
    func sha256(of recording: Recording, stamp: FileStamp) -> String? { base.sha256(of: recording, stamp: stamp) }
    func summary(of recording: Recording, sha256: String, key: String) -> ClipSummary? { base.summary(of: recording, sha256: sha256, key: key) }
    func preparedClip(_ summary: ClipSummary) -> PreparedClip? { base.preparedClip(summary) }
    @discardableResult func remember(_ clip: PreparedClip) -> Bool { false }
    func limiting(of clip: ClipSummary, at level: Double) -> Double? { base.limiting(of: clip, at: level) }
    func finishedFile(of clip: ClipSummary, named fileName: String, at level: Double) -> ReusedFile? {
        base.finishedFile(of: clip, named: fileName, at: level)
    }
    func remember(_ build: BuildFacts) {}
    func findings(ofManifest manifestSHA256: String) -> SetFindings? { base.findings(ofManifest: manifestSHA256) }
    func remember(_ findings: SetFindings, ofManifest manifestSHA256: String) {}
    func sameRecordingVerdicts() -> SameRecordings.Verdicts? { base.sameRecordingVerdicts() }
    func remember(_ verdicts: SameRecordings.Verdicts) {}
    func drawings() -> [String: ClipDrawing] { base.drawings() }
    func remember(drawings: [String: ClipDrawing]) {}
    func setCheck(under key: String) -> CheckReport? { base.setCheck(under: key) }
    func remember(_ check: CheckReport, under key: String) {}
}
