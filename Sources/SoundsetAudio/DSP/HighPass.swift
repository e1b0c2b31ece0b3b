import Foundation

/// A second-order Butterworth high-pass filter (RBJ cookbook biquad), one sample at a time.
///
/// The trimmer listens through it: room tone's rumble and mains hum live below 100 Hz and make
/// 10 ms levels swing by ±5 dB, while speech carries nothing there. Filtered, room tone holds within
/// about ±1.5 dB, so a threshold a few dB over the floor separates it from soft consonants.
public struct HighPass {
    private let b0: Double, b1: Double, a1: Double, a2: Double
    private var x1: Double, x2: Double, y1 = 0.0, y2 = 0.0

    /// A filter with cut-off `frequency` Hz at `sampleRate`, started as if `first` had always been
    /// its input (the steady state for a constant input is silence), so a take that starts off zero
    /// does not begin with a step response.
    public init(sampleRate: Int, frequency: Double = 100, primedWith first: Float) {
        let omega = 2 * Double.pi * min(frequency, Double(sampleRate) * 0.45) / Double(sampleRate)
        // Q = 1/√2 (Butterworth), so alpha = sin(ω) / (2Q) = sin(ω) / √2.
        let alpha = sin(omega) / 2.0.squareRoot()
        let cosine = cos(omega)
        let a0 = 1 + alpha
        b0 = (1 + cosine) / 2 / a0
        b1 = -(1 + cosine) / a0
        a1 = -2 * cosine / a0
        a2 = (1 - alpha) / a0
        x1 = Double(first)
        x2 = Double(first)
    }

    /// Filters the next input sample (b2 = b0 for a high-pass).
    @inline(__always)
    public mutating func callAsFunction(_ sample: Float) -> Double {
        let x0 = Double(sample)
        let y0 = b0 * (x0 + x2) + b1 * x1 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x0, y1, y0)
        return y0
    }
}
