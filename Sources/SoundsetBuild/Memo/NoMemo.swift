import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// `--no-cache`: remembers nothing; every stage does its work.
public struct NoMemo: BuildMemo {
    public init() {}
    public func unchangedSet(assets: URL, output: URL, settingsHash: String) -> Manifest? { nil }
    public func currentSet(in output: URL, for recordings: HashedRecordings, configurationHash: String, copies: Set<String>) -> Manifest? { nil }
    func header(of fileName: String, stamp: FileStamp) -> SoundFileInfo? { nil }
    public func sha256(of recording: Recording, stamp: FileStamp) -> String? { nil }
    public func summary(of recording: Recording, sha256: String, key: String) -> ClipSummary? { nil }
    public func preparedClip(_ summary: ClipSummary) -> PreparedClip? { nil }
    @discardableResult public func remember(_ clip: PreparedClip) -> Bool { false }
    public func limiting(of clip: ClipSummary, at level: Double) -> Double? { nil }
    public func finishedFile(of clip: ClipSummary, named fileName: String, at level: Double) -> ReusedFile? { nil }
    public func remember(_ build: BuildFacts) {}
    public func findings(ofManifest manifestSHA256: String) -> SetFindings? { nil }
    public func remember(_ findings: SetFindings, ofManifest manifestSHA256: String) {}
    func sameRecordingVerdicts() -> SameRecordings.Verdicts? { nil }
    func remember(_ verdicts: SameRecordings.Verdicts) {}
    func drawings() -> [String: ClipDrawing] { [:] }
    func remember(drawings: [String: ClipDrawing]) {}
    public func setCheck(under key: String) -> CheckReport? { nil }
    public func remember(_ check: CheckReport, under key: String) {}
}
