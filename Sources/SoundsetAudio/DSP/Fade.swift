import Foundation

/// Raised-cosine fades, so a clip starts and ends at exactly zero without a click.
public enum Fade {
    /// Fades the first and last `frames` samples in and out (half-Hann shape; the first and
    /// last sample become 0). Shorter clips get a fade of at most half their length; `frames` 0
    /// (`trim.fadeMs` 0) leaves the edges as they are.
    public static func applyEdges(_ samples: inout [Float], frames: Int) {
        guard frames > 0 else { return }
        let length = min(frames, samples.count / 2)
        guard length > 0 else {
            // One sample: faded in and out at once.
            for index in samples.indices { samples[index] = 0 }
            return
        }
        let last = samples.count - 1
        for index in 0..<length {
            let gain = Float(0.5 - 0.5 * cos(Double.pi * Double(index) / Double(length)))
            samples[index] *= gain
            samples[last - index] *= gain
        }
    }
}
