import Foundation
import SoundsetAudio

/// A recording decoded, mixed to mono, trimmed, resampled and faded, with its loudness measured:
/// everything before the set's level is known.
public struct PreparedClip: Sendable {
    public var recording: Recording
    /// sha256 of the recording's bytes.
    public var sourceSHA256: String
    /// Where the word was found, in source frames.
    public var region: TrimRegion
    /// The trimmed, faded clip at the output rate.
    public var samples: [Float]
    /// Whole-clip loudness and true peak before any gain.
    public var measurement: LoudnessMeasurement
    /// The true-peak envelope of `samples` (`Limiter.truePeakEnvelope`): found once, scaled by each gain tried.
    public var envelope: TruePeakEnvelope
    /// Things a designer should know that do not stop the build.
    public var warnings: [BuildProblem]
    /// Frames in `samples`, also when the samples are not loaded.
    public var sampleCount: Int

    /// Read from the cache without its samples: enough to decide the set's level; the samples are
    /// read (or made again) only if the clip has to be finished.
    public var isHollow: Bool { samples.count != sampleCount }

    public init(
        recording: Recording, sourceSHA256: String, region: TrimRegion, samples: [Float], measurement: LoudnessMeasurement,
        envelope: TruePeakEnvelope, warnings: [BuildProblem], sampleCount: Int? = nil
    ) {
        self.recording = recording
        self.sourceSHA256 = sourceSHA256
        self.region = region
        self.samples = samples
        self.measurement = measurement
        self.envelope = envelope
        self.warnings = warnings
        self.sampleCount = sampleCount ?? samples.count
    }

    /// This clip with `envelope` (the same clip's, refined).
    func with(_ envelope: TruePeakEnvelope) -> PreparedClip {
        var clip = self
        clip.envelope = envelope
        return clip
    }

    /// True peak above loudness, dB: how much headroom the clip needs above its level.
    public var peakToLoudness: Double { measurement.truePeak - measurement.loudness }
}

/// Step 1-3 and the first measurement of step 4 for one recording.
public enum ClipPreparer {
    /// Samples at or above this magnitude count as clipped in the source.
    static let clipLevel: Float = 0.999

    /// Decodes and prepares `recording` (whose bytes hash to `sourceSHA256`) for `configuration`.
    /// - Throws: `BuildProblem` naming the recording.
    public static func prepare(_ recording: Recording, sourceSHA256: String, configuration: Configuration) throws(BuildProblem) -> PreparedClip {
        let display = recording.displayPath
        let interleaved: [Float]
        do {
            interleaved = try SoundFile.open(reading: recording.url.path).readAll()
        } catch let error as SoundFileError {
            throw BuildProblem(display, "cannot be read as audio: \(error.reason.asClause)")
        } catch {
            throw BuildProblem(display, "cannot be read (check its permissions)")
        }
        // One pass, without branches (so on vector instructions): NaN and infinity have every
        // exponent bit set, which makes their magnitude's bits the largest.
        var clipped = 0
        var nonFinite: UInt32 = 0
        interleaved.withUnsafeBufferPointer { samples in
            for sample in samples {
                let magnitude = abs(sample)
                nonFinite |= magnitude.bitPattern >= Float.infinity.bitPattern ? 1 : 0
                clipped &+= magnitude >= clipLevel ? 1 : 0
            }
        }
        if nonFinite != 0 {
            throw BuildProblem(display, "holds NaN or infinite samples (re-export it as PCM)")
        }
        var warnings: [BuildProblem] = []
        if clipped > 0 {
            warnings.append(BuildProblem(display, "\(clipped) samples are clipped at full scale (record it again at a lower level)"))
        }
        var mono = Mono.mixDown(interleaved, channels: recording.info.channels)
        Mono.removeDC(&mono)
        let sourceRate = recording.info.sampleRate
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
            (measurement, envelope) = try LoudnessMeter(sampleRate: configuration.sampleRate)
                .measure(samples, envelopeBlock: Limiter.envelopeBlock)
        } catch {
            throw BuildProblem(display, "\(error)")
        }
        return PreparedClip(
            recording: recording, sourceSHA256: sourceSHA256, region: region, samples: samples,
            measurement: measurement, envelope: envelope, warnings: warnings)
    }
}
