import Foundation

/// A trimmed take, small enough to keep with the clip and compare with others: the take as the set
/// holds it (at the output rate, resampled once by the build) decimated by the whole factor nearest
/// 4 kHz (`Decimator`), scaled so the largest sample is ±127, in 8 bits. Two takes are the same
/// recording when their fingerprints have the same rate, their lengths are within 2 % and their
/// normalised correlation at the best lag (within ±30 ms) is at least 0.98: the same samples give
/// 1, a copy resampled or re-encoded gives nearly 1, and two takes of one word, however alike, stay
/// far below (their phase drifts apart within a syllable).
public struct TakeFingerprint: Codable, Sendable, Equatable {
    /// The rate a fingerprint is decimated toward, Hz.
    public static let nominalRate = 4000
    /// The least correlation of the same recording.
    public static let sameCorrelation = 0.98
    /// The most two lengths of the same recording differ, as a share of the longer.
    public static let sameLengthShare = 0.02
    /// The least envelope correlation worth a full comparison.
    public static let envelopeCorrelation = 0.9
    /// The highest rate a fingerprint read back may claim (a take at 384 kHz, not decimated): what
    /// a damaged or forged memo entry says is bounded before it sizes any search.
    public static let maxRate = 384_000

    /// The fingerprint's rate, Hz: the take's rate over a whole factor.
    public var rate: Int
    /// The take at `rate`, scaled to ±127.
    public var values: [Int8]

    /// The take's length, seconds.
    public var seconds: Double { rate > 0 ? Double(values.count) / Double(rate) : 0 }
    /// The lags searched, each way, in the fingerprint's samples (30 ms).
    var maxLag: Int { rate * 30 / 1000 }
    /// The envelope's block: 10 ms.
    var envelopeBlock: Int { max(1, rate / 100) }

    /// The rate of the fingerprint of a take at `sampleRate`.
    public static func rate(forSampleRate sampleRate: Int) -> Int {
        sampleRate / Decimator.factor(from: sampleRate, toward: nominalRate)
    }

    /// The fingerprint of mono `samples` (the trimmed take, at the set's rate) at `sampleRate`.
    public init(_ samples: [Float], sampleRate: Int) {
        let factor = Decimator.factor(from: sampleRate, toward: Self.nominalRate)
        let low = Decimator.decimate(samples, by: factor)
        rate = sampleRate / factor
        let peak = low.reduce(Float(0)) { max($0, abs($1)) }
        let scale = peak > 0 ? 127 / peak : 0
        values = low.map { Int8(max(-127, min(127, ($0 * scale).rounded()))) }
    }

    public init(rate: Int, values: [Int8]) {
        self.rate = rate
        self.values = values
    }

    /// Whether `other` is the same recording (see the type's description).
    public func isSameRecording(as other: TakeFingerprint) -> Bool {
        Prepared(self).isSameRecording(as: Prepared(other))
    }

    /// A fingerprint ready to be compared with many others: its 10 ms envelope, worked out once
    /// rather than once a pair (the values are made doubles only for a pair whose envelopes agree).
    public struct Prepared: Sendable {
        public let fingerprint: TakeFingerprint
        /// The RMS of each 10 ms block.
        public let envelope: [Double]

        public init(_ fingerprint: TakeFingerprint) {
            self.fingerprint = fingerprint
            envelope = TakeFingerprint.envelope(fingerprint.values, block: fingerprint.envelopeBlock)
        }

        /// Whether `other` is the same recording: the cheap look first (the envelopes at block
        /// lags), then the samples.
        public func isSameRecording(as other: Prepared) -> Bool {
            let a = fingerprint, b = other.fingerprint
            guard a.rate == b.rate, !a.values.isEmpty, !b.values.isEmpty else { return false }
            guard Double(abs(a.values.count - b.values.count)) <= sameLengthShare * Double(max(a.values.count, b.values.count)) else { return false }
            let blockLags = a.maxLag / a.envelopeBlock + 1
            guard TakeFingerprint.bestCorrelation(envelope, other.envelope, maxLag: blockLags) >= envelopeCorrelation else { return false }
            return TakeFingerprint.correlationReaches(sameCorrelation, a.values, b.values, maxLag: a.maxLag)
        }
    }

    /// The RMS of each block of `block` values.
    static func envelope(_ values: [Int8], block: Int) -> [Double] {
        stride(from: 0, to: values.count, by: block).map { start in
            let part = values[start..<min(values.count, start + block)]
            return (part.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(part.count)).squareRoot()
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

    /// Whether the largest of `Σ a[i]·b[i+lag] / √(Σa²·Σb²)` over lags within `maxLag` is at least
    /// `threshold`, in whole numbers (the same sums, exactly, eight at a time), with less work than
    /// the full search and the same answer: each lag's sum is added 256 values at a time, the
    /// loudest stretches of `a` first, and a lag is given up as soon as what it has plus the most
    /// the rest could add (by Cauchy-Schwarz, the square root of the product of the energies not
    /// yet used) stays under the threshold. Two takes that are not one recording give up most lags
    /// after their loudest stretch or two.
    static func correlationReaches(_ threshold: Double, _ a: [Int8], _ b: [Int8], maxLag: Int) -> Bool {
        let chunk = 256
        func squares(_ values: UnsafeBufferPointer<Int8>, _ range: Range<Int>) -> Int64 {
            var sum: Int64 = 0
            for index in range { sum += Int64(values[index]) * Int64(values[index]) }
            return sum
        }
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let energyA = squares(a, 0..<a.count), energyB = squares(b, 0..<b.count)
                guard energyA > 0, energyB > 0 else { return false }
                let norm = (Double(energyA) * Double(energyB)).squareRoot()
                // A lag is given up only when its bound is short of the threshold by more than rounding.
                let giveUpUnder = threshold * norm * (1 - 1e-9)
                // `a`'s stretches, loudest first.
                let stretches = stride(from: 0, to: a.count, by: chunk).map { start in (start, squares(a, start..<min(a.count, start + chunk))) }
                    .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
                for lag in -maxLag...maxLag {
                    let first = max(0, -lag), last = min(a.count, b.count - lag)
                    guard first < last else { continue }
                    var sum: Int64 = 0, usedA: Int64 = 0, usedB: Int64 = 0
                    var givenUp = false
                    for stretch in stretches {
                        let start = max(first, stretch), end = min(last, stretch + chunk)
                        guard start < end else { continue }
                        // 3 · 127 · 127 · 256 < 2³¹: no stretch overflows.
                        let x = a.baseAddress! + start, y = b.baseAddress! + start + lag
                        var product: Int32 = 0, squaresA: Int32 = 0, squaresB: Int32 = 0
                        for index in 0..<(end - start) {
                            let p = Int32(x[index]), q = Int32(y[index])
                            product &+= p &* q
                            squaresA &+= p &* p
                            squaresB &+= q &* q
                        }
                        sum += Int64(product)
                        usedA += Int64(squaresA)
                        usedB += Int64(squaresB)
                        if Double(sum) + (Double(energyA - usedA) * Double(energyB - usedB)).squareRoot() < giveUpUnder {
                            givenUp = true
                            break
                        }
                    }
                    if !givenUp, Double(sum) / norm >= threshold { return true }
                }
                return false
            }
        }
    }

    /// Stored as its rate and the base64 of its bytes: about 5 KB a second of take in the memo.
    private enum CodingKeys: String, CodingKey { case rate, values }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rate = try container.decode(Int.self, forKey: .rate)
        guard (1...Self.maxRate).contains(rate), let data = Data(base64Encoded: try container.decode(String.self, forKey: .values)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a fingerprint"))
        }
        values = [Int8](unsafeUninitializedCapacity: data.count) { buffer, count in
            count = data.copyBytes(to: UnsafeMutableRawBufferPointer(buffer).bindMemory(to: UInt8.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rate, forKey: .rate)
        try container.encode(values.withUnsafeBytes { Data($0) }.base64EncodedString(), forKey: .values)
    }
}
