import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Gets a clip's samples when a stage needs them: from the memo, from the build's scratch folder,
/// or by preparing the recording again. The stages hold the clips they load for as long as they
/// work on them, a few at a time (`jobs`): a set's samples are never all in memory at once.
struct ClipLoader: Sendable {
    let memo: any BuildMemo
    let scratch: BuildScratch?
    let configuration: Configuration
    let configurationHash: String

    init(memo: any BuildMemo, scratch: BuildScratch? = nil, configuration: Configuration) {
        self.memo = memo
        self.scratch = scratch
        self.configuration = configuration
        configurationHash = configuration.hash
    }

    /// `entry` with its samples.
    /// - Throws: `BuildProblem` when the recording must be prepared again and cannot be, or its
    ///   bytes changed since they were hashed.
    func load(_ entry: PreparedSet.Entry) throws(BuildProblem) -> PreparedClip {
        switch entry {
        case .prepared(let clip): return clip
        case .stored(let summary), .remembered(let summary):
            if let clip = memo.preparedClip(summary) ?? scratch?.preparedClip(summary) { return clip }
            // Kept nowhere, or damaged: prepared again, when the recording still holds the bytes hashed.
            let clip = try PrepareStage.prepare(summary.recording, configuration: configuration, configurationHash: configurationHash)
            guard clip.summary.sourceSHA256 == summary.sourceSHA256 else {
                throw BuildProblem(summary.recording.displayPath, StageProblem.changed)
            }
            memo.remember(clip)
            return clip
        }
    }
}
