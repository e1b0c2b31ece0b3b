import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// The new set, whole, before it is staged: every clip file (the file its bytes wait in, or the last
/// build's file that holds them), their copies, and the manifest.
public struct SoundSetFiles: Sendable {
    /// One clip's file in `Sounds` (the set folder's).
    public typealias ClipFile = SetFiles.ClipFile

    public var clips: [ClipFile]
    public var manifest: Manifest
    /// What each clip file holds, by file name, for the memo.
    public var facts: [String: BuildRecord.FinishedFact]

    /// What the output folder commits: the files and the manifest.
    var setFiles: SetFiles { SetFiles(clips: clips, manifest: manifest) }
}

extension OutputFolder {
    /// Writes the new set's files into a staging folder beside the output folder and swaps them in
    /// (`commit(_: SetFiles, beside:)`).
    @discardableResult
    public func commit(_ set: SoundSetFiles, beside: (URL) throws(BuildProblem) -> [Beside] = { _ in [] }) throws(BuildProblem) -> Committed {
        try commit(set.setFiles, beside: beside)
    }
}
