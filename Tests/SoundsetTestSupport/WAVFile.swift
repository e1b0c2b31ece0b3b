import Foundation

/// Writes WAV files byte by byte, independently of libsndfile, for fixtures (including broken ones).
public enum WAVFile {
    public enum Format: Sendable { case pcm16, pcm24, float32 }

    /// The bytes of a WAV file holding `samples` (interleaved when `channels` > 1).
    public static func bytes(_ samples: [Float], rate: Int, channels: Int = 1, format: Format = .pcm16) -> Data {
        let bytesPerSample = format == .pcm16 ? 2 : format == .pcm24 ? 3 : 4
        var body = Data(capacity: samples.count * bytesPerSample)
        for sample in samples {
            switch format {
            case .pcm16:
                let value = Int16(clamping: Int((Double(sample) * 32767).rounded()))
                body.append(contentsOf: withUnsafeBytes(of: value.littleEndian, Array.init))
            case .pcm24:
                let value = Int32(clamping: Int((Double(sample) * 8_388_607).rounded()))
                body.append(contentsOf: withUnsafeBytes(of: value.littleEndian, { Array($0.prefix(3)) }))
            case .float32:
                body.append(contentsOf: withUnsafeBytes(of: sample.bitPattern.littleEndian, Array.init))
            }
        }
        var data = Data("RIFF".utf8)
        append32(&data, UInt32(36 + body.count))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(&data, 16)
        append16(&data, format == .float32 ? 3 : 1)
        append16(&data, UInt16(channels))
        append32(&data, UInt32(rate))
        append32(&data, UInt32(rate * channels * bytesPerSample))
        append16(&data, UInt16(channels * bytesPerSample))
        append16(&data, UInt16(bytesPerSample * 8))
        data.append(contentsOf: Array("data".utf8))
        append32(&data, UInt32(body.count))
        data.append(body)
        return data
    }

    /// Writes a WAV file.
    public static func write(_ samples: [Float], to url: URL, rate: Int, channels: Int = 1, format: Format = .pcm16) throws {
        try bytes(samples, rate: rate, channels: channels, format: format).write(to: url)
    }

    private static func append16(_ data: inout Data, _ value: UInt16) {
        data.append(contentsOf: withUnsafeBytes(of: value.littleEndian, Array.init))
    }

    private static func append32(_ data: inout Data, _ value: UInt32) {
        data.append(contentsOf: withUnsafeBytes(of: value.littleEndian, Array.init))
    }
}
