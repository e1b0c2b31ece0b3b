import Foundation
import SoundsetRuntime

/// The new set, whole, before it is staged: every clip file (the file its bytes wait in, or the last
/// build's file that holds them), their copies, and the manifest.
public struct SoundSetFiles: Sendable {
    /// One clip's file in `Sounds`.
    public struct ClipFile: Sendable {
        /// Where its bytes are.
        public enum Content: Sendable {
            /// In memory.
            case bytes(Data)
            /// In a file this build wrote in its scratch folder (`BuildScratch`), moved into the set.
            case written(URL)
            /// In the last build's file, placed again.
            case reused(URL)
        }

        public var name: String
        /// The byte-identical copy's name, when the clip has one.
        public var copyName: String?
        public var content: Content
    }

    public var clips: [ClipFile]
    public var manifest: Manifest
    /// What each clip file holds, by file name, for the memo.
    public var facts: [String: BuildRecord.FinishedFact]
}
