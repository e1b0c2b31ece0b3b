/// Rounds a dB figure to 2 decimals for the manifest.
package func rounded(_ value: Double) -> Double { value.isFinite ? (value * 100).rounded() / 100 : value }
