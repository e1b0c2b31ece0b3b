import Foundation
import SoundsetAudio
import SoundsetRuntime

/// A set's files held to its manifest: every file it lists present and byte for byte as listed
/// (sha256, frames, rate, channels, container, encoding; a copy identical to its original), no
/// clip file a link, and nothing else in `Sounds`. The check's integrity check, and what a build
/// asks of its staged set before it swaps it in.
package enum SetIntegrity {
    /// What is wrong with the files of the set whose manifest is `manifest` and whose clips are in
    /// `sounds` (named `soundsDisplay` in problems), each with `rebuild` as its fix when given.
    /// - Parameter placed: files known to hold their bytes already (a build's hard links to files the
    ///   memo proved intact): only their presence is checked.
    package static func problems(
        _ manifest: Manifest, sounds: URL, soundsDisplay: String, manifestPath: String, placed: Set<String> = [], rebuild: String?
    ) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        var listed = Set<String>()
        // A clip file that is a link is said as one, whatever it points to (which is not read).
        let links = Dictionary(
            SetLink.links(in: sounds.deletingLastPathComponent()).filter(\.isInSounds).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for clip in manifest.clips {
            listed.insert(clip.file)
            if let copy = clip.copy { listed.insert(copy) }
            let path = "\(soundsDisplay)/\(clip.file)"
            if let link = links[clip.file] {
                problems.append(CheckProblem(.integrity, path, IntegrityProblem.link(problem: link.problem, rebuild: rebuild)))
            } else if placed.contains(clip.file) {
                if FileStamp(path: sounds.appendingPathComponent(clip.file, isDirectory: false).path) == nil {
                    problems.append(CheckProblem(.integrity, path, IntegrityProblem.missing(rebuild: rebuild)))
                }
            } else if let problem = fileProblem(clip, manifest: manifest, in: sounds, path: path, rebuild: rebuild) {
                problems.append(problem)
            }
            if let copy = clip.copy {
                let copyPath = "\(soundsDisplay)/\(copy)"
                if let link = links[copy] {
                    problems.append(CheckProblem(.integrity, copyPath, IntegrityProblem.link(problem: link.problem, rebuild: rebuild)))
                } else if let copyData = try? RegularFile.read(sounds.appendingPathComponent(copy, isDirectory: false), maxBytes: Composer.maxClipBytes) {
                    // Compared with the original as built (its recorded sha256), so a damaged original
                    // is reported once, not again through its copy.
                    if SHA256.hex(copyData) != clip.sha256 {
                        problems.append(CheckProblem(.integrity, copyPath, IntegrityProblem.copyDiffers(original: clip.file, rebuild: rebuild)))
                    }
                } else {
                    problems.append(CheckProblem(.integrity, copyPath, IntegrityProblem.missing(rebuild: rebuild)))
                }
            }
        }
        let present = OutputFolder.clipFiles(in: sounds)
        for name in present.sorted() where !listed.contains(name) {
            problems.append(
                CheckProblem(
                    .integrity, "\(soundsDisplay)/\(ClipName.printable(name))",
                    IntegrityProblem.unlisted))
        }
        return problems
    }

    private static func fileProblem(_ clip: Manifest.Clip, manifest: Manifest, in sounds: URL, path: String, rebuild: String?) -> CheckProblem? {
        let data: Data
        do { data = try RegularFile.read(sounds.appendingPathComponent(clip.file, isDirectory: false), maxBytes: Composer.maxClipBytes) } catch {
            return CheckProblem(
                .integrity, path, error.kind == .missing ? IntegrityProblem.missing(rebuild: rebuild) : .unreadable(reason: error.reason, rebuild: rebuild))
        }
        guard SHA256.hex(data) == clip.sha256 else {
            return CheckProblem(.integrity, path, IntegrityProblem.shaDiffers(rebuild: rebuild))
        }
        guard let info = try? SoundFile.open(bytes: data, path: path).info else {
            return CheckProblem(.integrity, path, IntegrityProblem.undecodable(rebuild: rebuild))
        }
        var differences: [String] = []
        if info.frames != clip.frames { differences.append("\(info.frames) frames, the manifest says \(clip.frames)") }
        if info.sampleRate != manifest.sampleRate { differences.append("\(info.sampleRate) Hz, the manifest says \(manifest.sampleRate)") }
        if info.channels != manifest.channels { differences.append("\(info.channels) channels, the manifest says \(manifest.channels)") }
        if info.container != manifest.container {
            differences.append("\(info.containerName) container, the manifest says \(manifest.container.rawValue)")
        }
        if info.encoding != manifest.encoding { differences.append("\(info.encodingName) encoding, the manifest says \(manifest.encoding.rawValue)") }
        if abs(Double(clip.frames) / Double(manifest.sampleRate) - clip.seconds) > 0.5 / Double(manifest.sampleRate) {
            differences.append("\(clip.seconds) s in the manifest is not its frames / sampleRate")
        }
        guard differences.isEmpty else {
            return CheckProblem(.integrity, path, IntegrityProblem.disagrees(differences: differences, rebuild: rebuild))
        }
        return nil
    }
}
