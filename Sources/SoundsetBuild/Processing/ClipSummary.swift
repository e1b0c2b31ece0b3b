import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime

/// What preparing a recording found, without its samples: enough to decide the set's level and to
/// write the manifest. The build's memo keeps it small; the samples come with `PreparedClip`.
public struct ClipSummary: Sendable {
    public var recording: Recording
    /// sha256 of the recording's bytes: the bytes that were decoded.
    public var sourceSHA256: String
    /// The key of the clip's facts in the build's memo (`ClipKey`).
    public var key: String
    /// Where the word was found, in source frames.
    public var region: TrimRegion
    /// Whole-clip loudness and true peak before any gain.
    public var measurement: LoudnessMeasurement
    /// What preparing found out about the recording: its notes and its shape.
    public var analysis: ClipAnalysis
    /// Frames of the prepared clip at the output rate.
    public var sampleCount: Int

    /// True peak above loudness, dB: how much headroom the clip needs above its level.
    public var peakToLoudness: Double { measurement.truePeak - measurement.loudness }

    /// The clip's name.
    public var name: String { recording.name }

    /// Where the word's sound lies in a clip file of `frames` frames: the trimmer's sound region,
    /// scaled from the source frames kept to the prepared samples (resampled, and shortened by the
    /// tempo), so the pads and fades lie outside it.
    public func speech(inFileOf frames: Int) -> Manifest.Speech {
        let kept = max(1, region.keepEnd - region.keepStart)
        let scale = Double(sampleCount) / Double(kept)
        let start = min(max(0, Int((Double(region.soundStart - region.keepStart) * scale).rounded())), max(0, frames - 1))
        let end = min(max(start + 1, Int((Double(region.soundEnd - region.keepStart) * scale).rounded())), frames)
        return Manifest.Speech(start: start, end: end)
    }
}

extension ClipFacts {
    /// The facts the prepare stage found of a clip.
    init(_ summary: ClipSummary) {
        self.init(
            name: summary.name, sourceFile: summary.recording.fileName, sourceRate: summary.analysis.sourceRate,
            sourceFrames: summary.analysis.sourceFrames, region: summary.region, loudness: summary.measurement.loudness,
            notes: summary.analysis.notes, fingerprint: summary.analysis.fingerprint)
    }
}
