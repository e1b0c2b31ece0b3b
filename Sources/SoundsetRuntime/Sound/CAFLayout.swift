import Foundation

/// Apple's Core Audio Format: `caff`, a `desc` chunk, then `data` (sizes big-endian, 64-bit).
enum CAFLayout {
    static func parse(_ reader: inout ByteReader) throws(ComposeError) -> SoundData {
        let version = try reader.uint16(bigEndian: true)
        _ = try reader.uint16(bigEndian: true)
        guard version == 1 else { throw reader.failure("unsupported CAF version \(version)") }
        var format: SoundFormat?
        while !reader.atEnd {
            let type = try reader.fourCC()
            let rawSize = Int64(bitPattern: try reader.uint64(bigEndian: true))
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
            guard type == "desc" else {
                try reader.skip(Int(rawSize))
                continue
            }
            guard rawSize == 32 else { throw reader.failure("the desc chunk is \(rawSize) bytes, not 32") }
            let rate = Double(bitPattern: try reader.uint64(bigEndian: true))
            let formatID = try reader.fourCC()
            let flags = try reader.uint32(bigEndian: true)
            let bytesPerPacket = try reader.uint32(bigEndian: true)
            let framesPerPacket = try reader.uint32(bigEndian: true)
            let channels = try reader.uint32(bigEndian: true)
            let bits = try reader.uint32(bigEndian: true)
            let encoding: Encoding
            switch (formatID, bits, flags & 1) {
            case ("lpcm", 16, 0): encoding = .pcm16
            case ("ulaw", 8, _): encoding = .ulaw
            case ("alaw", 8, _): encoding = .alaw
            default: throw reader.failure("unsupported CAF format \(formatID) with \(bits) bits")
            }
            let wholeRate = rate.isFinite && rate == rate.rounded() && rate >= 1 && rate <= 1_000_000 ? Int(rate) : 0
            format = try SoundData.validated(
                SoundFormat(container: .caf, encoding: encoding, sampleRate: wholeRate, channels: Int(channels), littleEndian: flags & 2 != 0),
                bytesPerFrame: Int(bytesPerPacket), framesPerPacket: Int(framesPerPacket), reader: reader)
        }
        throw reader.failure("no data chunk")
    }

    static func header(_ format: SoundFormat, frames: Int) -> Data {
        var out = Data()
        out.append(fourCC: "caff")
        out.append(uint16: 1, bigEndian: true)
        out.append(uint16: 0, bigEndian: true)
        out.append(fourCC: "desc")
        out.append(uint64: 32, bigEndian: true)
        out.append(uint64: Double(format.sampleRate).bitPattern, bigEndian: true)
        out.append(fourCC: format.encoding == .pcm16 ? "lpcm" : format.encoding.rawValue)
        out.append(uint32: format.encoding == .pcm16 && format.littleEndian ? 2 : 0, bigEndian: true)
        out.append(uint32: UInt32(format.bytesPerFrame), bigEndian: true)
        out.append(uint32: 1, bigEndian: true)
        out.append(uint32: UInt32(format.channels), bigEndian: true)
        out.append(uint32: UInt32(format.encoding.bytesPerSample * 8), bigEndian: true)
        out.append(fourCC: "data")
        out.append(uint64: UInt64(frames * format.bytesPerFrame + 4), bigEndian: true)
        out.append(uint32: 0, bigEndian: true)  // edit count
        return out
    }
}
