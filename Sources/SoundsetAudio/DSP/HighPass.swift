import Foundation

/// A second-order Butterworth high-pass filter (RBJ cookbook biquad), run forwards once.
///
/// The trimmer listens through it: room tone's rumble and mains hum live below 100 Hz and make
/// 10 ms levels swing by ±5 dB, while speech carries nothing there. Filtered, room tone holds within
/// about ±1.5 dB, so a threshold a few dB over the floor separates it from soft consonants.
public enum HighPass {
    /// Returns `samples` filtered with cut-off `frequency` Hz at `sampleRate`.
    public static func filter(_ samples: [Float], sampleRate: Int, frequency: Double = 100) -> [Float] {
        let omega = 2 * Double.pi * min(frequency, Double(sampleRate) * 0.45) / Double(sampleRate)
        // Q = 1/√2 (Butterworth), so alpha = sin(ω) / (2Q) = sin(ω) / √2.
        let alpha = sin(omega) / 2.0.squareRoot()
        let cosine = cos(omega)
        let a0 = 1 + alpha
        let b0 = (1 + cosine) / 2 / a0
        let b1 = -(1 + cosine) / a0
        let b2 = b0
        let a1 = -2 * cosine / a0
        let a2 = (1 - alpha) / a0
        var output = [Float](repeating: 0, count: samples.count)
        // Start as if the first sample had always been there (the filter's steady state for a constant
        // input is silence), so a take that starts off zero does not begin with a step response.
        let first = Double(samples.first ?? 0)
        var (x1, x2, y1, y2) = (first, first, 0.0, 0.0)
        for index in samples.indices {
            let x0 = Double(samples[index])
            let y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            output[index] = Float(y0)
            (x2, x1, y2, y1) = (x1, x0, y1, y0)
        }
        return output
    }
}
