import SoundsetAudio
import SoundsetSetFolder

/// Every good recording with the sha256 of its bytes: what the manifest records, and the key of
/// everything the memo knows about it.
public struct HashedRecordings: Sendable {
    /// One recording and its hash.
    public struct Item: Sendable {
        public var recording: Recording
        public var sha256: String
        /// Its stamp when the stage looked at it (nil: it could not be stat'ed).
        public var stamp: FileStamp?
    }

    public var items: [Item]
    /// Recordings that could not be read, by name.
    public var problems: [BuildProblem]
    /// When the stage began to read, on the file system's clock: a stamp of a file modified at or
    /// after it proves nothing next time (see `FileStamp.proves`).
    public var readFrom: FileTime
}
