import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Everything a build may remember from the builds before it, behind one interface: each stage asks
/// it "do you already know this?" and does the work when it does not. The answers are facts keyed by
/// what they depend on (a recording's bytes, the configuration, the tool version, a level, a file's
/// stamp), so a wrong answer is a memo that lies, never a stage that forgot a case.
///
/// `DiskMemo` keeps them in `.soundset-cache` beside the output folder; `NoMemo` (`--no-cache`)
/// remembers nothing, and a build with it gives the same set, byte for byte.
public protocol BuildMemo: Sendable {
    /// The set in the output folder, when by stamps alone nothing changed since the build that
    /// recorded them: the same recordings, `soundset.json`, tool and output files.
    func unchangedSet(assets: URL, output: URL) -> Manifest?

    /// The set in the output folder, when it was built by this tool from exactly these recordings
    /// (by sha256), this configuration and these copies, and every file it lists is intact with
    /// nothing else beside it.
    func currentSet(in output: URL, for recordings: HashedRecordings, configurationHash: String, copies: Set<String>) -> Manifest?

    /// The sha256 of `recording`'s bytes, when its file is proven unchanged since it was hashed.
    func sha256(of recording: Recording, stamp: FileStamp) -> String?

    /// The prepared clip of `recording`, whose bytes hash to `sha256`, under `key`: without its samples.
    func summary(of recording: Recording, sha256: String, key: String) -> ClipSummary?

    /// The samples of a clip whose summary came from `summary(of:sha256:)`, if they are intact.
    func preparedClip(_ summary: ClipSummary) -> PreparedClip?

    /// Keeps a clip prepared now.
    func remember(_ clip: PreparedClip)

    /// The limiting `clip` needed at `level`, as a level search found it.
    func limiting(of clip: ClipSummary, at level: Double) -> Double?

    /// The last build's file of `clip` finished at `level`, when it is still in the output folder as
    /// that build wrote it.
    func finishedFile(of clip: ClipSummary, named fileName: String, at level: Double) -> ReusedFile?

    /// Keeps what a build found, once its set is in the output folder (or found to be there already).
    func remember(_ build: BuildFindings)
}

/// The key of a clip's facts: everything they depend on, the recording's bytes, the configuration
/// and the tool version.
public enum ClipKey {
    public static func of(sourceSHA256: String, configurationHash: String) -> String {
        SHA256.hex(Data("\(sourceSHA256)|\(configurationHash)|\(ToolVersion.current)".utf8))
    }
}

/// `--no-cache`: remembers nothing; every stage does its work.
public struct NoMemo: BuildMemo {
    public init() {}
    public func unchangedSet(assets: URL, output: URL) -> Manifest? { nil }
    public func currentSet(in output: URL, for recordings: HashedRecordings, configurationHash: String, copies: Set<String>) -> Manifest? { nil }
    public func sha256(of recording: Recording, stamp: FileStamp) -> String? { nil }
    public func summary(of recording: Recording, sha256: String, key: String) -> ClipSummary? { nil }
    public func preparedClip(_ summary: ClipSummary) -> PreparedClip? { nil }
    public func remember(_ clip: PreparedClip) {}
    public func limiting(of clip: ClipSummary, at level: Double) -> Double? { nil }
    public func finishedFile(of clip: ClipSummary, named fileName: String, at level: Double) -> ReusedFile? { nil }
    public func remember(_ build: BuildFindings) {}
}

/// What a build found, for the memo to keep: its recordings (by file name, their stamps when it
/// took them, and sha256), the files it wrote into the set, and its level search's tries.
public struct BuildFindings: Sendable {
    public var assets: URL
    public var output: URL
    public var configurationFileSHA256: String
    public var configurationHash: String
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

/// A clip file's figures as its build found them: what the manifest says of it, and the limiting the
/// level search saw before encoding.
public struct ClipFigures: Codable, Sendable, Equatable {
    /// The set's level the file was finished at, as the bits of the Double.
    public var levelBits: UInt64
    /// The limiting the level search saw before encoding (a clip the encoding pushed over the
    /// ceiling is finished again under a lower one, with more limiting).
    public var searchLimitingDb: Double
    public var gainDb: Double
    public var limitingDb: Double
    public var frames: Int
    public var loudness: Double
    public var truePeak: Double
    /// sha256 of the file's bytes.
    public var sha256: String
}

/// The last build's file of a clip, to place into the new set instead of finishing the clip again.
public struct ReusedFile: Sendable {
    public var summary: ClipSummary
    public var figures: ClipFigures
    /// The file in the output folder.
    public var url: URL
}

/// What a build found, kept by the memo once the new set is in place: the stamps of what it read and
/// wrote (with the time they were taken), what each clip file holds, and its level search's tries.
public struct BuildRecord: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion = BuildRecord.currentSchemaVersion
    public var toolVersion: String
    /// sha256 of `soundset.json`'s bytes, or "" when there was none.
    public var configurationFileSHA256: String
    public var configurationHash: String
    /// By file name in the assets folder: the stamp and the sha256 of the bytes.
    public var recordings: [String: RecordingFact]
    /// Every file of the output folder by path in it (`manifest.json`, `Sounds/7.caf`): its stamp and sha256.
    public var outputs: [String: OutputFact]
    /// What each clip file in Sounds holds, by file name (copies are not listed).
    public var finished: [String: FinishedFact]
    /// The limiting the level search found for a clip (by key) at a level (by bits): `probeKey`.
    public var probes: [String: Double]
    /// When the build began to read the recordings, and when it had stamped the output files, on
    /// the file system's clock: a file modified at or after its time is not proven unchanged by its
    /// stamp ("racily clean", as git calls it; it could have changed again within the clock's tick),
    /// and is hashed again.
    public var recordingsStampedAt: FileTime
    public var outputsStampedAt: FileTime

    public struct RecordingFact: Codable, Sendable, Equatable {
        public var stamp: FileStamp
        public var sha256: String
    }

    public struct OutputFact: Codable, Sendable, Equatable {
        public var stamp: FileStamp
        public var sha256: String
    }

    public struct FinishedFact: Codable, Sendable, Equatable {
        /// The clip's key (`BuildMemo.key(of:)`).
        public var key: String
        public var figures: ClipFigures
    }

    /// A clip (by key) at a level (by its bits).
    public static func probeKey(_ clipKey: String, level: Double) -> String {
        "\(clipKey)@\(String(level.bitPattern, radix: 16))"
    }
}
