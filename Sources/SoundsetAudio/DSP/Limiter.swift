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
        let blocks = try (envelope ?? truePeakEnvelope(samples, sampleRate: sampleRate))
            .refined(samples, sampleRate: sampleRate, exactAbove: threshold(ceilingDb: ceilingDb, gain: gain))
        return apply(
            samples, gain: gain, highest: blocks.highest, envelopeValues: blocks.values(for: samples),
            sampleRate: sampleRate, ceilingDb: ceilingDb, lookaheadMs: lookaheadMs, releaseMs: releaseMs)
    }

    /// The envelope level above which the limiter works, for `ceilingDb` and `gain`: an envelope
    /// must be exact above it (`TruePeakEnvelope.exactAbove`).
    public static func threshold(ceilingDb: Double, gain: Float) -> Float {
        Float(Decibels.toAmplitude(ceilingDb)) / gain
    }

    /// `apply(_:gain:envelope:...)` for a caller that tries many gains on one clip: the envelope's
    /// highest point, and its value at every sample (`TruePeakEnvelope.values`, asked for only when
    /// the limiter has work to do, from an envelope exact above `threshold(ceilingDb:gain:)`).
    public static func apply(
        _ samples: [Float], gain: Float, highest: Float, envelopeValues: @autoclosure () -> [Float], sampleRate: Int,
        ceilingDb: Double, lookaheadMs: Double = 3, releaseMs: Double = 60
    ) -> LimiterResult {
        let ceiling = threshold(ceilingDb: ceilingDb, gain: gain)
        guard highest > ceiling else {
            return LimiterResult(samples: gain == 1 ? samples : samples.map { $0 * gain }, maxReductionDb: 0)
        }
        let envelope = envelopeValues()
        let count = samples.count
        let lookahead = max(1, Int((max(1, lookaheadMs) / 1000 * Double(sampleRate)).rounded()))
        // The gain curve runs over lookahead-1 virtual samples of unity gain, then the samples, so
        // that the moving average at the start also covers a real requirement. It is exactly 1 up to
        // `first`, lookahead-1 steps before the first sample over the ceiling.
        let offset = lookahead - 1
        guard let first = envelope.firstIndex(where: { $0 > ceiling }), let last = envelope.lastIndex(where: { $0 > ceiling }) else {
            return LimiterResult(samples: gain == 1 ? samples : samples.map { $0 * gain }, maxReductionDb: 0)
        }
        // Per step from `first`: the gain each sample needs, its sliding minimum over the look-ahead
        // (1 past the last requirement), then the release below.
        var held = [Float](repeating: 1, count: count + offset - first)
        var required = [Float](repeating: 1, count: last + lookahead - first)
        required.withUnsafeMutableBufferPointer { required in
            envelope.withUnsafeBufferPointer { envelope in
                for index in first...last where envelope[index] > ceiling { required[index + offset - first] = ceiling / envelope[index] }
            }
        }
        held.replaceSubrange(0..<required.count, with: slidingMinimum(required, window: lookahead))
        let release = Float(1 - exp(-1 / (releaseMs / 1000 * Double(sampleRate))))
        var lowest: Float = 1
        let output = [Float](unsafeUninitializedCapacity: count) { output, initialized in
            held.withUnsafeMutableBufferPointer { held in
                samples.withUnsafeBufferPointer { input in
                    // Unity gain before `first`.
                    for index in 0..<max(0, first - offset) { output[index] = input[index] * gain }
                    // One pass: the release holds each gain as it recovers, and a moving average as
                    // long as the look-ahead smooths it onto the samples.
                    // The sum of the last `lookahead` steps, all 1 so far.
                    var sum = Double(min(first, lookahead))
                    var previous: Float = 1
                    for step in 0..<held.count {
                        held[step] = min(held[step], previous + (1 - previous) * release)
                        previous = held[step]
                        sum += Double(held[step])
                        let index = first + step
                        if index >= lookahead { sum -= step >= lookahead ? Double(held[step - lookahead]) : 1 }
                        let sampleIndex = index - offset
                        guard sampleIndex >= 0 else { continue }
                        let reduction = Float(sum / Double(lookahead))
                        lowest = min(lowest, reduction)
                        output[sampleIndex] = input[sampleIndex] * (gain * reduction)
                    }
                }
            }
            initialized = count
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

    /// min(values[i ..< i + window]) for every i (van Herk / Gil-Werman: running minima forwards and
    /// backwards within blocks of `window`, then one lookup per position; O(n)).
    static func slidingMinimum(_ values: [Float], window: Int) -> [Float] {
        let count = values.count
        guard window > 1, count > 0 else { return values }
        var prefix = values
        var suffix = values
        var result = values
        values.withUnsafeBufferPointer { values in
            prefix.withUnsafeMutableBufferPointer { prefix in
                suffix.withUnsafeMutableBufferPointer { suffix in
                    for start in stride(from: 0, to: count, by: window) {
                        let end = min(count, start + window)
                        for index in (start + 1)..<max(start + 1, end) { prefix[index] = min(values[index], prefix[index - 1]) }
                        var index = end - 2
                        while index >= start {
                            suffix[index] = min(values[index], suffix[index + 1])
                            index -= 1
                        }
                    }
                    result.withUnsafeMutableBufferPointer { result in
                        var blockStart = 0
                        for index in 0..<count {
                            if index - blockStart == window { blockStart = index }
                            let end = min(count - 1, index + window - 1)
                            // Clipped at the array's end, the window can sit inside one block: the suffix covers it.
                            result[index] = end < blockStart + window ? suffix[index] : min(suffix[index], prefix[end])
                        }
                    }
                }
            }
        }
        return result
    }
}
