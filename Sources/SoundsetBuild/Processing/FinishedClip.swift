import Foundation
import SoundsetAudio

/// A clip brought to the set's level and limited, as 16-bit samples ready to encode.
public struct FinishedClip: Sendable {
    public var prepared: PreparedClip
    /// Gain applied before limiting, dB.
    public var gainDb: Double
    /// Largest limiter gain reduction, dB.
    public var limitingDb: Double
    /// Samples quantised to 16 bits.
    public var pcm: [Int16]
    /// For a clip the limiter left alone: its loudness and true peak, known without measuring, since
    /// both scale exactly with a constant gain (the K-weighting and the 4x interpolator are linear);
    /// 16-bit rounding moves them by under 0.001 dB. Nil when the limiter worked: then the written
    /// clip is measured.
    public var unlimitedMeasurement: LoudnessMeasurement?
}
