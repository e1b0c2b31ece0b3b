import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Step 5 and 6 for one clip: encode, read back what was written, copy.
enum ClipWriter {
    /// The limiter aims this far under the ceiling, dB, so quantisation cannot push the written file over it.
    static let ceilingMargin = 0.05

    /// Writes `clips` into `folder`, verifies each written file's true peak, and writes the copies
    /// of those in `copies`. Frames in the results are read back from the written file's header,
    /// loudness and true peak from the samples the file decodes to; the files are hashed four at a
    /// time (`SHA256.hex` of several messages).
    /// - Returns: per clip, in order, the manifest entry and the figures to keep for the next build (a
    ///   clip the encoding pushed over the ceiling is finished again under a lower one; its figures
    ///   are the written ones, and `searchLimitingDb` keeps what the level search saw).
    static func write(_ clips: [FinishedClip], into folder: URL, copies: Set<String>, level: Double, configuration: Configuration) throws
        -> [(entry: Manifest.Clip, finished: ClipCache.Finished)]
    {
        let written = try clips.map { try writeFile($0, into: folder, level: level, configuration: configuration) }
        let digests = SHA256.hex(written.map(\.data))
        return try zip(written, digests).map { file, digest in
            let name = file.clip.prepared.recording.name
            let copy = copies.contains(name)
            try writeCopy(of: file.data, name: name, into: folder, copy: copy, configuration: configuration)
            let finished = ClipCache.Finished(
                levelBits: level.bitPattern, searchLimitingDb: file.searchLimitingDb, gainDb: file.clip.gainDb,
                limitingDb: file.clip.limitingDb, frames: file.info.frames, loudness: file.measurement.loudness,
                truePeak: file.measurement.truePeak, sha256: digest)
            return (entry(file.clip.prepared, finished, copy: copy, configuration: configuration), finished)
        }
    }

    /// One clip's file as written and read back.
    private struct WrittenFile {
        /// The clip as written (finished again if the encoding pushed it over the ceiling).
        var clip: FinishedClip
        var searchLimitingDb: Double
        var info: SoundFileInfo
        var measurement: LoudnessMeasurement
        /// The file's bytes.
        var data: Data
    }

    /// Writes `clip`'s file into `folder` and reads it back.
    private static func writeFile(_ clip: FinishedClip, into folder: URL, level: Double, configuration: Configuration) throws -> WrittenFile {
        let searchLimitingDb = clip.limitingDb
        let url = folder.appendingPathComponent(Self.fileName(clip.prepared.recording.name, configuration))
        let ceiling = configuration.loudness.truePeak
        var clip = clip
        var readBack: (info: SoundFileInfo, measurement: LoudnessMeasurement)
        var margin = ceilingMargin
        // libsndfile pads an odd number of 8-bit AIFF samples with a zero byte and counts it as a
        // frame, which decodes as -32124 in µ-law and -5504 in a-law: a click at the clip's end, over
        // the ceiling. A silent last sample leaves it nothing to pad.
        let evenFrames = configuration.container == .aiff && configuration.encoding != .pcm16
        while true {
            do {
                let file = try SoundFile.create(
                    writing: url.path, container: configuration.container, encoding: configuration.encoding,
                    sampleRate: configuration.sampleRate)
                try file.write(evenFrames && clip.pcm.count % 2 == 1 ? clip.pcm + [0] : clip.pcm)
            } catch let error as SoundFileError {
                throw BuildProblem(url.path, "cannot be written: \(error.reason.asClause)")
            }
            do {
                let file = try SoundFile.open(reading: url.path)
                // 16-bit PCM decodes to exactly pcm / 32768: an unlimited clip's figures are known
                // (see FinishedClip.unlimitedMeasurement), a limited one is measured without decoding
                // again; µ-law and a-law are measured from what the file decodes to.
                if configuration.encoding == .pcm16, let known = clip.unlimitedMeasurement {
                    readBack = (file.info, known)
                } else {
                    let samples = configuration.encoding == .pcm16 ? clip.pcm.map { Float($0) / 32768 } : try file.readAll()
                    readBack = (file.info, try LoudnessMeter.measure(samples, sampleRate: file.info.sampleRate))
                }
            } catch {
                throw BuildProblem(url.path, "cannot be read back after writing: \(error)")
            }
            // µ-law and a-law quantise coarsely near full scale; aim lower until the file itself is under.
            guard readBack.measurement.truePeak > ceiling, margin < 3 else { break }
            margin += readBack.measurement.truePeak - ceiling + 0.05
            clip = try ClipFinisher.finish(clip.prepared, level: level, ceilingDb: ceiling - margin, sampleRate: configuration.sampleRate)
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw BuildProblem(url.path, "cannot be read back after writing") }
        return WrittenFile(clip: clip, searchLimitingDb: searchLimitingDb, info: readBack.info, measurement: readBack.measurement, data: data)
    }

    /// Places the last build's finished file `source` (and its copy) into `folder`.
    static func place(
        _ source: URL, of clip: PreparedClip, meta: ClipCache.Finished, from last: FinishedFiles, into folder: URL, copy: Bool,
        configuration: Configuration
    ) throws -> Manifest.Clip {
        let name = clip.recording.name
        let url = folder.appendingPathComponent(fileName(name, configuration))
        do { try FinishedFiles.place(source, at: url) } catch {
            throw BuildProblem(url.path, "cannot be written (\(OutputFolder.reason(error)))")
        }
        if copy {
            let copyURL = folder.appendingPathComponent(copyName(name, configuration))
            do {
                // The copy is a file of its own: linked from the last build's copy, or written anew.
                if let lastCopy = last.untouched(copyURL.lastPathComponent) {
                    try FinishedFiles.place(lastCopy, at: copyURL)
                } else {
                    try FileWriting.write(try Data(contentsOf: source), to: copyURL)
                }
            } catch {
                throw BuildProblem(copyURL.path, "cannot be written (\(OutputFolder.reason(error)))")
            }
        }
        return entry(clip, meta, copy: copy, configuration: configuration)
    }

    /// The manifest's entry for a written clip, from its figures (dB rounded to 2 decimals).
    private static func entry(_ clip: PreparedClip, _ finished: ClipCache.Finished, copy: Bool, configuration: Configuration) -> Manifest.Clip {
        let name = clip.recording.name
        return Manifest.Clip(
            name: name, file: fileName(name, configuration), copy: copy ? copyName(name, configuration) : nil,
            frames: finished.frames, seconds: Double(finished.frames) / Double(configuration.sampleRate),
            loudness: rounded(finished.loudness), truePeak: rounded(finished.truePeak), gain: rounded(finished.gainDb),
            limiting: rounded(finished.limitingDb), sha256: finished.sha256,
            source: Manifest.Source(file: clip.recording.fileName, sha256: clip.sourceSHA256))
    }

    /// The file a clip is written to in Sounds.
    static func fileName(_ name: String, _ configuration: Configuration) -> String {
        "\(name).\(configuration.container.fileExtension)"
    }

    static func copyName(_ name: String, _ configuration: Configuration) -> String {
        "\(name)\(ClipName.copySuffix).\(configuration.container.fileExtension)"
    }

    private static func writeCopy(of data: Data, name: String, into folder: URL, copy: Bool, configuration: Configuration) throws {
        guard copy else { return }
        let url = folder.appendingPathComponent(copyName(name, configuration))
        do { try FileWriting.write(data, to: url) } catch {
            throw BuildProblem(url.path, "cannot be written (\(OutputFolder.reason(error)))")
        }
    }
}
