import Foundation

/// A trimmed take, small enough to keep with the clip and compare with every other: its samples at
/// 4 kHz, scaled so the largest is ±127, in 8 bits. Two takes are the same recording when their
/// lengths are within 2 % and their normalised correlation at the best lag (within ±30 ms) is at
/// least 0.98: the same samples give 1, a copy resampled or re-encoded gives nearly 1, and two
/// takes of one word, however alike, stay far below (their phase drifts apart within a syllable).
public struct TakeFingerprint: Codable, Sendable, Equatable {
    /// The fingerprint's rate, Hz.
    public static let rate = 4000
    /// The least correlation of the same recording.
    public static let sameCorrelation = 0.98
    /// The most two lengths of the same recording differ, as a share of the longer.
    public static let sameLengthShare = 0.02
    /// The lags searched, each way, in the fingerprint's samples (30 ms).
    static let maxLag = rate * 30 / 1000
    /// The envelope's block (10 ms), and the least envelope correlation worth a full comparison.
    static let envelopeBlock = rate / 100
    static let envelopeCorrelation = 0.9

    /// The take at `rate`, scaled to ±127.
    public var values: [Int8]

    /// The take's length, seconds.
    public var seconds: Double { Double(values.count) / Double(Self.rate) }

    /// The fingerprint of mono `samples` (the trimmed take) at `sampleRate`.
    /// - Throws: `ResamplerError` when libsamplerate fails.
    public init(_ samples: [Float], sampleRate: Int) throws {
        let low = sampleRate == Self.rate ? samples : try Resampler.resample(samples, from: sampleRate, to: Self.rate, quality: .fastest)
        let peak = low.reduce(Float(0)) { max($0, abs($1)) }
        let scale = peak > 0 ? 127 / peak : 0
        values = low.map { Int8(max(-127, min(127, ($0 * scale).rounded()))) }
    }

    init(values: [Int8]) { self.values = values }

    /// Whether `other` is the same recording (see the type's description).
    public func isSameRecording(as other: TakeFingerprint) -> Bool {
        let a = values, b = other.values
        guard !a.isEmpty, !b.isEmpty else { return false }
        guard Double(abs(a.count - b.count)) <= Self.sameLengthShare * Double(max(a.count, b.count)) else { return false }
        // The cheap look first: the 10 ms envelopes, at block lags.
        let envelopeA = Self.envelope(a), envelopeB = Self.envelope(b)
        let blockLags = Self.maxLag / Self.envelopeBlock + 1
        guard Self.bestCorrelation(envelopeA, envelopeB, maxLag: blockLags) >= Self.envelopeCorrelation else { return false }
        return Self.bestCorrelation(a.map(Double.init), b.map(Double.init), maxLag: Self.maxLag) >= Self.sameCorrelation
    }

    /// The RMS of each 10 ms block.
    static func envelope(_ values: [Int8]) -> [Double] {
        stride(from: 0, to: values.count, by: envelopeBlock).map { start in
            let block = values[start..<min(values.count, start + envelopeBlock)]
            return (block.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(block.count)).squareRoot()
        }
    }

    /// The largest of `Σ a[i]·b[i+lag] / √(Σa²·Σb²)` over lags within `maxLag`.
    static func bestCorrelation(_ a: [Double], _ b: [Double], maxLag: Int) -> Double {
        let energyA = a.reduce(0) { $0 + $1 * $1 }, energyB = b.reduce(0) { $0 + $1 * $1 }
        guard energyA > 0, energyB > 0 else { return 0 }
        let norm = (energyA * energyB).squareRoot()
        var best = -Double.infinity
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for lag in -maxLag...maxLag {
                    let first = max(0, -lag), last = min(a.count, b.count - lag)
                    guard first < last else { continue }
                    var sum = 0.0
                    for index in first..<last { sum += a[index] * b[index + lag] }
                    best = max(best, sum / norm)
                }
            }
        }
        return best
    }

    /// Stored as base64 of the bytes: about 5 KB a second of take in the memo's JSON.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a fingerprint"))
        }
        values = data.map { Int8(bitPattern: $0) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Data(values.map { UInt8(bitPattern: $0) }).base64EncodedString())
    }
}
