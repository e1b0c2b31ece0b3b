import Foundation
import SoundsetRuntime

/// Decides whether the output folder already holds exactly what a build would write.
enum UpToDate {
    /// The output folder's manifest when, by `stat` alone, nothing changed since the build that left
    /// `stamps`: the same recordings (names, sizes, times, inodes), the same `soundset.json`, the same
    /// tool, and every output file as that build wrote it. Otherwise nil, and the full check decides.
    static func byStamps(_ stamps: BuildStamps.Head, assets: URL, output: URL) -> Manifest? {
        guard stamps.toolVersion == ToolVersion.current, !stamps.outputs.isEmpty,
            let recordings = BuildStamps.recordingStamps(assets),
            recordings.count == stamps.recordings.count,
            recordings.allSatisfy({ stamps.recordings[$0.key]?.stamp == $0.value }),
            BuildStamps.outputStamps(output) == stamps.outputs,
            BuildStamps.configurationFileSHA256(assets) == stamps.configurationFileSHA256,
            let configuration = try? ConfigurationLoader.load(
                from: assets.appendingPathComponent(ConfigurationLoader.fileName),
                displayPath: ConfigurationLoader.fileName),
            configuration.hash == stamps.configurationHash,
            let manifest = try? Manifest.load(from: output.appendingPathComponent(SoundSetLayout.manifestName)),
            manifest.configurationHash == configuration.hash
        else { return nil }
        return manifest
    }

    /// The output folder's manifest when it was built by this tool version from these recordings
    /// (same names, same sha256) with this configuration and these copies, and every file it lists
    /// is intact with nothing else beside it; otherwise nil.
    static func manifest(in output: URL, sources: [(Recording, String)], configuration: Configuration, copies: Set<String>) -> Manifest? {
        guard let manifest = try? Manifest.load(from: output.appendingPathComponent(SoundSetLayout.manifestName)),
            manifest.toolVersion == ToolVersion.current, manifest.configurationHash == configuration.hash,
            manifest.clips.count == sources.count
        else { return nil }
        let recorded = Dictionary(manifest.clips.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var expectedFiles = Set<String>()
        for (recording, sha) in sources {
            guard let clip = recorded[recording.name], clip.source.file == recording.fileName, clip.source.sha256 == sha,
                (clip.copy != nil) == copies.contains(recording.name)
            else { return nil }
            expectedFiles.insert(clip.file)
            if let copy = clip.copy { expectedFiles.insert(copy) }
        }
        let sounds = output.appendingPathComponent(SoundSetLayout.soundsName)
        let present = Set(OutputFolder.clipFiles(in: sounds))
        guard present == expectedFiles else { return nil }
        for clip in manifest.clips {
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                guard (try? SHA256.hex(fileAt: sounds.appendingPathComponent(file))) == clip.sha256 else { return nil }
            }
        }
        return manifest
    }
}
