import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Step 1-3 and the first measurement of step 4, for every recording: each clip's samples are kept
/// on disk once prepared (the memo's entry, or, without the memo and past `PreparedBudget`, the
/// build's scratch folder), and the set holds summaries.
package enum PrepareStage {
    /// The largest recording read: a 30 s take at 384 kHz in 64-bit stereo is 184 MB.
    package static let maxRecordingBytes = 256 << 20

    static func run(
        _ hashed: HashedRecordings, configuration: Configuration, memo: any BuildMemo, scratch: BuildScratch? = nil, budget: PreparedBudget? = nil,
        jobs: Int,
        progress: (@Sendable (Int, Int, String) -> Void)?
    ) async throws -> PreparedSet {
        let done = ProgressCount()
        let total = hashed.items.count
        let configurationHash = configuration.hash
        let results = try await hashed.items.concurrentMap(maxConcurrency: jobs) { item -> Result<PreparedSet.Entry, BuildProblem> in
            defer { progress?(done.increment(), total, item.recording.name) }
            let key = ClipKey.of(sourceSHA256: item.sha256, configurationHash: configurationHash)
            // A remembered clip whose fingerprint is not one this set's rate gives (a damaged or
            // forged entry) is prepared again: the same-recording check sees every take.
            if let summary = memo.summary(of: item.recording, sha256: item.sha256, key: key),
                summary.analysis.fingerprint?.rate == TakeFingerprint.rate(forSampleRate: configuration.sampleRate)
            {
                return .success(.remembered(summary))
            }
            return Result { () throws(BuildProblem) -> PreparedSet.Entry in
                let clip = try prepare(item.recording, configuration: configuration, configurationHash: configurationHash)
                // Its samples wait on disk, in the memo; else (--no-cache) in memory while the
                // budget has room, then in the scratch folder; in memory too when neither can keep them.
                if memo.remember(clip) { return .stored(clip.summary) }
                if budget?.take(clip.bytes) == true { return .prepared(clip) }
                return scratch?.keep(clip) == true ? .stored(clip.summary) : .prepared(clip)
            }
        }
        return PreparedSet(entries: results.compactMap { try? $0.get() }, problems: results.compactMap(\.failure))
    }

    /// Reads `recording`'s bytes once, hashes them and decodes them: the clip is of the bytes its
    /// sha256 names, even if the file is replaced while the build runs.
    static func prepare(_ recording: Recording, configuration: Configuration, configurationHash: String) throws(BuildProblem) -> PreparedClip {
        let bytes: Data
        do { bytes = try RegularFile.read(recording.url, maxBytes: maxRecordingBytes) } catch {
            throw BuildProblem(recording.displayPath, ForwardedProblem.failed(error.reason))
        }
        let sha256 = SHA256.hex(bytes)
        return try ClipPreparer.prepare(
            recording, bytes: bytes, sourceSHA256: sha256, key: ClipKey.of(sourceSHA256: sha256, configurationHash: configurationHash),
            configuration: configuration)
    }
}

/// The bytes of prepared samples a build may hold in memory, shared by its tasks: a clip prepared
/// while there is room stays in memory for the whole build; once it is spent, every clip waits on
/// disk. The build's peak memory is bounded by it (and the few clips a stage works on), whatever
/// the size of the pack.
final class PreparedBudget: @unchecked Sendable {
    // @unchecked: `left` is read and written under `lock`.
    private let lock = NSLock()
    private var left: Int

    init(bytes: Int) { left = max(0, bytes) }

    /// Whether `bytes` fit in what is left; if so, they are spent.
    func take(_ bytes: Int) -> Bool {
        lock.withLock {
            guard bytes <= left else { return false }
            left -= bytes
            return true
        }
    }
}
