import Foundation

/// RIFF WAVE: `fmt ` (format tag 1 PCM, 7 µ-law, 6 a-law), then `data`; sizes little-endian.
enum WAVLayout {
    static func parse(_ reader: inout ByteReader) throws(ComposeError) -> SoundData {
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
                _ = try reader.uint32(bigEndian: false)  // bytes per second
                let blockAlign = try reader.uint16(bigEndian: false)
                let bits = try reader.uint16(bigEndian: false)
                try reader.skip(min(reader.remaining, size - 16 + size % 2))
                let encoding: Encoding
                switch (tag, bits) {
                case (1, 16): encoding = .pcm16
                case (7, 8): encoding = .ulaw
                case (6, 8): encoding = .alaw
                default: throw reader.failure("unsupported WAV format tag \(tag) with \(bits) bits")
                }
                format = try SoundData.validated(
                    SoundFormat(container: .wav, encoding: encoding, sampleRate: Int(rate), channels: Int(channels), littleEndian: true),
                    bytesPerFrame: Int(blockAlign), reader: reader)
            case "data":
                guard let format else { throw reader.failure("the data chunk comes before the fmt chunk") }
                return SoundData(format: format, samples: try reader.bytes(size))
            default:
                try reader.skip(min(reader.remaining, size + size % 2))
            }
        }
        throw reader.failure("no data chunk")
    }

    static func header(_ format: SoundFormat, frames: Int) -> Data {
        let pcm = format.encoding == .pcm16
        let fmtSize: UInt32 = pcm ? 16 : 18
        let factSize: UInt32 = pcm ? 0 : 12
        let bytes = frames * format.bytesPerFrame
        var out = Data()
        out.append(fourCC: "RIFF")
        out.append(uint32: 4 + (8 + fmtSize) + factSize + 8 + UInt32(clamping: bytes + bytes % 2), bigEndian: false)
        out.append(fourCC: "WAVE")
        out.append(fourCC: "fmt ")
        out.append(uint32: fmtSize, bigEndian: false)
        out.append(uint16: pcm ? 1 : format.encoding == .ulaw ? 7 : 6, bigEndian: false)
        out.append(uint16: UInt16(format.channels), bigEndian: false)
        out.append(uint32: UInt32(format.sampleRate), bigEndian: false)
        out.append(uint32: UInt32(format.sampleRate * format.bytesPerFrame), bigEndian: false)
        out.append(uint16: UInt16(format.bytesPerFrame), bigEndian: false)
        out.append(uint16: UInt16(format.encoding.bytesPerSample * 8), bigEndian: false)
        if !pcm {
            out.append(uint16: 0, bigEndian: false)  // no extra format bytes
            out.append(fourCC: "fact")
            out.append(uint32: 4, bigEndian: false)
            out.append(uint32: UInt32(clamping: frames), bigEndian: false)
        }
        out.append(fourCC: "data")
        out.append(uint32: UInt32(clamping: bytes), bigEndian: false)
        return out
    }
}
