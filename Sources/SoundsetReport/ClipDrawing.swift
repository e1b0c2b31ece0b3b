import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// A clip's part of the page that costs work to make: its recording's and its file's waveforms as
/// SVG paths. It depends on the recording's bytes and the
/// clip file's bytes only (`key`), so the build keeps it with the clip and one changed take draws
/// one clip again. The paths are in their own units (one per column across, `height` down), so the
/// page scales them to any width.
package struct ClipDrawing: Sendable, Equatable {
    package var sourceColumns: Int
    package var sourcePath: String
    package var outputColumns: Int
    package var outputPath: String

    /// The height of the paths' units.
    package static let height = 64
    /// The form of a drawing: change it when drawings are made differently, so old ones are not used.
    package static let version = 3

    /// The key of the drawing of `clip`: its recording's and its file's sha256.
    package static func key(_ clip: Manifest.Clip) -> String {
        SHA256.hex(Data("drawing \(version)|\(clip.source.sha256)|\(clip.sha256)".utf8))
    }

    /// Draws a clip: its recording from its envelope, and its file (`bytes`, `displayPath` in
    /// errors), decoded.
    /// - Throws: `BuildProblem` naming the file that cannot be decoded.
    package static func draw(_ bytes: Data, source: ClipEnvelope, displayPath: String) throws(BuildProblem) -> ClipDrawing {
        let samples: [Float]
        let rate: Int
        do {
            let file = try SoundFile.open(bytes: bytes, path: displayPath)
            rate = file.info.sampleRate
            samples = Mono.mixDown(try file.readAll(), channels: file.info.channels)
        } catch {
            throw BuildProblem(displayPath, ReportProblem.unreadable(reason: "\(error)"))
        }
        // Drawn from a quarter of the samples at 44.1 kHz (decimated near 11 kHz): at 120 columns a
        // second, the same drawing within a column's rounding.
        let factor = Decimator.factor(from: rate, toward: Preview.clipRate)
        let output = ClipEnvelope(Decimator.decimate(samples, by: factor), rate: rate / factor)
        return ClipDrawing(sourceColumns: source.columns, sourcePath: path(source), outputColumns: output.columns, outputPath: path(output))
    }

    /// An envelope as a filled SVG path, `height` high, one unit across per column: the highest
    /// values left to right, then the lowest back.
    package static func path(_ envelope: ClipEnvelope) -> String {
        let middle = Double(height) / 2
        func y(_ value: Int8) -> Int { Int((middle - Double(value) * middle / 127).rounded()) }
        var path = "M0 \(Int(middle))L"
        path.reserveCapacity(envelope.columns * 14 + 16)
        for column in 0..<envelope.columns {
            path += "\(column) \(y(envelope.values[2 * column + 1])) "
        }
        for column in stride(from: envelope.columns - 1, through: 0, by: -1) {
            path += "\(column) \(y(envelope.values[2 * column])) "
        }
        path.removeLast()
        return path + "Z"
    }

    package init(sourceColumns: Int, sourcePath: String, outputColumns: Int, outputPath: String) {
        self.sourceColumns = sourceColumns
        self.sourcePath = sourcePath
        self.outputColumns = outputColumns
        self.outputPath = outputPath
    }
}

/// The report's sounds. A clip's player plays the clip itself: its file's samples as they are, in a
/// WAV every browser plays (`clipWAV`; a CAF's samples in a WAV, byte for byte), so a designer
/// judging a take's noise hears the set, not a preview's rounding. A sample announcement (many
/// clips) plays a preview: 8-bit PCM near 9 kHz, made by a cheap whole-factor decimation (`wav`).
enum Preview {
    /// The rate a clip is brought near to be drawn.
    static let clipRate = 11025
    /// The rate a sample announcement's preview is brought near.
    static let announcementRate = 9000

    /// The clip file `bytes` (`name`, for errors) as a WAV, sample for sample: the same file when it
    /// is one already.
    /// - Throws: `ComposeError` when the bytes are not a sound file soundset writes.
    static func clipWAV(_ bytes: Data, name: String) throws(ComposeError) -> Data {
        try SoundData.convert(bytes, to: .wav, name: name)
    }

    /// `samples` at `rate` Hz as a preview near `target` Hz: the WAV's bytes, its rate, and its
    /// samples before they were made 8-bit.
    static func wav(_ samples: [Float], rate sampleRate: Int, toward target: Int = announcementRate) -> (bytes: Data, rate: Int, samples: [Float]) {
        let factor = Decimator.factor(from: sampleRate, toward: target)
        let reduced = Decimator.decimate(samples, by: factor)
        let previewRate = sampleRate / factor
        var data = Data(capacity: 44 + reduced.count)
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        append("RIFF")
        append32(36 + reduced.count + reduced.count % 2)
        append("WAVEfmt ")
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(previewRate)
        append32(previewRate)  // bytes per second: one byte a frame
        append16(1)
        append16(8)
        append("data")
        append32(reduced.count)
        // 8-bit WAV is unsigned, silence at 128, full scale 128 steps each way (as decoders read it).
        data.append(contentsOf: reduced.map { UInt8(clamping: Int(($0 * 128).rounded()) + 128) })
        if reduced.count % 2 == 1 { data.append(0x80) }
        return (data, previewRate, reduced)
    }
}
