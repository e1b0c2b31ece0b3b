import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Every recording prepared: decoded, trimmed, resampled and measured now, or its summary as the
/// memo keeps it (the samples are read again only for the clips that must be finished again).
public struct PreparedSet: Sendable {
    /// One clip, with its samples or without.
    public enum Entry: Sendable {
        case prepared(PreparedClip)
        case remembered(ClipSummary)

        public var summary: ClipSummary {
            switch self {
            case .prepared(let clip): clip.summary
            case .remembered(let summary): summary
            }
        }
    }

    public var entries: [Entry]
    public var problems: [BuildProblem]

    /// How many came from the memo.
    public var remembered: Int { entries.filter { if case .remembered = $0 { true } else { false } }.count }
}

/// Step 1-3 and the first measurement of step 4, for every recording.
enum PrepareStage {
    /// The largest recording read: a 30 s take at 384 kHz in 64-bit stereo is 184 MB.
    static let maxRecordingBytes = 256 << 20

    static func run(
        _ hashed: HashedRecordings, configuration: Configuration, memo: any BuildMemo, jobs: Int,
        progress: (@Sendable (Int, Int, String) -> Void)?
    ) async throws -> PreparedSet {
        let done = ProgressCount()
        let total = hashed.items.count
        let results = try await hashed.items.concurrentMap(maxConcurrency: jobs) { item -> Result<PreparedSet.Entry, BuildProblem> in
            defer { progress?(done.increment(), total, item.recording.name) }
            let key = ClipKey.of(sourceSHA256: item.sha256, configurationHash: configuration.hash)
            if let summary = memo.summary(of: item.recording, sha256: item.sha256, key: key) { return .success(.remembered(summary)) }
            return Result { () throws(BuildProblem) -> PreparedSet.Entry in
                let clip = try prepare(item.recording, configuration: configuration)
                memo.remember(clip)
                return .prepared(clip)
            }
        }
        return PreparedSet(entries: results.compactMap { try? $0.get() }, problems: results.compactMap(\.failure))
    }

    /// Reads `recording`'s bytes once, hashes them and decodes them: the clip is of the bytes its
    /// sha256 names, even if the file is replaced while the build runs.
    static func prepare(_ recording: Recording, configuration: Configuration) throws(BuildProblem) -> PreparedClip {
        let bytes: Data
        do { bytes = try RegularFile.read(recording.url, maxBytes: maxRecordingBytes) } catch {
            throw BuildProblem(recording.displayPath, error.reason)
        }
        let sha256 = SHA256.hex(bytes)
        return try ClipPreparer.prepare(
            recording, bytes: bytes, sourceSHA256: sha256, key: ClipKey.of(sourceSHA256: sha256, configurationHash: configuration.hash),
            configuration: configuration)
    }
}

/// Gets a clip's samples when a stage needs them: from the memo, or by preparing the recording again.
struct ClipLoader: Sendable {
    let memo: any BuildMemo
    let configuration: Configuration

    /// `entry` with its samples.
    /// - Throws: `BuildProblem` when the recording must be prepared again and cannot be, or its
    ///   bytes changed since they were hashed.
    func load(_ entry: PreparedSet.Entry) throws(BuildProblem) -> PreparedClip {
        switch entry {
        case .prepared(let clip): return clip
        case .remembered(let summary):
            if let clip = memo.preparedClip(summary) { return clip }
            let clip = try PrepareStage.prepare(summary.recording, configuration: configuration)
            guard clip.summary.sourceSHA256 == summary.sourceSHA256 else {
                throw BuildProblem(summary.recording.displayPath, "changed while the build ran (build again)")
            }
            memo.remember(clip)
            return clip
        }
    }
}

/// Counts clips done across tasks, for progress reports.
final class ProgressCount: @unchecked Sendable {
    // @unchecked: `value` is only read and written under `lock`.
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
