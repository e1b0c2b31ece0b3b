import Foundation
import SoundsetRuntime

/// How far under the true-peak ceiling a clip must be limited so that writing it in an encoding
/// cannot push its true peak over: the encoding moves each sample by at most its step near the
/// ceiling, and the true peak of that error is at most the true-peak interpolator's gain times it
/// (libebur128's, `InterpolatorBound`), so true peak after encoding ≤ true peak before + gain × step.
public enum QuantizationHeadroom {
    /// The least headroom, dB, whatever the encoding: 16-bit rounding needs far less (0.0006 dB).
    public static let least = 0.05

    /// The headroom, dB, under `ceilingDb` for clips at `sampleRate` written in `encoding`.
    public static func decibels(for encoding: Encoding, ceilingDb: Double, sampleRate: Int) -> Double {
        let ceiling = Decibels.toAmplitude(ceilingDb)
        let gain = Double(InterpolatorBound.at(sampleRate)?.gain ?? 2)
        let error = gain * largestError(of: encoding, below: ceiling)
        guard error < ceiling else { return 20 }
        return max(least, -Decibels.fromAmplitude(1 - error / ceiling))
    }

    /// The most `encoding` can move a sample whose magnitude is at most `amplitude` (1 = full scale),
    /// counted as a whole step: libsndfile converts 16-bit samples to µ-law and a-law by table.
    /// µ-law (G.711) and a-law both step by 1/32 of full scale in their top segment, from 1/2 of
    /// full scale up, and by half as much in each segment below, down to their finest steps.
    static func largestError(of encoding: Encoding, below amplitude: Double) -> Double {
        let sixteenBit = 1.0 / 32768
        switch encoding {
        case .pcm16: return sixteenBit / 2
        case .ulaw, .alaw:
            var step = 1.0 / 32
            var segmentFloor = 0.5
            while amplitude < segmentFloor && step > 8 * sixteenBit {
                step /= 2
                segmentFloor /= 2
            }
            return step + sixteenBit
        }
    }
}
