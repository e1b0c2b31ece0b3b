import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// One sound file measured the way the build measures clips: the whole file, or the word in it as
/// the build trims it.
public struct FileMeasurement: Sendable, Codable, Equatable {
    /// What of the file was measured.
    public enum Part: String, Sendable, Codable {
        /// Every frame of the file, room tone too: what a player plays.
        case whole
        /// The word as the build keeps it before its gain (clicks and the DC offset removed, trimmed
        /// with its pad, resampled to the set's rate, at the set's tempo, its edges faded): what the
        /// report's recorded loudness is.
        case word
    }

    public var file: String
    /// What was measured; `seconds`, `loudness` and `truePeak` are of it.
    public var part: Part
    /// Its length, seconds.
    @PrintedTime public var seconds: Double
    /// Whole-clip K-weighted loudness of the mono mix, ungated, LUFS.
    public var loudness: Double
    /// True peak of the mono mix, dBTP.
    public var truePeak: Double
}

extension FileMeasurement {
    /// `soundset measure`: the loudness and true peak of a file libsndfile reads (mixed to mono),
    /// to compare sound sets (soundset's own, or another tool's) on one scale: of the whole file, or
    /// of the word as a build with `configuration` makes it before its gain (`part`).
    /// - Throws: `BuildProblem` naming the file.
    public static func measure(_ path: String, part: Part = .whole, configuration: Configuration = Configuration()) throws(BuildProblem) -> FileMeasurement {
        do {
            let (mono, rate) = try samples(of: path, part: part, configuration: configuration)
            let measured = try LoudnessMeter.measure(mono, sampleRate: rate)
            // Its length as decoded: the header's, or the only one there is when it gives none.
            let seconds = Double(mono.count) / Double(max(1, rate))
            return FileMeasurement(file: path, part: part, seconds: seconds, loudness: measured.loudness, truePeak: measured.truePeak)
        } catch let problem as BuildProblem {
            throw problem
        } catch let error as SoundFileError {
            throw BuildProblem(path, CatalogProblem.notAudio(clause: error.reason.asClause))
        } catch {
            throw BuildProblem(path, ForwardedProblem.error(error))
        }
    }

    /// The mono samples of `part` of the file at `path`, and their rate.
    private static func samples(of path: String, part: Part, configuration: Configuration) throws -> ([Float], Int) {
        switch part {
        case .whole:
            let file = try SoundFile.open(reading: path)
            return (Mono.mixDown(try file.readAll(), channels: file.info.channels), file.info.sampleRate)
        case .word:
            // As the build reads a take: a regular file, no larger than a recording may be.
            let bytes: Data
            do { bytes = try RegularFile.read(URL(fileURLWithPath: path), maxBytes: PrepareStage.maxRecordingBytes) } catch {
                throw BuildProblem(path, MeasurementProblem.unreadable(reason: error.reason))
            }
            // The build's own steps: decoded, trimmed, resampled to the set's rate, spoken at its tempo.
            let take = try ClipPreparer.decode(path, bytes: bytes, configuration: configuration)
            let word = try take.resampledWord(path, configuration: configuration)
            return (try ClipPreparer.spokenAtTempo(word, path, configuration: configuration), configuration.sampleRate)
        }
    }
}
