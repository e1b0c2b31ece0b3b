import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// What a build read and wrote, for the memo to keep: its recordings (by file name, their stamps when it
/// took them, and sha256), the files it wrote into the set, and its level search's tries.
public struct BuildFacts: Sendable {
    public var assets: URL
    public var output: URL
    public var configurationHash: String
    /// The set's manifest, as it is in the output folder.
    public var manifest: Manifest
    public var recordings: [String: BuildRecord.RecordingFact]
    /// When the build began to read the recordings (`HashedRecordings.readFrom`).
    public var recordingsStampedAt: FileTime
    /// Clip file name (in Sounds) to what it holds, for files this build wrote or placed; nil for a
    /// set found up to date (the memo then keeps what it knew of the files still as they were).
    public var finished: [String: BuildRecord.FinishedFact]?
    public var probes: [String: Double]
    /// The keys of the clips in the set: entries of other clips may go.
    public var keys: Set<String>
}
