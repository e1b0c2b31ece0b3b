import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// A clip's file as the set will hold it: its bytes, and its figures read back from them.
struct EncodedClip: Sendable {
    var clip: FinishedClip
    var bytes: Data
    var figures: ClipFigures
}

/// Step 5 for one clip: encode it in the set's container and encoding, and read back what the bytes
/// hold: frames from their header, loudness and true peak from the samples they decode to. The
/// clip was limited with the headroom its encoding needs (`LevelStage`), so nothing is finished
/// again here; a true peak over the ceiling all the same is the findings' to say.
enum ClipEncoder {
    static func encode(_ clip: FinishedClip, level: Double, configuration: Configuration, displayPath: String) throws(BuildProblem) -> EncodedClip {
        BuildWork.count(\.clipsEncoded)
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
            throw BuildProblem(displayPath, StageProblem.unencodable(clause: error.reason.asClause))
        } catch {
            throw BuildProblem(displayPath, StageProblem.unmeasurable(reason: "\(error)"))
        }
        let figures = ClipFigures(
            levelBits: level.bitPattern, gainDb: clip.gainDb, limitingDb: clip.limitingDb, frames: info.frames, loudness: measurement.loudness,
            truePeak: measurement.truePeak, sha256: SHA256.hex(bytes))
        return EncodedClip(clip: clip, bytes: bytes, figures: figures)
    }

    /// libsndfile pads an odd number of 8-bit AIFF samples with a zero byte and counts it as a frame,
    /// which decodes as -32124 in µ-law and -5504 in a-law: a click at the clip's end, over the
    /// ceiling. A silent last sample leaves it nothing to pad.
    private static func evenFramesIfNeeded(_ pcm: [Int16], _ configuration: Configuration) -> [Int16] {
        configuration.container == .aiff && configuration.encoding != .pcm16 && pcm.count % 2 == 1 ? pcm + [0] : pcm
    }
}
