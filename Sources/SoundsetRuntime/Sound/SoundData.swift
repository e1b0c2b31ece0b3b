import Foundation

/// The sample format of a built clip, as its header states it.
public struct SoundFormat: Sendable, Equatable {
    public var container: Container
    public var encoding: Encoding
    public var sampleRate: Int
    public var channels: Int
    /// For 16-bit PCM: whether samples are stored little-endian (WAV; CAF and AIFC may say either).
    public var littleEndian: Bool

    public init(container: Container, encoding: Encoding, sampleRate: Int, channels: Int = 1, littleEndian: Bool? = nil) {
        self.container = container
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.littleEndian = littleEndian ?? (container == .wav)
    }

    /// Bytes per frame (all channels).
    public var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    /// One byte of digital silence in this encoding (16-bit PCM: both bytes are zero).
    var silentByte: UInt8 {
        switch encoding {
        case .pcm16: 0
        case .ulaw: 0xFF
        case .alaw: 0xD5
        }
    }

    /// Whether two formats hold interchangeable samples: the same encoding, rate, channels and byte
    /// order (the container does not matter to the samples).
    func samplesMatch(_ other: SoundFormat) -> Bool {
        encoding == other.encoding && sampleRate == other.sampleRate && channels == other.channels
            && (encoding != .pcm16 || littleEndian == other.littleEndian)
    }
}

/// A CAF, WAV or AIFF file split into its format and its sample bytes, read and written in pure Swift.
///
/// Only what soundset builds is read: 16-bit linear PCM, µ-law and a-law, in CAF, WAV or AIFF/AIFC.
/// Every size field is checked against the bytes actually present, so a truncated or hostile file
/// is refused, never read past its end.
public struct SoundData: Sendable, Equatable {
    public var format: SoundFormat
    /// The sample bytes, frames × bytesPerFrame.
    public var samples: Data

    /// Frames held.
    public var frames: Int { samples.count / format.bytesPerFrame }

    public init(format: SoundFormat, samples: Data) {
        self.format = format
        self.samples = samples
    }

    /// Parses a CAF, WAV or AIFF file's bytes.
    /// - Parameter name: used in errors.
    /// - Throws: `ComposeError.unreadable` saying what is wrong.
    public init(parsing data: Data, name: String) throws(ComposeError) {
        var reader = ByteReader(data: data, name: name)
        switch try reader.fourCC() {
        case "caff": self = try CAFLayout.parse(&reader)
        case "RIFF": self = try WAVLayout.parse(&reader)
        case "FORM": self = try AIFFLayout.parse(&reader)
        default: throw .unreadable(name, "not a CAF, WAV or AIFF file")
        }
        guard samples.count % format.bytesPerFrame == 0 else {
            throw .unreadable(name, "the sample data ends inside a frame (truncated)")
        }
    }

    /// The bytes of a file holding `samples` in `format`'s container and encoding.
    public func encoded() -> Data {
        var out = Self.header(format, frames: frames)
        out.append(samples)
        out.append(Self.trailer(format, frames: frames))
        return out
    }

    /// The bytes before the samples of a file of `frames` frames: a caller can append the samples
    /// one clip at a time, then `trailer`, without holding them twice.
    public static func header(_ format: SoundFormat, frames: Int) -> Data {
        switch format.container {
        case .caf: CAFLayout.header(format, frames: frames)
        case .wav: WAVLayout.header(format, frames: frames)
        case .aiff: AIFFLayout.header(format, frames: frames)
        }
    }

    /// The bytes after the samples: the pad byte that WAV and AIFF chunks of odd size need.
    public static func trailer(_ format: SoundFormat, frames: Int) -> Data {
        format.container != .caf && (frames * format.bytesPerFrame) % 2 == 1 ? Data([0]) : Data()
    }

    /// Checks that a parsed format is one soundset writes and that its frame size adds up.
    static func validated(_ format: SoundFormat, bytesPerFrame: Int, framesPerPacket: Int = 1, reader: ByteReader) throws(ComposeError) -> SoundFormat {
        guard Manifest.sampleRates.contains(format.sampleRate) else { throw reader.failure("sample rate \(format.sampleRate) is out of range") }
        guard (1...16).contains(format.channels) else { throw reader.failure("\(format.channels) channels is out of range") }
        guard framesPerPacket == 1, bytesPerFrame == format.bytesPerFrame else {
            throw reader.failure("the frame size does not match the encoding")
        }
        return format
    }
}
