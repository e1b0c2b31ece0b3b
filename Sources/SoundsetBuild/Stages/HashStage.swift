import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

/// Step 0: hash every recording, as it is read (none is kept in memory), unless the memo proves by
/// its stamp that it did not change since it was hashed.
enum HashStage {
    /// - Parameters:
    ///   - clockFolder: where the file system's clock is read (a marker file made and removed) for
    ///     the stamps the memo keeps; nil for a reader that keeps none (the check).
    ///   - readFrom: the clock read before anything of the recordings was (the catalog's headers),
    ///     when it was; else it is read here.
    static func run(
        _ recordings: [Recording], memo: any BuildMemo, clockFolder: URL?, readFrom given: FileTime? = nil, jobs: Int
    ) async throws -> HashedRecordings {
        let readFrom = given ?? clockFolder.flatMap { FileTime.now(in: $0) } ?? FileTime(seconds: 0, nanoseconds: 0)
        let results = try await recordings.concurrentMap(maxConcurrency: jobs) { recording -> Result<HashedRecordings.Item, BuildProblem> in
            // Not counted as work: the no-op check (`Stamps.recordings`) counts each take's stat once.
            let stamp = FileStamp(path: recording.url.path)
            if let stamp, let known = memo.sha256(of: recording, stamp: stamp) {
                return .success(.init(recording: recording, sha256: known, stamp: stamp))
            }
            BuildWork.count(\.takesHashed)
            do throws(RegularFile.Failure) {
                return .success(.init(recording: recording, sha256: try SHA256.hex(fileAt: recording.url), stamp: stamp))
            } catch {
                return .failure(BuildProblem(recording.displayPath, ForwardedProblem.failed(error.reason)))
            }
        }
        return HashedRecordings(items: results.compactMap { try? $0.get() }, problems: results.compactMap(\.failure), readFrom: readFrom)
    }
}
