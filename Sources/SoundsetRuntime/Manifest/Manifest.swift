import Foundation

/// `Output/manifest.json`: what the build wrote, with every clip's exact duration.
///
/// The build writes it and the app reads it. Encoded with sorted keys and no timestamps or absolute
/// paths, so the same sound set always gives the same bytes.
public struct Manifest: Codable, Sendable, Equatable {
    /// The manifest format this library reads and writes.
    public static let currentSchemaVersion = 1

    /// Format version of this file; readers refuse newer versions.
    public var schemaVersion: Int
    /// Version of the soundset tool that built the set; a different version means Output is stale.
    public var toolVersion: String
    /// sha256 of the effective build configuration (after defaults).
    public var configurationHash: String
    /// The locale whose reading the set was recorded for, e.g. `zh-CN`.
    public var locale: SpeechLocale
    /// Frames per second of every clip.
    public var sampleRate: Int
    /// Channels of every clip (1).
    public var channels: Int
    /// `caf`, `wav` or `aiff`.
    public var container: Container
    /// `pcm16`, `ulaw` or `alaw`.
    public var encoding: Encoding
    /// How loud the set is and why.
    public var loudness: Loudness
    /// How amounts are read with this set (zh-CN options); nil means the defaults.
    public var reading: ReadingOptions?
    /// Prefix, suffix and gap for announcements; nil means none.
    public var announcement: AnnouncementSettings?
    /// The clips, sorted by name.
    public var clips: [Clip]

    public init(
        schemaVersion: Int = Manifest.currentSchemaVersion, toolVersion: String, configurationHash: String,
        locale: SpeechLocale, sampleRate: Int, channels: Int, container: Container, encoding: Encoding,
        loudness: Loudness, reading: ReadingOptions? = nil, announcement: AnnouncementSettings? = nil, clips: [Clip]
    ) {
        self.schemaVersion = schemaVersion
        self.toolVersion = toolVersion
        self.configurationHash = configurationHash
        self.locale = locale
        self.sampleRate = sampleRate
        self.channels = channels
        self.container = container
        self.encoding = encoding
        self.loudness = loudness
        self.reading = reading
        self.announcement = announcement
        self.clips = clips.sorted { $0.name < $1.name }
    }

    /// The set's loudness figures.
    public struct Loudness: Codable, Sendable, Equatable {
        /// The configured target, LUFS (whole-clip, ungated BS.1770).
        public var target: Double
        /// The configured true-peak ceiling, dBTP.
        public var truePeakCeiling: Double
        /// The configured maximum limiter gain reduction, dB.
        public var maxLimiterReductionDb: Double
        /// The level every clip was brought to, LUFS: the target, or lower when a clip needed more limiting than allowed.
        public var setLevel: Double
        /// Why the set got that level, in words.
        public var reason: String

        public init(target: Double, truePeakCeiling: Double, maxLimiterReductionDb: Double, setLevel: Double, reason: String) {
            self.target = target
            self.truePeakCeiling = truePeakCeiling
            self.maxLimiterReductionDb = maxLimiterReductionDb
            self.setLevel = setLevel
            self.reason = reason
        }
    }

    /// One built clip.
    public struct Clip: Codable, Sendable, Equatable {
        /// The clip name, e.g. `7` or `received`: the iOS sound name without extension.
        public var name: String
        /// File name inside `Sounds/`.
        public var file: String
        /// File name of the byte-identical duplicate inside `Sounds/`, when there is one.
        public var copy: String?
        /// Frames in the written file, read back from it.
        public var frames: Int
        /// frames / sampleRate.
        public var seconds: Double
        /// Whole-clip loudness of the written file, LUFS.
        public var loudness: Double
        /// True peak of the written file, dBTP.
        public var truePeak: Double
        /// Gain applied before limiting, dB.
        public var gain: Double
        /// Largest gain reduction of the limiter, dB (0 when not limited).
        public var limiting: Double
        /// sha256 of the written file, lower-case hex.
        public var sha256: String
        /// The recording the clip was made from.
        public var source: Source
        /// Where the word's kept sound begins and ends in the file, frames: the pads and fades lie
        /// outside. Nil in a manifest built before soundset 0.7, where the whole file counts.
        public var speech: Speech?

        public init(
            name: String, file: String, copy: String?, frames: Int, seconds: Double, loudness: Double,
            truePeak: Double, gain: Double, limiting: Double, sha256: String, source: Source, speech: Speech? = nil
        ) {
            self.speech = speech
            self.name = name
            self.file = file
            self.copy = copy
            self.frames = frames
            self.seconds = seconds
            self.loudness = loudness
            self.truePeak = truePeak
            self.gain = gain
            self.limiting = limiting
            self.sha256 = sha256
            self.source = source
        }
    }

    /// Frames of a clip's file where its speech begins (the first frame of detected sound) and ends
    /// (one past the last): `0 <= start < end <= frames`.
    public struct Speech: Codable, Sendable, Equatable {
        public var start: Int
        public var end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    /// The recording a clip came from.
    public struct Source: Codable, Sendable, Equatable {
        /// File name inside the assets folder.
        public var file: String
        /// sha256 of the recording, lower-case hex.
        public var sha256: String

        public init(file: String, sha256: String) {
            self.file = file
            self.sha256 = sha256
        }
    }

    /// The clip called `name`, if the set has it.
    public func clip(named name: String) -> Clip? { clips.first { $0.name == name } }
}

/// Why a manifest could not be read.
public enum ManifestError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case newerSchema(path: String, found: Int, supported: Int)
    case invalid(path: String, reason: String)
    /// Larger than `Manifest.maxBytes`: refused before any of it is read.
    case tooLarge(path: String, size: Int, limit: Int)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read the manifest: \(reason)"
        case .tooLarge(let path, let size, let limit):
            "\(path): the manifest is \(size) bytes, more than the \(limit) an app's extension can afford to read: split the set into"
                + " sets of fewer clips (about 450 fit; soundset check fails a larger one)"
        case .newerSchema(let path, let found, let supported):
            "\(path): schema version \(found) is newer than this soundset reads (\(supported)); update soundset"
        case .invalid(let path, let reason): "\(path): not a soundset manifest: \(reason)"
        }
    }
}

extension Manifest {
    /// The manifest's bytes: pretty-printed JSON with sorted keys and a final newline.
    public func encoded() throws -> Data { try JSONFormatting.encode(self) }

    /// Decodes manifest bytes and validates them (see `validate`), refusing a schema version other
    /// than the one this library reads.
    /// - Parameter path: used in errors only.
    /// - Throws: `ManifestError` saying what is wrong.
    public static func decode(_ data: Data, path: String = SoundSetLayout.manifestName) throws(ManifestError) -> Manifest {
        struct Version: Decodable { var schemaVersion: Int }
        // Decoded whole first (parsing is most of the cost, and a manifest is almost always one this
        // library reads); its version alone only when that fails, to say why.
        let decoded: Result<Manifest, any Error>
        do { decoded = .success(try JSONDecoder().decode(Manifest.self, from: data)) } catch { decoded = .failure(error) }
        let schemaVersion: Int
        switch decoded {
        case .success(let manifest): schemaVersion = manifest.schemaVersion
        case .failure:
            do {
                schemaVersion = try JSONDecoder().decode(Version.self, from: data).schemaVersion
            } catch {
                throw ManifestError.invalid(path: path, reason: "no schemaVersion (\(Manifest.describe(error)))")
            }
        }
        guard schemaVersion <= currentSchemaVersion else {
            throw ManifestError.newerSchema(path: path, found: schemaVersion, supported: currentSchemaVersion)
        }
        let manifest: Manifest
        switch decoded {
        case .success(let decoded): manifest = decoded
        case .failure(let error): throw ManifestError.invalid(path: path, reason: Manifest.describe(error))
        }
        if let problem = manifest.problem { throw ManifestError.invalid(path: path, reason: problem) }
        return manifest
    }

    /// The largest manifest read (256 KiB), by the app's extension as by every command: a clip takes
    /// about 580 bytes (the demo's 18 clips, 10.5 KB), so about 450 clips fit, and a real set has
    /// 20 to 60. Decoding costs about 3 bytes of memory per byte of manifest beside the bytes
    /// themselves, and 1.6 MB whatever the size (peak RSS on Linux: 10.7 KB +1.6 MB, 276 KB +2.1 MB,
    /// 552 KB +2.9 MB, 2.8 MB +8.0 MB and 0.13 s): this cap keeps a manifest under about 2.5 MB of
    /// the extension's 24 MB, where the earlier 16 MiB cost 1.4-2.9 s and 87 MB before a refusal.
    /// A larger file is refused by its size, before any of it is read; the build warns of one and the
    /// check fails it.
    public static let maxBytes = 256 << 10

    /// Reads and decodes the manifest at `url` (a regular file of at most `maxBytes`).
    /// - Throws: `ManifestError`; `tooLarge` before reading a byte of a file over `maxBytes`.
    public static func load(from url: URL) throws(ManifestError) -> Manifest {
        try load(from: url, upTo: maxBytes)
    }

    /// `load(from:)` with another cap: the build's judgement of whether a folder holds a set it may
    /// replace (an earlier soundset read and wrote manifests up to 16 MiB).
    package static func load(from url: URL, upTo limit: Int) throws(ManifestError) -> Manifest {
        let data: Data
        do {
            data = try RegularFile.read(url, maxBytes: limit)
        } catch {
            if error.kind == .tooLarge, let size = try? RegularFile.head(url, count: 0).size {
                throw ManifestError.tooLarge(path: url.path, size: size, limit: limit)
            }
            throw ManifestError.unreadable(path: url.path, reason: error.kind == .missing ? "the file is missing or unreadable" : "the file \(error.reason)")
        }
        return try decode(data, path: url.path)
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            switch context.codingPath.last?.stringValue {
            case nil: return "not valid JSON"
            case "locale": return "\(path) must be one of \(SpeechLocale.allCases.map(\.rawValue).joined(separator: ", "))"
            case "container": return "\(path) must be one of \(Container.allCases.map(\.rawValue).joined(separator: ", "))"
            case "encoding": return "\(path) must be one of \(Encoding.allCases.map(\.rawValue).joined(separator: ", "))"
            default: return "bad value at \(path)"
            }
        default:
            return "\(error)"
        }
    }
}
