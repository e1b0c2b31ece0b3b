import Foundation

/// The sha256 of every recording (the cache key, and what the manifest records) and its stamp.
enum RecordingHashes {
    /// Per recording, in order: its sha256 and stamp, or the problem reading it. A recording whose
    /// stamp is the one `known` recorded keeps the sha256 found then; the others are read and hashed
    /// four at a time (`SHA256.hex` of several messages), grouped by size, on up to `jobs` tasks.
    static func find(_ recordings: [Recording], known: BuildStamps?, jobs: Int) async throws -> [Result<(String, FileStamp?), BuildProblem>] {
        let stamps = recordings.map { FileStamp(path: $0.url.path) }
        var results = [Result<(String, FileStamp?), BuildProblem>?](repeating: nil, count: recordings.count)
        var unknown: [Int] = []
        for (index, recording) in recordings.enumerated() {
            if let stamp = stamps[index], let recorded = known?.recordings[recording.fileName], recorded.stamp == stamp {
                results[index] = .success((recorded.sha256, stamp))
            } else {
                unknown.append(index)
            }
        }
        unknown.sort { (stamps[$0]?.size ?? 0, $0) > (stamps[$1]?.size ?? 0, $1) }
        let groups = stride(from: 0, to: unknown.count, by: 4).map { Array(unknown[$0..<min(unknown.count, $0 + 4)]) }
        let hashed = try await groups.concurrentMap(maxConcurrency: jobs) { group in
            var read: [(index: Int, data: Data)] = []
            var failed: [(Int, Result<(String, FileStamp?), BuildProblem>)] = []
            for index in group {
                do { read.append((index, try Data(contentsOf: recordings[index].url))) } catch {
                    failed.append((index, .failure(BuildProblem(recordings[index].displayPath, "cannot be read (check its permissions)"))))
                }
            }
            let digests = SHA256.hex(read.map(\.data))
            return failed + zip(read, digests).map { item, digest in (item.index, .success((digest, stamps[item.index]))) }
        }
        for (index, result) in hashed.joined() { results[index] = result }
        return results.map { $0! }
    }
}
