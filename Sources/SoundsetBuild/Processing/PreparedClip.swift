import Foundation
import SoundsetAudio

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
    /// Things a designer should know that do not stop the build.
    public var warnings: [BuildProblem]
    /// Frames of the prepared clip at the output rate.
    public var sampleCount: Int

    /// True peak above loudness, dB: how much headroom the clip needs above its level.
    public var peakToLoudness: Double { measurement.truePeak - measurement.loudness }

    /// The clip's name.
    public var name: String { recording.name }
}

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

/// Step 1-3 and the first measurement of step 4 for one recording.
public enum ClipPreparer {
    /// Samples at or above this magnitude count as clipped in the source.
    static let clipLevel: Float = 0.999

    /// Prepares `recording` from `bytes`, its file's bytes as read (and hashed to `sourceSHA256`):
    /// what is decoded is what was hashed, whatever happens to the file meanwhile.
    /// - Throws: `BuildProblem` naming the recording.
    public static func prepare(
        _ recording: Recording, bytes: Data, sourceSHA256: String, key: String, configuration: Configuration
    ) throws(BuildProblem) -> PreparedClip {
        let display = recording.displayPath
        let file: SoundFile
        let interleaved: [Float]
        do {
            file = try SoundFile.open(bytes: bytes, path: display)
            // The file may have been replaced since the catalog read its header: judge what was read.
            if let problem = AssetCatalog.headerProblem(file.info) { throw BuildProblem(display, problem) }
            interleaved = try file.readAll()
        } catch let problem as BuildProblem {
            throw problem
        } catch let error as SoundFileError {
            throw BuildProblem(display, "cannot be read as audio: \(error.reason.asClause)")
        } catch {
            throw BuildProblem(display, "cannot be read as audio: \(error)")
        }
        var clipped = 0
        for sample in interleaved where !sample.isFinite || abs(sample) >= clipLevel {
            guard sample.isFinite else { throw BuildProblem(display, "holds NaN or infinite samples (re-export it as PCM)") }
            clipped += 1
        }
        var warnings: [BuildProblem] = []
        if clipped > 0 {
            warnings.append(BuildProblem(display, "\(clipped) samples are clipped at full scale (record it again at a lower level)"))
        }
        var mono = Mono.mixDown(interleaved, channels: file.info.channels)
        Mono.removeDC(&mono)
        let sourceRate = file.info.sampleRate
        let region: TrimRegion
        do { region = try Trimmer.findRegion(mono, sampleRate: sourceRate, settings: configuration.trim) } catch {
            throw BuildProblem(display, "\(error)")
        }
        let kept = Array(mono[region.keepStart..<region.keepEnd])
        var samples: [Float]
        do {
            samples = try Resampler.resample(
                kept, from: sourceRate, to: configuration.sampleRate, quality: Resampler.quality(forTargetRate: configuration.sampleRate))
        } catch {
            throw BuildProblem(display, "\(error)")
        }
        Fade.applyEdges(&samples, frames: Int(configuration.trim.fadeMs / 1000 * Double(configuration.sampleRate)))
        let measurement: LoudnessMeasurement
        let envelope: TruePeakEnvelope
        do {
            // One pass gives the loudness, the true peak and the limiter's true-peak envelope.
            (measurement, envelope) = try LoudnessMeter(sampleRate: configuration.sampleRate).measure(samples, envelopeBlock: Limiter.envelopeBlock)
        } catch {
            throw BuildProblem(display, "\(error)")
        }
        var decoded = recording
        decoded.info = file.info
        let summary = ClipSummary(
            recording: decoded, sourceSHA256: sourceSHA256, key: key, region: region, measurement: measurement, warnings: warnings,
            sampleCount: samples.count)
        return PreparedClip(summary: summary, samples: samples, envelope: envelope)
    }
}
