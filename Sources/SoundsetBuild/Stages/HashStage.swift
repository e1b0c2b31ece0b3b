import Foundation
import SoundsetAudio
import SoundsetRuntime

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

/// Step 0: hash every recording, as it is read (none is kept in memory), unless the memo proves by
/// its stamp that it did not change since it was hashed.
enum HashStage {
    static func run(_ recordings: [Recording], memo: any BuildMemo, clockFolder: URL, jobs: Int) async throws -> HashedRecordings {
        let readFrom = FileTime.now(in: clockFolder) ?? FileTime(seconds: 0, nanoseconds: 0)
        let results = try await recordings.concurrentMap(maxConcurrency: jobs) { recording -> Result<HashedRecordings.Item, BuildProblem> in
            let stamp = FileStamp(path: recording.url.path)
            if let stamp, let known = memo.sha256(of: recording, stamp: stamp) {
                return .success(.init(recording: recording, sha256: known, stamp: stamp))
            }
            do throws(RegularFile.Failure) {
                return .success(.init(recording: recording, sha256: try SHA256.hex(fileAt: recording.url), stamp: stamp))
            } catch {
                return .failure(BuildProblem(recording.displayPath, error.reason))
            }
        }
        return HashedRecordings(items: results.compactMap { try? $0.get() }, problems: results.compactMap(\.failure), readFrom: readFrom)
    }
}
