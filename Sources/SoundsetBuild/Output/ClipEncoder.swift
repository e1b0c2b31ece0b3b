import Foundation
import SoundsetAudio
import SoundsetRuntime

/// A clip's file as the set will hold it: its bytes, and its figures read back from them.
struct EncodedClip: Sendable {
    var clip: FinishedClip
    var bytes: Data
    var figures: ClipFigures
    /// Set when the encoding left the true peak over the ceiling even after finishing it lower.
    var warning: BuildProblem?
}

/// Step 5 for one clip: encode it in the set's container and encoding, and read back what the bytes
/// hold: frames from their header, loudness and true peak from the samples they decode to.
enum ClipEncoder {
    /// The limiter aims this far under the ceiling, dB, so quantisation cannot push the file over it.
    static let ceilingMargin = 0.05
    /// µ-law and a-law quantise coarsely near full scale: a clip the encoding pushes over the
    /// ceiling is finished again under a lower one, by at most this much in all.
    static let maxExtraMargin = 3.0

    static func encode(_ finished: FinishedClip, level: Double, configuration: Configuration, displayPath: String) throws(BuildProblem) -> EncodedClip {
        let ceiling = configuration.loudness.truePeak
        // The level search saw the clip as first finished; a clip finished again below keeps that.
        let searchLimitingDb = finished.limitingDb
        var clip = finished
        var margin = ceilingMargin
        while true {
            let bytes: Data
            let info: SoundFileInfo
            let measurement: LoudnessMeasurement
            do {
                bytes = try SoundFile.encode(
                    evenFramesIfNeeded(clip.pcm, configuration), container: configuration.container, encoding: configuration.encoding,
                    sampleRate: configuration.sampleRate, path: displayPath)
                let file = try SoundFile.open(bytes: bytes, path: displayPath)
                info = file.info
                // 16-bit PCM decodes to exactly pcm / 32768: an unlimited clip's figures are known
                // (see FinishedClip.unlimitedMeasurement), a limited one is measured without decoding
                // again; µ-law and a-law are measured from what the bytes decode to.
                if configuration.encoding == .pcm16, let known = clip.unlimitedMeasurement {
                    measurement = known
                } else {
                    let samples = configuration.encoding == .pcm16 ? clip.pcm.map { Float($0) / 32768 } : try file.readAll()
                    measurement = try LoudnessMeter.measure(samples, sampleRate: info.sampleRate)
                }
            } catch let error as SoundFileError {
                throw BuildProblem(displayPath, "cannot be encoded: \(error.reason.asClause)")
            } catch {
                throw BuildProblem(displayPath, "cannot be measured after encoding: \(error)")
            }
            let over = measurement.truePeak - ceiling
            if over > 0, margin < maxExtraMargin {
                margin += over + 0.05
                do { clip = try ClipFinisher.finish(clip.prepared, level: level, ceilingDb: ceiling - margin, sampleRate: configuration.sampleRate) } catch {
                    throw BuildProblem(displayPath, "cannot be finished again under the ceiling: \(error)")
                }
                continue
            }
            let figures = ClipFigures(
                levelBits: level.bitPattern, searchLimitingDb: searchLimitingDb, gainDb: clip.gainDb, limitingDb: clip.limitingDb,
                frames: info.frames, loudness: measurement.loudness, truePeak: measurement.truePeak, sha256: SHA256.hex(bytes))
            let warning =
                over > 0
                ? BuildProblem(
                    displayPath,
                    String(
                        format: "its true peak is %.2f dBTP after encoding as %@, over the %.1f dBTP ceiling even finished %.1f dB lower (lower loudness.truePeak or use pcm16)",
                        measurement.truePeak, configuration.encoding.rawValue, ceiling, margin))
                : nil
            return EncodedClip(clip: clip, bytes: bytes, figures: figures, warning: warning)
        }
    }

    /// libsndfile pads an odd number of 8-bit AIFF samples with a zero byte and counts it as a frame,
    /// which decodes as -32124 in µ-law and -5504 in a-law: a click at the clip's end, over the
    /// ceiling. A silent last sample leaves it nothing to pad.
    private static func evenFramesIfNeeded(_ pcm: [Int16], _ configuration: Configuration) -> [Int16] {
        configuration.container == .aiff && configuration.encoding != .pcm16 && pcm.count % 2 == 1 ? pcm + [0] : pcm
    }
}
