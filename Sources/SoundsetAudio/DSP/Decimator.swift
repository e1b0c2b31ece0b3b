import Foundation

/// Lowers a rate by a whole factor: a windowed-sinc low-pass (Blackman, 6 taps per unit of the
/// factor, cut at 0.9 of the new Nyquist frequency) evaluated only at the samples kept. Cheap (25
/// multiplies per sample kept at a factor of 4): for the report's previews, not for the set's own
/// clips, which libsamplerate resamples.
public enum Decimator {
    /// The factor that brings `rate` nearest `target` (at least 1).
    public static func factor(from rate: Int, toward target: Int) -> Int {
        max(1, Int((Double(rate) / Double(max(1, target))).rounded()))
    }

    /// `samples` at 1/`factor` of their rate.
    public static func decimate(_ samples: [Float], by factor: Int) -> [Float] {
        guard factor > 1, !samples.isEmpty else { return samples }
        let taps = lowPass(factor)
        let half = taps.count / 2
        let count = (samples.count + factor - 1) / factor
        return [Float](unsafeUninitializedCapacity: count) { output, initialized in
            samples.withUnsafeBufferPointer { input in
                taps.withUnsafeBufferPointer { taps in
                    for index in 0..<count {
                        let center = index * factor
                        var sum: Float = 0
                        let first = max(0, center - half), last = min(input.count - 1, center + half)
                        for position in first...last { sum += input[position] * taps[position - center + half] }
                        output[index] = sum
                    }
                }
            }
            initialized = count
        }
    }

    /// The filter for `factor`: 6 · factor + 1 taps, unity gain at 0 Hz.
    private static func lowPass(_ factor: Int) -> [Float] {
        let count = 6 * factor + 1
        let cutoff = 0.45 / Double(factor)  // cycles per input sample: 0.9 of the new Nyquist frequency
        let middle = Double(count - 1) / 2
        var taps = (0..<count).map { index -> Double in
            let m = Double(index) - middle
            let sinc = m == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * m) / (.pi * m)
            let window = 0.42 - 0.5 * cos(2 * .pi * Double(index) / Double(count - 1)) + 0.08 * cos(4 * .pi * Double(index) / Double(count - 1))
            return sinc * window
        }
        let sum = taps.reduce(0, +)
        taps = taps.map { $0 / sum }
        return taps.map(Float.init)
    }
}
