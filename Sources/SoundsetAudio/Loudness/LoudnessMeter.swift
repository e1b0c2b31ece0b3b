internal import CEBUR128
import Foundation

/// A failure reported by libebur128, with its error code.
public struct LoudnessError: Error, CustomStringConvertible {
    public var code: Int
    public var operation: String
    public var description: String { "loudness measurement failed in \(operation) (libebur128 error \(code))" }

    /// Throws unless `status`, what libebur128's `operation` returned, is `EBUR128_SUCCESS`.
    static func check(_ status: Int32, _ operation: String) throws {
        guard status == Int32(EBUR128_SUCCESS.rawValue) else { throw LoudnessError(code: Int(status), operation: operation) }
    }
}

/// What `LoudnessMeter.measure` found for one mono clip.
public struct LoudnessMeasurement: Sendable, Equatable, Codable {
    /// BS.1770 K-weighted loudness over the whole clip, ungated, in LUFS (-inf for digital silence).
    public var loudness: Double
    /// True peak in dBTP (4x oversampled at rates below 96 kHz), -inf for digital silence.
    public var truePeak: Double

    public init(loudness: Double, truePeak: Double) {
        self.loudness = loudness
        self.truePeak = truePeak
    }
}

/// An `ebur128_state` for one mono clip; one owner, destroyed on deinit.
///
/// Whole-clip loudness: BS.1770 integrated loudness gates 400 ms blocks and is undefined for most
/// single-word clips, so soundset measures the K-weighted energy over the whole clip, ungated, with
/// `ebur128_loudness_window`. libebur128 reads that window from a ring buffer that
/// `ebur128_set_max_window` would have to grow to the clip's length, and on Debian's 1.2.6 that call
/// costs time that grows faster than the window (measured: 401 ms 59 ms, 1 s 157 ms, 3 s 1.7 s). So
/// the clip is fed in blocks of exactly the default 400 ms window, the energy of each block read as it
/// completes, and the blocks' energies combined; the shorter remainder goes first, where a clip starts
/// with its fade-in, and at most its first millisecond's fraction is left out.
public final class LoudnessMeter {
    private let state: UnsafeMutablePointer<ebur128_state>
    private let sampleRate: Int

    /// libebur128's default window in mode M, ms.
    private static let blockMs = 400

    private let measuresTruePeak: Bool

    /// Creates a meter for mono audio at `sampleRate` (`ebur128_init` in momentary mode); the true
    /// peak, unless `truePeak` is false, comes from a `TruePeakScanner`.
    public init(sampleRate: Int, truePeak: Bool = true) throws {
        measuresTruePeak = truePeak
        guard sampleRate > 0, let state = ebur128_init(1, UInt(sampleRate), Int32(EBUR128_MODE_M.rawValue)) else {
            throw LoudnessError(code: -1, operation: "ebur128_init")
        }
        self.state = state
        self.sampleRate = sampleRate
    }

    deinit {
        var doomed: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&doomed)
    }

    /// Measures one whole mono clip: ungated loudness and true peak.
    /// A meter measures one clip; make a new one for the next.
    public func measure(_ samples: [Float]) throws -> LoudnessMeasurement {
        try measure(samples, envelopeBlock: nil).measurement
    }

    /// Blocks of the true-peak scan when no envelope is asked for.
    private static let scanBlock = 64

    /// Measures one whole mono clip and, with `envelopeBlock`, its true-peak envelope: the true peak
    /// of every block of (at most) `envelopeBlock` samples, `ebur128_prev_true_peak` after each block,
    /// exact where it can matter (see `TruePeakEnvelope`). Blocks do not straddle the 400 ms windows:
    /// both start after the remainder.
    public func measure(_ samples: [Float], envelopeBlock: Int?) throws -> (measurement: LoudnessMeasurement, envelope: TruePeakEnvelope) {
        let block = sampleRate * Self.blockMs / 1000
        var energy = 0.0
        var blockEnds: [UInt32] = []
        let size = max(1, envelopeBlock ?? Self.scanBlock)
        if measuresTruePeak { blockEnds.reserveCapacity(samples.count / size + samples.count / block + 2) }
        func feed(_ range: Range<Int>) throws {
            try add(samples, range)
            guard measuresTruePeak else { return }
            for start in stride(from: range.lowerBound, to: range.upperBound, by: size) {
                blockEnds.append(UInt32(min(range.upperBound, start + size)))
            }
        }
        var start = 0
        let remainder = samples.count % block
        if remainder > 0 {
            let windowMs = remainder * 1000 / sampleRate
            try feed(0..<remainder)
            if windowMs > 0 { energy += try windowEnergy(ms: windowMs) * Double(windowMs * sampleRate / 1000) }
            start = remainder
        }
        while start < samples.count {
            try feed(start..<start + block)
            energy += try windowEnergy(ms: Self.blockMs) * Double(block)
            start += block
        }
        let loudness = samples.isEmpty || energy <= 0 ? -Double.infinity : -0.691 + 10 * log10(energy / Double(samples.count))
        guard measuresTruePeak else {
            return (LoudnessMeasurement(loudness: loudness, truePeak: .nan), TruePeakEnvelope(blockEnds: [], blockPeaks: []))
        }
        let envelope = try TruePeakEnvelope.measure(samples, sampleRate: sampleRate, blockEnds: blockEnds)
        let measurement = LoudnessMeasurement(loudness: loudness, truePeak: Decibels.fromAmplitude(Double(envelope.highest)))
        return (measurement, envelopeBlock == nil ? TruePeakEnvelope(blockEnds: [], blockPeaks: []) : envelope)
    }

    /// Measures one whole mono clip at `sampleRate`; without `truePeak`, the true peak is NaN.
    public static func measure(_ samples: [Float], sampleRate: Int, truePeak: Bool = true) throws -> LoudnessMeasurement {
        try LoudnessMeter(sampleRate: sampleRate, truePeak: truePeak).measure(samples)
    }

    private func add(_ samples: [Float], _ range: Range<Int>) throws {
        let status = samples.withUnsafeBufferPointer { ebur128_add_frames_float(state, $0.baseAddress! + range.lowerBound, range.count) }
        try LoudnessError.check(status, "ebur128_add_frames_float")
    }

    /// Mean K-weighted energy of the last `ms` milliseconds (`ebur128_loudness_window`, inverted).
    private func windowEnergy(ms: Int) throws -> Double {
        var loudness = 0.0
        try LoudnessError.check(ebur128_loudness_window(state, UInt(ms), &loudness), "ebur128_loudness_window")
        return loudness.isFinite ? pow(10, (loudness + 0.691) / 10) : 0
    }
}
