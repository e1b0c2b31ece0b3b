import Foundation

/// What the limiter did to one clip.
public struct LimiterResult: Sendable {
    /// The limited samples.
    public var samples: [Float]
    /// The largest gain reduction applied, in dB (0 when the clip stayed under the ceiling).
    public var maxReductionDb: Double
}

/// A look-ahead peak limiter that reacts to true (inter-sample) peaks and never overshoots them.
///
/// Offline, so no delay is needed: for every sample the gain that keeps its true-peak neighbourhood
/// under the ceiling is known in advance. The gain curve is a sliding minimum of those gains over the
/// look-ahead, held through an exponential release, then smoothed by a moving average as long as the
/// look-ahead. Every window of that average contains the sample's own requirement, so the smoothed
/// gain is never above it (no overshoot), while attack is a ramp of the look-ahead's length and
/// release is smooth (no clicks or pumping on short words).
public enum Limiter {
    /// Applies `gain` to mono `samples` at `sampleRate` and limits the result so its true peak stays at
    /// or under `ceilingDb` dBTP.
    /// - Parameters:
    ///   - envelope: `samples`' true-peak envelope, when the caller has it: true peaks scale with gain,
    ///     so one envelope serves every gain tried. Measured here when nil.
    ///   - lookaheadMs: attack ramp and look-ahead, at least 1 ms.
    ///   - releaseMs: time constant of the release.
    /// - Throws: `LoudnessError` if libebur128 fails while finding the envelope.
    public static func apply(
        _ samples: [Float], gain: Float = 1, envelope: TruePeakEnvelope? = nil, sampleRate: Int, ceilingDb: Double,
        lookaheadMs: Double = 3, releaseMs: Double = 60
    ) throws -> LimiterResult {
        let ceiling = Float(Decibels.toAmplitude(ceilingDb)) / gain
        let blocks = try envelope ?? truePeakEnvelope(samples, sampleRate: sampleRate)
        guard blocks.highest(of: samples) > ceiling else {
            return LimiterResult(samples: gain == 1 ? samples : samples.map { $0 * gain }, maxReductionDb: 0)
        }
        let envelope = blocks.values(for: samples)
        let lookahead = max(1, Int((max(1, lookaheadMs) / 1000 * Double(sampleRate)).rounded()))
        // Requirement per sample, preceded by lookahead-1 virtual samples of unity gain so that the
        // moving average at the start also covers a real requirement.
        var required = [Float](repeating: 1, count: lookahead - 1 + samples.count)
        for index in envelope.indices where envelope[index] > ceiling {
            required[lookahead - 1 + index] = ceiling / envelope[index]
        }
        var held = slidingMinimum(required, window: lookahead)
        let release = Float(1 - exp(-1 / (releaseMs / 1000 * Double(sampleRate))))
        for index in held.indices.dropFirst() {
            held[index] = min(held[index], held[index - 1] + (1 - held[index - 1]) * release)
        }
        var output = samples
        var sum: Double = 0
        var lowest: Float = 1
        for index in held.indices {
            sum += Double(held[index])
            if index >= lookahead { sum -= Double(held[index - lookahead]) }
            let sampleIndex = index - (lookahead - 1)
            guard sampleIndex >= 0 else { continue }
            let reduction = Float(sum / Double(lookahead))
            lowest = min(lowest, reduction)
            output[sampleIndex] *= gain * reduction
        }
        return LimiterResult(samples: output, maxReductionDb: -Decibels.fromAmplitude(Double(lowest)))
    }

    /// Samples per block of the true-peak envelope: 32 (0.73 ms at 44.1 kHz), well inside the look-ahead.
    public static let envelopeBlock = 32

    /// The true peak (libebur128's 4x oversampling) of every sample's neighbourhood: the peak a DAC
    /// or a true-peak meter will see near it, never less. See `TruePeakEnvelope`.
    public static func truePeakEnvelope(_ samples: [Float], sampleRate: Int) throws -> TruePeakEnvelope {
        try LoudnessMeter(sampleRate: sampleRate).measure(samples, envelopeBlock: envelopeBlock).envelope
    }

    /// min(values[i ..< i + window]) for every i (van Herk / Gil-Werman: three passes, O(n)).
    static func slidingMinimum(_ values: [Float], window: Int) -> [Float] {
        let count = values.count
        guard window > 1, count > 0 else { return values }
        var prefix = values
        var suffix = values
        for index in 1..<count where index % window != 0 { prefix[index] = min(prefix[index], prefix[index - 1]) }
        for index in stride(from: count - 2, through: 0, by: -1) where (index + 1) % window != 0 {
            suffix[index] = min(suffix[index], suffix[index + 1])
        }
        var result = values
        for index in 0..<count {
            let end = min(count - 1, index + window - 1)
            // Clipped at the array's end, the window can sit inside one block: the suffix covers it.
            result[index] = end / window == index / window ? suffix[index] : min(suffix[index], prefix[end])
        }
        return result
    }
}
