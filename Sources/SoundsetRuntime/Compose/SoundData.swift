import Foundation

/// The sample format of a built clip, as its CAF or WAV header states it.
public struct SoundFormat: Sendable, Equatable {
    /// `caf` or `wav`.
    public var container: String
    /// `pcm16`, `ulaw` or `alaw`.
    public var encoding: String
    public var sampleRate: Int
    public var channels: Int
    /// Bytes per frame (all channels).
    public var bytesPerFrame: Int
    /// For 16-bit PCM: whether samples are stored little-endian.
    public var littleEndian: Bool

    public init(container: String, encoding: String, sampleRate: Int, channels: Int, bytesPerFrame: Int, littleEndian: Bool) {
        self.container = container
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channels = channels
        self.bytesPerFrame = bytesPerFrame
        self.littleEndian = littleEndian
    }

    /// One frame of digital silence in this encoding.
    var silentFrame: [UInt8] {
        switch encoding {
        case "ulaw": [UInt8](repeating: 0xFF, count: bytesPerFrame)
        case "alaw": [UInt8](repeating: 0xD5, count: bytesPerFrame)
        default: [UInt8](repeating: 0, count: bytesPerFrame)
        }
    }
}

/// A CAF or WAV file split into its format and its sample bytes, read and written in pure Swift.
///
/// Only what soundset builds is read: 16-bit linear PCM, µ-law and a-law, in CAF or WAV. Every size
/// field is checked against the bytes actually present, so a truncated or hostile file is refused,
/// never read past its end.
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

    /// Parses a CAF or WAV file's bytes.
    /// - Parameter name: used in errors.
    /// - Throws: `ComposeError.unreadable` saying what is wrong.
    public init(parsing data: Data, name: String) throws(ComposeError) {
        var reader = ByteReader(data: data, name: name)
        let magic = try reader.fourCC()
        switch magic {
        case "caff": self = try Self.parseCAF(&reader)
        case "RIFF": self = try Self.parseWAV(&reader)
        default: throw .unreadable(name, "not a CAF or WAV file")
        }
        guard samples.count % format.bytesPerFrame == 0 else {
            throw .unreadable(name, "the sample data ends inside a frame (truncated)")
        }
    }

    private static func parseCAF(_ reader: inout ByteReader) throws(ComposeError) -> SoundData {
        let version = try reader.uint16(bigEndian: true)
        _ = try reader.uint16(bigEndian: true)
        guard version == 1 else { throw reader.failure("unsupported CAF version \(version)") }
        var format: SoundFormat?
        while !reader.atEnd {
            let type = try reader.fourCC()
            let rawSize = try reader.int64BigEndian()
            if type == "data" {
                guard let format else { throw reader.failure("the data chunk comes before the desc chunk") }
                // -1: the data runs to the end of the file.
                let size = rawSize == -1 ? Int64(reader.remaining) : rawSize
                guard size >= 4, size <= Int64(reader.remaining) else {
                    throw reader.failure("the data chunk claims \(rawSize) bytes but \(reader.remaining) remain (truncated)")
                }
                _ = try reader.uint32(bigEndian: true)  // edit count
                return SoundData(format: format, samples: try reader.bytes(Int(size) - 4))
            }
            guard rawSize >= 0, rawSize <= Int64(reader.remaining) else {
                throw reader.failure("the \(type) chunk claims \(rawSize) bytes but \(reader.remaining) remain")
            }
            if type == "desc" {
                guard rawSize == 32 else { throw reader.failure("the desc chunk is \(rawSize) bytes, not 32") }
                let rate = Double(bitPattern: try reader.uint64(bigEndian: true))
                let formatID = try reader.fourCC()
                let flags = try reader.uint32(bigEndian: true)
                let bytesPerPacket = try reader.uint32(bigEndian: true)
                let framesPerPacket = try reader.uint32(bigEndian: true)
                let channels = try reader.uint32(bigEndian: true)
                let bits = try reader.uint32(bigEndian: true)
                let encoding: String
                switch (formatID, bits, flags & 1) {
                case ("lpcm", 16, 0): encoding = "pcm16"
                case ("ulaw", 8, _): encoding = "ulaw"
                case ("alaw", 8, _): encoding = "alaw"
                default: throw reader.failure("unsupported CAF format \(formatID) with \(bits) bits")
                }
                format = try validated(
                    SoundFormat(
                        container: "caf", encoding: encoding, sampleRate: rate.isFinite && rate >= 1 && rate <= 1_000_000 ? Int(rate) : 0,
                        channels: Int(channels), bytesPerFrame: Int(bytesPerPacket), littleEndian: flags & 2 != 0),
                    framesPerPacket: Int(framesPerPacket), reader: reader)
            } else {
                try reader.skip(Int(rawSize))
            }
        }
        throw reader.failure("no data chunk")
    }

    private static func parseWAV(_ reader: inout ByteReader) throws(ComposeError) -> SoundData {
        let riffSize = try reader.uint32(bigEndian: false)
        guard try reader.fourCC() == "WAVE" else { throw reader.failure("a RIFF file that is not WAVE") }
        guard Int(riffSize) <= reader.remaining + 4 else {
            throw reader.failure("the RIFF header claims \(riffSize) bytes but the file is shorter (truncated)")
        }
        var format: SoundFormat?
        while !reader.atEnd {
            let type = try reader.fourCC()
            let size = Int(try reader.uint32(bigEndian: false))
            guard size <= reader.remaining else {
                throw reader.failure("the \(type.trimmingCharacters(in: .whitespaces)) chunk claims \(size) bytes but \(reader.remaining) remain (truncated)")
            }
            switch type {
            case "fmt ":
                guard size >= 16 else { throw reader.failure("the fmt chunk is too short") }
                let tag = try reader.uint16(bigEndian: false)
                let channels = try reader.uint16(bigEndian: false)
                let rate = try reader.uint32(bigEndian: false)
                _ = try reader.uint32(bigEndian: false)
                let blockAlign = try reader.uint16(bigEndian: false)
                let bits = try reader.uint16(bigEndian: false)
                try reader.skip(size - 16 + size % 2)
                let encoding: String
                switch (tag, bits) {
                case (1, 16): encoding = "pcm16"
                case (7, 8): encoding = "ulaw"
                case (6, 8): encoding = "alaw"
                default: throw reader.failure("unsupported WAV format tag \(tag) with \(bits) bits")
                }
                format = try validated(
                    SoundFormat(
                        container: "wav", encoding: encoding, sampleRate: Int(rate), channels: Int(channels),
                        bytesPerFrame: Int(blockAlign), littleEndian: true), framesPerPacket: 1, reader: reader)
            case "data":
                guard let format else { throw reader.failure("the data chunk comes before the fmt chunk") }
                return SoundData(format: format, samples: try reader.bytes(size))
            default:
                try reader.skip(min(reader.remaining, size + size % 2))
            }
        }
        throw reader.failure("no data chunk")
    }

    private static func validated(_ format: SoundFormat, framesPerPacket: Int, reader: ByteReader) throws(ComposeError) -> SoundFormat {
        let bytesPerSample = format.encoding == "pcm16" ? 2 : 1
        guard format.sampleRate >= 1000, format.sampleRate <= 384_000 else { throw reader.failure("sample rate \(format.sampleRate) is out of range") }
        guard format.channels >= 1, format.channels <= 16 else { throw reader.failure("\(format.channels) channels is out of range") }
        guard framesPerPacket == 1, format.bytesPerFrame == bytesPerSample * format.channels else {
            throw reader.failure("the frame size does not match the encoding")
        }
        return format
    }

    /// The bytes of a file holding `samples` in `format`'s container and encoding.
    public func encoded() -> Data {
        var out = Data()
        let frames = UInt32(clamping: self.frames)
        if format.container == "wav" {
            let pcm = format.encoding == "pcm16"
            let fmtSize: UInt32 = pcm ? 16 : 18
            let factSize: UInt32 = pcm ? 0 : 12
            let padded = samples.count + samples.count % 2
            out.append(fourCC: "RIFF")
            out.append(uint32: 4 + (8 + fmtSize) + factSize + 8 + UInt32(clamping: padded), bigEndian: false)
            out.append(fourCC: "WAVE")
            out.append(fourCC: "fmt ")
            out.append(uint32: fmtSize, bigEndian: false)
            out.append(uint16: pcm ? 1 : format.encoding == "ulaw" ? 7 : 6, bigEndian: false)
            out.append(uint16: UInt16(format.channels), bigEndian: false)
            out.append(uint32: UInt32(format.sampleRate), bigEndian: false)
            out.append(uint32: UInt32(format.sampleRate * format.bytesPerFrame), bigEndian: false)
            out.append(uint16: UInt16(format.bytesPerFrame), bigEndian: false)
            out.append(uint16: pcm ? 16 : 8, bigEndian: false)
            if !pcm {
                out.append(uint16: 0, bigEndian: false)
                out.append(fourCC: "fact")
                out.append(uint32: 4, bigEndian: false)
                out.append(uint32: frames, bigEndian: false)
            }
            out.append(fourCC: "data")
            out.append(uint32: UInt32(clamping: samples.count), bigEndian: false)
            out.append(samples)
            if samples.count % 2 == 1 { out.append(0) }
        } else {
            out.append(fourCC: "caff")
            out.append(uint16: 1, bigEndian: true)
            out.append(uint16: 0, bigEndian: true)
            out.append(fourCC: "desc")
            out.append(uint64: 32, bigEndian: true)
            out.append(uint64: Double(format.sampleRate).bitPattern, bigEndian: true)
            out.append(fourCC: format.encoding == "pcm16" ? "lpcm" : format.encoding)
            out.append(uint32: format.encoding == "pcm16" && format.littleEndian ? 2 : 0, bigEndian: true)
            out.append(uint32: UInt32(format.bytesPerFrame), bigEndian: true)
            out.append(uint32: 1, bigEndian: true)
            out.append(uint32: UInt32(format.channels), bigEndian: true)
            out.append(uint32: format.encoding == "pcm16" ? 16 : 8, bigEndian: true)
            out.append(fourCC: "data")
            out.append(uint64: UInt64(samples.count + 4), bigEndian: true)
            out.append(uint32: 0, bigEndian: true)
            out.append(samples)
        }
        return out
    }
}

/// Reads big- and little-endian fields from file bytes, never past the end.
struct ByteReader {
    let data: Data
    let name: String
    private(set) var offset: Int

    init(data: Data, name: String) {
        self.data = data
        self.name = name
        self.offset = data.startIndex
    }

    var remaining: Int { data.endIndex - offset }
    var atEnd: Bool { remaining <= 0 }

    func failure(_ reason: String) -> ComposeError { .unreadable(name, reason) }

    mutating func bytes(_ count: Int) throws(ComposeError) -> Data {
        guard count >= 0, count <= remaining else { throw failure("the file ends early (truncated)") }
        defer { offset += count }
        return data.subdata(in: offset..<offset + count)
    }

    mutating func skip(_ count: Int) throws(ComposeError) { _ = try bytes(count) }

    mutating func fourCC() throws(ComposeError) -> String {
        String(decoding: try bytes(4), as: UTF8.self)
    }

    mutating func uint16(bigEndian: Bool) throws(ComposeError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(2, bigEndian: bigEndian))
    }

    mutating func uint32(bigEndian: Bool) throws(ComposeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(4, bigEndian: bigEndian))
    }

    mutating func uint64(bigEndian: Bool) throws(ComposeError) -> UInt64 {
        try integer(8, bigEndian: bigEndian)
    }

    mutating func int64BigEndian() throws(ComposeError) -> Int64 {
        Int64(bitPattern: try integer(8, bigEndian: true))
    }

    private mutating func integer(_ count: Int, bigEndian: Bool) throws(ComposeError) -> UInt64 {
        let raw = try bytes(count)
        let ordered = bigEndian ? Array(raw) : Array(raw.reversed())
        return ordered.reduce(0) { $0 << 8 | UInt64($1) }
    }
}

extension Data {
    mutating func append(fourCC: String) { append(contentsOf: Array(fourCC.utf8.prefix(4))) }

    mutating func append(uint16 value: UInt16, bigEndian: Bool) {
        append(contentsOf: Swift.withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init))
    }

    mutating func append(uint32 value: UInt32, bigEndian: Bool) {
        append(contentsOf: Swift.withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init))
    }

    mutating func append(uint64 value: UInt64, bigEndian: Bool) {
        append(contentsOf: Swift.withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init))
    }
}
