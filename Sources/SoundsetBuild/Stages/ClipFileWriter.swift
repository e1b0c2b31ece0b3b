import Foundation
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Step 5 for one clip, done as soon as the clip is finished: it is encoded (`ClipEncoder`), its
/// figures read back, and its bytes put in the build's scratch folder, so that a round over the
/// whole set holds files and figures, not samples. The write stage makes the manifest from the
/// figures; the commit moves the files into the staging folder.
struct ClipFileWriter: Sendable {
    let configuration: Configuration
    /// How the output folder is named in messages.
    let outputDisplay: String
    /// Where the bytes wait; nil: in memory (the check, which writes nothing).
    let scratch: BuildScratch?

    /// `clip`, finished at `level`, encoded.
    /// - Throws: `BuildProblem` naming the file when the clip cannot be encoded or measured.
    func write(_ clip: FinishedClip, level: Double) throws(BuildProblem) -> EncodedFile {
        let name = ClipFiles.fileName(clip.prepared.summary.name, configuration)
        let encoded = try ClipEncoder.encode(
            clip, level: level, configuration: configuration, displayPath: "\(outputDisplay)/\(SoundSetLayout.soundsName)/\(name)")
        // Kept in memory when the scratch folder cannot take it: the set is the same.
        let content = scratch?.keep(encoded.bytes, named: name).map(SoundSetFiles.ClipFile.Content.written) ?? .bytes(encoded.bytes)
        // Bytes kept in memory are counted where the commit writes them.
        if case .written = content { BuildWork.count(\.bytesWritten, encoded.bytes.count) }
        return EncodedFile(summary: clip.prepared.summary, figures: encoded.figures, content: content)
    }
}
