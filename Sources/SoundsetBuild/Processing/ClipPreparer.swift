import Foundation
import SoundsetAudio

/// Step 1-3 and the first measurement of step 4 for one recording, and what the findings and the
/// report need to know of it (`ClipAnalysis`), made while its audio is at hand.
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
        var info: SoundFileInfo
        var interleaved: [Float] = []
        do {
            file = try SoundFile.open(bytes: bytes, path: display)
            info = file.info
            // The file may have been replaced since the catalog read its header: judge what was read.
            // One whose header does not give its length is judged once decoded (no further than the limit).
            if info.lengthUnknown {
                interleaved = try file.readAll(maxFrames: Int(AssetCatalog.maxSeconds * Double(info.sampleRate)))
                info.frames = interleaved.count / max(1, info.channels)
            }
            if let problem = AssetCatalog.headerProblem(info) { throw BuildProblem(display, problem) }
            if !info.lengthUnknown { interleaved = try file.readAll() }
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
        var mono = Mono.mixDown(interleaved, channels: info.channels)
        // The recording as it is drawn: before its DC offset is taken out.
        let shape = ClipEnvelope(mono, rate: file.info.sampleRate)
        Mono.removeDC(&mono)
        let sourceRate = info.sampleRate
        let region: TrimRegion
        do { region = try Trimmer.findRegion(mono, sampleRate: sourceRate, settings: configuration.trim) } catch {
            throw BuildProblem(display, "\(error)")
        }
        let analysis = ClipAnalysis.of(
            clipped: clipped, envelope: shape, sourceFrames: mono.count, sourceRate: sourceRate, region: region, outputRate: configuration.sampleRate,
            padMs: configuration.trim.padMs)
        let kept = Array(mono[region.keepStart..<region.keepEnd])
        var samples: [Float]
        do {
            samples = try Resampler.resample(
                kept, from: sourceRate, to: configuration.sampleRate, quality: Resampler.quality(forTargetRate: configuration.sampleRate))
        } catch {
            throw BuildProblem(display, "\(error)")
        }
        // Faster speech, at the same pitch, before the loudness is measured.
        do { samples = try TimeStretcher.stretch(samples, sampleRate: configuration.sampleRate, tempo: configuration.tempo) } catch {
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
        decoded.info = info
        let summary = ClipSummary(
            recording: decoded, sourceSHA256: sourceSHA256, key: key, region: region, measurement: measurement, analysis: analysis,
            sampleCount: samples.count)
        return PreparedClip(summary: summary, samples: samples, envelope: envelope)
    }
}
