import Foundation
import SoundsetRuntime

/// The new set, whole, before anything is written: every clip file's bytes (or the last build's file
/// that holds them), their copies, and the manifest.
public struct SoundSetFiles: Sendable {
    /// One clip's file in `Sounds`.
    public struct ClipFile: Sendable {
        /// Its bytes, or the last build's file that holds them.
        public enum Content: Sendable {
            case bytes(Data)
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
