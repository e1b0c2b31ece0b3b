import Foundation
import SoundsetAudio

/// A recording decoded, mixed to mono, trimmed, resampled and faded, with its loudness measured:
/// everything before the set's level is known.
public struct PreparedClip: Sendable {
    public var summary: ClipSummary
    /// The trimmed, faded clip at the output rate.
    public var samples: [Float]
    /// The true-peak envelope of `samples` (`Limiter.truePeakEnvelope`): found once, scaled by each gain tried.
    public var envelope: TruePeakEnvelope

    public init(summary: ClipSummary, samples: [Float], envelope: TruePeakEnvelope) {
        self.summary = summary
        self.samples = samples
        self.envelope = envelope
    }

    public var recording: Recording { summary.recording }
    public var measurement: LoudnessMeasurement { summary.measurement }

    /// This clip with `envelope` (the same clip's, refined).
    func with(_ envelope: TruePeakEnvelope) -> PreparedClip {
        var clip = self
        clip.envelope = envelope
        return clip
    }
}
