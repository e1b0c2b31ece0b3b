/// Samples of a clip's encoding as numbers on the 16-bit scale and back, for mixing the crossfades of
/// speech joins: 16-bit PCM in either byte order, and G.711 µ-law and a-law (ITU-T G.711, the
/// segment-and-mantissa code libsndfile writes).
enum SampleCodec {
    /// The sample at `index` (samples, not frames) of `bytes` in `format`.
    static func decode(_ bytes: UnsafeRawBufferPointer, at index: Int, format: SoundFormat) -> Int {
        switch format.encoding {
        case .pcm16:
            let first = Int(bytes[2 * index])
            let second = Int(bytes[2 * index + 1])
            return Int(Int16(truncatingIfNeeded: format.littleEndian ? first | second << 8 : first << 8 | second))
        case .ulaw: return ulawTable[Int(bytes[index])]
        case .alaw: return alawTable[Int(bytes[index])]
        }
    }

    /// Writes `value` (rounded and held to the 16-bit range) in `format` as sample `index` (samples,
    /// not frames) of `bytes`.
    static func encode(_ value: Double, format: SoundFormat, into bytes: UnsafeMutableRawBufferPointer, at index: Int) {
        let sample = Int(max(-32768, min(32767, value.rounded())))
        switch format.encoding {
        case .pcm16:
            let bits = UInt16(bitPattern: Int16(sample))
            let (low, high) = (UInt8(bits & 0xFF), UInt8(bits >> 8))
            bytes[2 * index] = format.littleEndian ? low : high
            bytes[2 * index + 1] = format.littleEndian ? high : low
        case .ulaw: bytes[index] = ulaw(sample)
        case .alaw: bytes[index] = alaw(sample)
        }
    }

    /// Every µ-law code's value on the 16-bit scale.
    static let ulawTable: [Int] = (0...255).map { code in
        let inverted = ~UInt8(code)
        let exponent = Int(inverted >> 4) & 0x07
        let mantissa = Int(inverted) & 0x0F
        let magnitude = ((mantissa << 3) + 0x84) << exponent - 0x84
        return inverted & 0x80 != 0 ? -magnitude : magnitude
    }

    /// Every a-law code's value on the 16-bit scale.
    static let alawTable: [Int] = (0...255).map { code in
        let toggled = UInt8(code) ^ 0x55
        let exponent = Int(toggled >> 4) & 0x07
        let mantissa = Int(toggled) & 0x0F
        let magnitude = exponent == 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1)
        return toggled & 0x80 != 0 ? magnitude : -magnitude
    }

    /// The µ-law code of a 16-bit sample.
    static func ulaw(_ sample: Int) -> UInt8 {
        let sign: UInt8 = sample < 0 ? 0x80 : 0
        let magnitude = min(abs(sample), 32635) + 0x84
        var exponent = 7
        while exponent > 0 && magnitude & (0x4000 >> (7 - exponent)) == 0 { exponent -= 1 }
        let mantissa = (magnitude >> (exponent + 3)) & 0x0F
        return ~(sign | UInt8(exponent << 4) | UInt8(mantissa))
    }

    /// The a-law code of a 16-bit sample.
    static func alaw(_ sample: Int) -> UInt8 {
        let sign: UInt8 = sample >= 0 ? 0x80 : 0
        let magnitude = min(sample >= 0 ? sample : -sample - 1, 32767) >> 3  // 13-bit magnitude
        var exponent = 7
        while exponent > 0 && magnitude & (0x800 >> (7 - exponent)) == 0 { exponent -= 1 }
        let mantissa = exponent == 0 ? (magnitude >> 1) & 0x0F : (magnitude >> exponent) & 0x0F
        return (sign | UInt8(exponent << 4) | UInt8(mantissa)) ^ 0x55
    }
}
