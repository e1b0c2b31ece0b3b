import SoundsetAudio
import SoundsetSetFolder

/// What a build found, kept by the memo once the new set is in place: the stamps of what it read and
/// wrote (with the time they were taken), what each clip file holds, and its level search's tries.
public struct BuildRecord: Codable, Sendable {
    /// 2: a record is written only of a set whose manifest is the one the build makes (a record of
    /// version 1 may vouch, by its stamp, for a manifest edited by hand and found up to date).
    public static let currentSchemaVersion = 2

    public var schemaVersion = BuildRecord.currentSchemaVersion
    public var toolVersion: String
    /// The digest of the output settings the set was built with (`Configuration.hash`).
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
        /// Its header as the catalog read it: read again only when the stamp no longer proves it.
        public var header: SoundFileInfo?
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
