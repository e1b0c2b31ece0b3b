import Foundation

/// Deterministic test signals as plain sample arrays.
public enum Signals {
    /// A sine of `frequency` Hz with peak amplitude `amplitudeDb` dBFS.
    public static func tone(_ frequency: Double, seconds: Double, rate: Int, amplitudeDb: Double = -12) -> [Float] {
        let amplitude = pow(10, amplitudeDb / 20)
        return (0..<Int(seconds * Double(rate))).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
    }

    /// White noise with RMS level `rmsDb` dBFS, the same for the same seed.
    public static func noise(seconds: Double, rate: Int, rmsDb: Double, seed: UInt64 = 1) -> [Float] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        let scale = pow(10, rmsDb / 20) * 3.0.squareRoot()  // uniform in [-a, a] has RMS a/√3
        return (0..<Int(seconds * Double(rate))).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let unit = Double(state >> 11) / Double(1 << 53) * 2 - 1
            return Float(unit * scale)
        }
    }

    /// Digital silence.
    public static func silence(seconds: Double, rate: Int) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * Double(rate)))
    }

    /// `a + b` sample by sample; the shorter is padded with zeros.
    public static func mix(_ a: [Float], _ b: [Float]) -> [Float] {
        (0..<max(a.count, b.count)).map { (a.indices.contains($0) ? a[$0] : 0) + (b.indices.contains($0) ? b[$0] : 0) }
    }

    /// A speech-like word: a harmonic vowel under a rise-and-fall envelope at `levelDb` dBFS RMS, with
    /// a 2 ms plosive-like burst that puts its sample peak `crest` dB above its RMS when that is above
    /// the vowel's own crest (about 10 dB).
    public static func word(seconds: Double, rate: Int, levelDb: Double, crest: Double = 10, seed: UInt64 = 7) -> [Float] {
        let count = Int(seconds * Double(rate))
        let pitch = 120 + Double(seed % 5) * 20
        var samples = (0..<count).map { index -> Float in
            let t = Double(index) / Double(rate)
            let envelope = sin(.pi * Double(index) / Double(max(1, count - 1)))
            var value = 0.0
            for harmonic in 1...8 { value += sin(2 * .pi * pitch * Double(harmonic) * t) / Double(harmonic) }
            return Float(envelope * value)
        }
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, count))).squareRoot()
        samples = samples.map { $0 / Float(max(rms, 1e-12)) }
        let wantedPeak = Float(pow(10, crest / 20))
        if let peak = samples.map(abs).max(), wantedPeak > peak {
            let burst = noise(seconds: 0.002, rate: rate, rmsDb: 0, seed: seed)
            let loudest = burst.map(abs).max() ?? 1
            for (offset, value) in burst.enumerated() where count / 3 + offset < count {
                samples[count / 3 + offset] = value / loudest * wantedPeak
            }
        }
        let gain = Float(pow(10, levelDb / 20))
        return samples.map { $0 * gain }
    }
}
