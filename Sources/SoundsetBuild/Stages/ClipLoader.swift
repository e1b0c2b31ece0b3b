import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Gets a clip's samples when a stage needs them: from the memo, or by preparing the recording again.
struct ClipLoader: Sendable {
    let memo: any BuildMemo
    let configuration: Configuration
    let configurationHash: String

    init(memo: any BuildMemo, configuration: Configuration) {
        self.memo = memo
        self.configuration = configuration
        configurationHash = configuration.hash
    }

    /// `entry` with its samples.
    /// - Throws: `BuildProblem` when the recording must be prepared again and cannot be, or its
    ///   bytes changed since they were hashed.
    func load(_ entry: PreparedSet.Entry) throws(BuildProblem) -> PreparedClip {
        switch entry {
        case .prepared(let clip): return clip
        case .remembered(let summary):
            if let clip = memo.preparedClip(summary) { return clip }
            let clip = try PrepareStage.prepare(summary.recording, configuration: configuration, configurationHash: configurationHash)
            guard clip.summary.sourceSHA256 == summary.sourceSHA256 else {
                throw BuildProblem(summary.recording.displayPath, "changed while the build ran (build again)")
            }
            memo.remember(clip)
            return clip
        }
    }
}
