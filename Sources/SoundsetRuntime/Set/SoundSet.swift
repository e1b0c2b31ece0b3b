import Foundation

/// A built sound set as the app ships it: a folder holding `manifest.json` and `Sounds/` (the
/// build's `Output/`, added to the app target as a folder reference).
public struct SoundSet: Sendable {
    /// The set's manifest, validated.
    public let manifest: Manifest
    /// The set's folder.
    public let folder: URL
    /// A short id derived from the manifest's hashes: two sets with any clip, file name or format
    /// different have different ids. Installed clip names begin with it.
    public let id: String

    /// The folder of the clip files.
    public var soundsFolder: URL { folder.appendingPathComponent(SoundSetLayout.soundsName, isDirectory: true) }

    /// Loads the set in `folder` (its manifest is read and validated).
    /// - Throws: `ManifestError` when the manifest is missing or not valid.
    public init(folder: URL) throws(ManifestError) {
        self.init(manifest: try Manifest.load(from: folder.appendingPathComponent(SoundSetLayout.manifestName)), folder: folder)
    }

    /// A set whose manifest is already loaded.
    public init(manifest: Manifest, folder: URL) {
        self.manifest = manifest
        self.folder = folder
        id = Self.id(of: manifest)
    }

    /// The id of the set `manifest` describes (see `id`).
    static func id(of manifest: Manifest) -> String {
        var digest = SHA256Digest()
        digest.update(Data("\(manifest.container.rawValue) \(manifest.encoding.rawValue) \(manifest.sampleRate) \(manifest.channels)\n".utf8))
        for clip in manifest.clips {
            digest.update(Data("\(clip.name) \(clip.file) \(clip.copy ?? "-") \(clip.frames) \(clip.sha256)\n".utf8))
        }
        return String(digest.finalHex().prefix(10))
    }

    /// The folder of the app that contains the app extension whose bundle is at `bundleURL`.
    ///
    /// In an extension, `Bundle.main` is the extension's own bundle (`App.app/PlugIns/X.appex`), not
    /// the app's, so `Bundle.main.url(forResource: "Output", ...)` finds nothing there. Pass
    /// `Bundle.main.bundleURL`: an `.appex` gives the app two folders up, anything else itself.
    public static func appBundle(containing bundleURL: URL) -> URL {
        let url = bundleURL.standardizedFileURL
        guard url.pathExtension == "appex" else { return url }
        return url.deletingLastPathComponent().deletingLastPathComponent()
    }
}
