import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

/// One sound file measured the way the build measures clips.
public struct FileMeasurement: Sendable, Codable, Equatable {
    public var file: String
    public var seconds: Double
    /// Whole-clip K-weighted loudness of the mono mix, ungated, LUFS.
    public var loudness: Double
    /// True peak of the mono mix, dBTP.
    public var truePeak: Double

    private enum CodingKeys: String, CodingKey { case file, seconds, loudness, truePeak }

    /// Printed (`soundset measure --format json`), the length is to the millisecond, as every time
    /// soundset prints.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(file, forKey: .file)
        try values.encode(JSONFormatting.time(seconds, in: encoder), forKey: .seconds)
        try values.encode(loudness, forKey: .loudness)
        try values.encode(truePeak, forKey: .truePeak)
    }
}

extension FileMeasurement {
    /// `soundset measure`: the whole-clip loudness and true peak of a file libsndfile reads (mixed
    /// to mono), to compare sound sets (soundset's own, or another tool's) on one scale.
    /// - Throws: `BuildProblem` naming the file.
    public static func measure(_ path: String) throws(BuildProblem) -> FileMeasurement {
        do {
            let file = try SoundFile.open(reading: path)
            let mono = Mono.mixDown(try file.readAll(), channels: file.info.channels)
            let measured = try LoudnessMeter.measure(mono, sampleRate: file.info.sampleRate)
            // Its length as decoded: the header's, or the only one there is when it gives none.
            let seconds = Double(mono.count) / Double(max(1, file.info.sampleRate))
            return FileMeasurement(file: path, seconds: seconds, loudness: measured.loudness, truePeak: measured.truePeak)
        } catch let error as SoundFileError {
            throw BuildProblem(path, "cannot be read as audio: \(error.reason.asClause)")
        } catch {
            throw BuildProblem(path, "\(error)")
        }
    }
}
