import Foundation

/// Apple's AIFF and AIFF-C: `FORM`, a `COMM` chunk (frames, bits, an 80-bit extended sample rate and,
/// in AIFC, a compression type), and `SSND`; sizes big-endian, chunks padded to an even length.
/// 16-bit PCM is plain AIFF, big-endian; µ-law and a-law are AIFC `ulaw` and `alaw`, as libsndfile
/// writes them.
enum AIFFLayout {
    static func parse(_ reader: inout ByteReader) throws(ComposeError) -> SoundData {
        let formSize = Int(try reader.uint32(bigEndian: true))
        let kind = try reader.fourCC()
        guard kind == "AIFF" || kind == "AIFC" else { throw reader.failure("a FORM file that is not AIFF") }
        guard formSize <= reader.remaining + 4 else {
            throw reader.failure("the FORM header claims \(formSize) bytes but the file is shorter (truncated)")
        }
        var common: (format: SoundFormat, frames: Int)?
        var sound: Data?
        while !reader.atEnd, common == nil || sound == nil {
            let type = try reader.fourCC()
            let size = Int(try reader.uint32(bigEndian: true))
            guard size <= reader.remaining else {
                throw reader.failure("the \(type.trimmingCharacters(in: .whitespaces)) chunk claims \(size) bytes but \(reader.remaining) remain (truncated)")
            }
            let end = reader.offset + size
            switch type {
            case "COMM":
                guard size >= (kind == "AIFC" ? 22 : 18) else { throw reader.failure("the COMM chunk is too short") }
                let channels = Int(try reader.uint16(bigEndian: true))
                let frames = Int(try reader.uint32(bigEndian: true))
                let bits = try reader.uint16(bigEndian: true)
                let rate = try extended(&reader)
                let compression = kind == "AIFC" ? try reader.fourCC() : "NONE"
                let encoding: Encoding
                let littleEndian: Bool
                switch (compression, bits) {
                case ("NONE", 16), ("twos", 16): (encoding, littleEndian) = (.pcm16, false)
                case ("sowt", 16): (encoding, littleEndian) = (.pcm16, true)
                case ("ulaw", 8), ("ulaw", 16), ("ULAW", 8), ("ULAW", 16): (encoding, littleEndian) = (.ulaw, false)
                case ("alaw", 8), ("alaw", 16), ("ALAW", 8), ("ALAW", 16): (encoding, littleEndian) = (.alaw, false)
                default: throw reader.failure("unsupported AIFF format \(compression) with \(bits) bits")
                }
                let format = SoundFormat(container: .aiff, encoding: encoding, sampleRate: rate, channels: channels, littleEndian: littleEndian)
                common = (try SoundData.validated(format, bytesPerFrame: format.bytesPerFrame, reader: reader), frames)
            case "SSND":
                guard size >= 8 else { throw reader.failure("the SSND chunk is too short") }
                let offset = Int(try reader.uint32(bigEndian: true))
                _ = try reader.uint32(bigEndian: true)  // block size
                guard offset <= size - 8 else { throw reader.failure("the SSND chunk's offset \(offset) is past its end") }
                try reader.skip(offset)
                sound = try reader.bytes(size - 8 - offset)
            default:
                break
            }
            try reader.skip(end - reader.offset)
            if size % 2 == 1, !reader.atEnd { try reader.skip(1) }
        }
        guard let common else { throw reader.failure("no COMM chunk") }
        guard let sound else { throw reader.failure("no SSND chunk") }
        let bytes = common.frames.multipliedReportingOverflow(by: common.format.bytesPerFrame)
        guard !bytes.overflow, bytes.partialValue <= sound.count else {
            throw reader.failure("the COMM chunk claims \(common.frames) frames but the SSND chunk holds \(sound.count) bytes (truncated)")
        }
        return SoundData(format: common.format, samples: sound.prefix(bytes.partialValue))
    }

    static func header(_ format: SoundFormat, frames: Int) -> Data {
        let compressed = format.encoding != .pcm16 || format.littleEndian
        let bytes = frames * format.bytesPerFrame
        let commSize: UInt32 = compressed ? 24 : 18
        let versionChunk: UInt32 = compressed ? 12 : 0
        var out = Data()
        out.append(fourCC: "FORM")
        out.append(uint32: 4 + versionChunk + (8 + commSize) + 16 + UInt32(clamping: bytes + bytes % 2), bigEndian: true)
        out.append(fourCC: compressed ? "AIFC" : "AIFF")
        if compressed {
            out.append(fourCC: "FVER")
            out.append(uint32: 4, bigEndian: true)
            out.append(uint32: 0xA280_5140, bigEndian: true)  // AIFC version 1
        }
        out.append(fourCC: "COMM")
        out.append(uint32: commSize, bigEndian: true)
        out.append(uint16: UInt16(format.channels), bigEndian: true)
        out.append(uint32: UInt32(clamping: frames), bigEndian: true)
        out.append(uint16: UInt16(format.encoding.bytesPerSample * 8), bigEndian: true)
        out.append(extended: format.sampleRate)
        if compressed {
            out.append(fourCC: format.encoding == .pcm16 ? "sowt" : format.encoding.rawValue)
            out.append(contentsOf: [0, 0])  // an empty name, padded to an even length
        }
        out.append(fourCC: "SSND")
        out.append(uint32: UInt32(clamping: 8 + bytes), bigEndian: true)
        out.append(uint32: 0, bigEndian: true)  // offset
        out.append(uint32: 0, bigEndian: true)  // block size
        return out
    }

    /// An 80-bit IEEE 754 extended number (a sign and 15-bit exponent, then a 64-bit mantissa with
    /// its integer bit), which must hold a whole sample rate.
    private static func extended(_ reader: inout ByteReader) throws(ComposeError) -> Int {
        let signAndExponent = try reader.uint16(bigEndian: true)
        let mantissa = try reader.uint64(bigEndian: true)
        let exponent = Int(signAndExponent & 0x7FFF) - 16383
        guard signAndExponent & 0x8000 == 0, mantissa >> 63 == 1, (0..<32).contains(exponent) else {
            throw reader.failure("the sample rate is not a positive whole number")
        }
        let shift = UInt64(63 - exponent)
        guard mantissa & ((1 << shift) - 1) == 0 else { throw reader.failure("the sample rate is not a whole number") }
        return Int(mantissa >> shift)
    }
}

extension Data {
    /// Appends a positive whole number as an 80-bit extended float (AIFF's sample rate).
    mutating func append(extended value: Int) {
        let exponent = Int.bitWidth - value.leadingZeroBitCount - 1
        append(uint16: UInt16(16383 + exponent), bigEndian: true)
        append(uint64: UInt64(value) << UInt64(63 - exponent), bigEndian: true)
    }
}
