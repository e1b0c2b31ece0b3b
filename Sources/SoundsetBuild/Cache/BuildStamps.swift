import Foundation
import SoundsetRuntime

/// What the last successful build read and wrote, by file stamp, kept in the cache folder
/// (`stamps-<output>.json`). It lets a rebuild see that nothing changed without reading a byte,
/// and reuse the sha256 of recordings that did not change.
struct BuildStamps: Codable, Sendable {
    /// A recording's stamp and the sha256 of its bytes.
    struct Recording: Codable, Sendable {
        var stamp: FileStamp
        var sha256: String
    }

    var toolVersion: String
    /// sha256 of `soundset.json`'s bytes, or "" when there was none.
    var configurationFileSHA256: String
    /// The configuration's hash as the manifest records it (it also changes when soundset changes
    /// what a setting means).
    var configurationHash: String
    /// By file name inside the assets folder.
    var recordings: [String: Recording]
    /// Every file of the output folder, by path relative to it (`manifest.json`, `Sounds/7.caf`).
    var outputs: [String: FileStamp]
    /// What each clip file in Sounds holds, by file name (`7.caf`; copies are not listed).
    var finished: [String: FinishedFiles.Entry]
    /// The limiting (dB) the level search found for a prepared clip at a level, by `probeKey`.
    var probes: [String: Double]?

    /// A prepared clip (by `ClipCache.key`) at a level (by its bits).
    static func probeKey(_ clipKey: String?, level: Double) -> String {
        "\(clipKey ?? "")@\(String(level.bitPattern, radix: 16))"
    }

    static func url(cache: URL, output: URL) -> URL {
        cache.appendingPathComponent("stamps-\(output.lastPathComponent).json")
    }

    static func load(cache: URL, output: URL) -> BuildStamps? {
        guard let data = try? Data(contentsOf: url(cache: cache, output: output)) else { return nil }
        return try? JSONDecoder().decode(BuildStamps.self, from: data)
    }

    /// The part of the stamps that tells whether anything changed: a no-op rebuild reads only this
    /// (decoding the finished files and the search's tries too would take as long again).
    struct Head: Decodable, Sendable {
        var toolVersion: String
        var configurationFileSHA256: String
        var configurationHash: String
        var recordings: [String: Recording]
        var outputs: [String: FileStamp]
    }

    static func loadHead(cache: URL, output: URL) -> Head? {
        guard let data = try? Data(contentsOf: url(cache: cache, output: output)) else { return nil }
        return try? JSONDecoder().decode(Head.self, from: data)
    }

    func save(cache: URL, output: URL) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return }
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try? data.write(to: Self.url(cache: cache, output: output), options: .atomic)
    }

    /// Stamps of every file in the output folder (manifest and Sounds/*), or nil if one cannot be read.
    static func outputStamps(_ output: URL) -> [String: FileStamp]? {
        var stamps: [String: FileStamp] = [:]
        guard let manifest = FileStamp(path: output.appendingPathComponent(SoundSetLayout.manifestName).path) else { return nil }
        stamps[SoundSetLayout.manifestName] = manifest
        let sounds = output.appendingPathComponent(SoundSetLayout.soundsName)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: sounds.path)) ?? [] {
            guard let stamp = FileStamp(path: sounds.appendingPathComponent(name).path) else { return nil }
            stamps["\(SoundSetLayout.soundsName)/\(name)"] = stamp
        }
        return stamps
    }

    /// The names that count as recordings in `assets` (non-hidden, not the configuration), with stamps.
    static func recordingStamps(_ assets: URL) -> [String: FileStamp]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: assets.path) else { return nil }
        var stamps: [String: FileStamp] = [:]
        for name in names where AssetCatalog.isRecordingName(name) {
            // Links and folders make the fast path step aside; the full build decides about them.
            guard let stamp = FileStamp(path: assets.appendingPathComponent(name).path, followingLinks: false) else { return nil }
            stamps[name] = stamp
        }
        return stamps
    }

    /// sha256 of the assets folder's `soundset.json`, or "" when there is none.
    static func configurationFileSHA256(_ assets: URL) -> String? {
        let url = assets.appendingPathComponent(ConfigurationLoader.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return "" }
        return try? SHA256.hex(fileAt: url)
    }
}
