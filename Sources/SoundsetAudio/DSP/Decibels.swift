import Foundation

/// Conversions between decibels and linear amplitude.
public enum Decibels {
    /// 20·log10(amplitude); -inf for 0.
    public static func fromAmplitude(_ amplitude: Double) -> Double {
        amplitude > 0 ? 20 * log10(amplitude) : -.infinity
    }

    /// 10^(dB/20).
    public static func toAmplitude(_ decibels: Double) -> Double {
        pow(10, decibels / 20)
    }
}
