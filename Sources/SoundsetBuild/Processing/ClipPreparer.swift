import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetSetFolder

/// Step 1-3 and the first measurement of step 4 for one recording, and what the findings and the
/// report need to know of it (`ClipAnalysis`), made while its audio is at hand.
public enum ClipPreparer {
    /// Samples at or above this magnitude count as clipped in the source.
    static let clipLevel: Float = 0.999

    /// A recording decoded and trimmed: what preparing it and comparing it with the others start from.
    package struct DecodedTake {
        /// The header as decoded.
        var info: SoundFileInfo
        /// The take in mono, its DC offset taken out and its isolated clicks removed.
        var mono: [Float]
        /// Where the trimmer found the word.
        var region: TrimRegion
        /// The take's own notes (clipping, clicks removed, noise, speech at the edges, a low rate).
        var analysis: ClipAnalysis

        /// The word, trimmed, at the set's rate: the take's one resample (libsamplerate).
        /// - Throws: `BuildProblem` naming the recording when libsamplerate fails.
        package func resampledWord(_ display: String, configuration: Configuration) throws(BuildProblem) -> [Float] {
            let kept = Array(mono[region.keepStart..<region.keepEnd])
            do {
                let samples = try Resampler.resample(
                    kept, from: info.sampleRate, to: configuration.sampleRate, quality: Resampler.quality(forTargetRate: configuration.sampleRate))
                if info.sampleRate != configuration.sampleRate { BuildWork.count(\.takesResampled) }
                return samples
            } catch {
                throw BuildProblem(display, ForwardedProblem.error(error))
            }
        }
    }

    /// Decodes `bytes` (the recording `display`), mixes it to mono, removes its isolated clicks and
    /// finds the word: the part of preparing that `soundset check` shares, to tell which takes are
    /// the same recording.
    /// - Throws: `BuildProblem` naming the recording.
    package static func decode(_ display: String, bytes: Data, configuration: Configuration) throws(BuildProblem) -> DecodedTake {
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
            throw BuildProblem(display, CatalogProblem.notAudio(clause: error.reason.asClause))
        } catch {
            throw BuildProblem(display, CatalogProblem.notAudio(clause: "\(error)"))
        }
        for sample in interleaved where !sample.isFinite {
            throw BuildProblem(display, StageProblem.nonFinite)
        }
        let channels = max(1, info.channels)
        var mono = Mono.mixDown(interleaved, channels: channels)
        // The recording as it is drawn: before its clicks and its DC offset are taken out.
        let shape = ClipEnvelope(mono, rate: info.sampleRate)
        let sourceRate = info.sampleRate
        // A click is not speech: removed before the trimmer looks (and before the offset is
        // measured), it neither counts as sound nor reaches the limiter.
        let clicks = ClickRemover.remove(&mono, sampleRate: sourceRate)
        Mono.removeDC(&mono)
        // Full-scale samples of the voice, not of a click that was removed.
        var clipped = 0
        var next = 0
        for (index, sample) in interleaved.enumerated() where abs(sample) >= clipLevel {
            let frame = index / channels
            while next < clicks.count && clicks[next].end <= frame { next += 1 }
            if next < clicks.count && clicks[next].start <= frame { continue }
            clipped += 1
        }
        let region: TrimRegion
        do { region = try Trimmer.findRegion(mono, sampleRate: sourceRate, settings: configuration.trim) } catch {
            throw BuildProblem(display, ForwardedProblem.error(error))
        }
        let removed = clicks.filter { $0.end > region.keepStart && $0.start < region.keepEnd }
        let analysis = ClipAnalysis.of(
            clipped: clipped, clicksAt: removed.map { Double($0.start) / Double(sourceRate) }, envelope: shape, sourceFrames: mono.count,
            sourceRate: sourceRate, region: region, outputRate: configuration.sampleRate, padMs: configuration.trim.padMs,
            maxGapMs: configuration.trim.maxGapMs)
        BuildWork.count(\.takesDecoded)
        return DecodedTake(info: info, mono: mono, region: region, analysis: analysis)
    }

    /// The word at the set's rate as the set speaks it: faster at the same pitch (the tempo), its
    /// edges faded. What a clip's loudness is measured on, before its gain.
    /// - Throws: `BuildProblem` naming the recording when the tempo cannot be applied.
    package static func spokenAtTempo(_ word: [Float], _ display: String, configuration: Configuration) throws(BuildProblem) -> [Float] {
        var samples: [Float]
        do { samples = try TimeStretcher.stretch(word, sampleRate: configuration.sampleRate, tempo: configuration.tempo) } catch {
            throw BuildProblem(display, ForwardedProblem.error(error))
        }
        Fade.applyEdges(&samples, frames: Int(configuration.trim.fadeMs / 1000 * Double(configuration.sampleRate)))
        return samples
    }

    /// Prepares `recording` from `bytes`, its file's bytes as read (and hashed to `sourceSHA256`):
    /// what is decoded is what was hashed, whatever happens to the file meanwhile.
    /// - Throws: `BuildProblem` naming the recording.
    public static func prepare(
        _ recording: Recording, bytes: Data, sourceSHA256: String, key: String, configuration: Configuration
    ) throws(BuildProblem) -> PreparedClip {
        let display = recording.displayPath
        let take = try decode(display, bytes: bytes, configuration: configuration)
        let region = take.region
        var samples = try take.resampledWord(display, configuration: configuration)
        // The fingerprint from the samples the set holds, before the tempo changes them: nothing
        // is resampled twice.
        var analysis = take.analysis
        analysis.fingerprint = TakeFingerprint(samples, sampleRate: configuration.sampleRate)
        samples = try spokenAtTempo(samples, display, configuration: configuration)
        let measurement: LoudnessMeasurement
        let envelope: TruePeakEnvelope
        do {
            // One pass gives the loudness, the true peak and the limiter's true-peak envelope.
            (measurement, envelope) = try LoudnessMeter(sampleRate: configuration.sampleRate).measure(samples, envelopeBlock: Limiter.envelopeBlock)
        } catch {
            throw BuildProblem(display, ForwardedProblem.error(error))
        }
        var decoded = recording
        decoded.info = take.info
        let summary = ClipSummary(
            recording: decoded, sourceSHA256: sourceSHA256, key: key, region: region, measurement: measurement, analysis: analysis,
            sampleCount: samples.count)
        return PreparedClip(summary: summary, samples: samples, envelope: envelope)
    }
}
