import Foundation
import SoundsetRuntime

/// A set as the output folder commits it: every clip file (its bytes in memory, the file this
/// build wrote them to, or the last build's file that holds them), their copies, and the manifest.
public struct SetFiles: Sendable {
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

        public init(name: String, copyName: String?, content: Content) {
            self.name = name
            self.copyName = copyName
            self.content = content
        }
    }

    public var clips: [ClipFile]
    public var manifest: Manifest

    public init(clips: [ClipFile], manifest: Manifest) {
        self.clips = clips
        self.manifest = manifest
    }
}
