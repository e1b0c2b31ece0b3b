import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The stamps of the files a build reads and writes.
enum Stamps {
    /// Stamps of every file in the output folder (the manifest and `Sounds/*`) by path in it, or nil
    /// if one cannot be stat'ed, or is a link (`SetLink`: a set with one is not up to date), or the
    /// `Sounds` folder is.
    static func outputs(of output: URL) -> [String: FileStamp]? {
        var stamps: [String: FileStamp] = [:]
        guard let manifest = FileStamp(path: output.appendingPathComponent(SoundSetLayout.manifestName).path, followingLinks: false) else { return nil }
        stamps[SoundSetLayout.manifestName] = manifest
        // Paths joined as strings: a URL per file is most of a no-op rebuild's work otherwise.
        let sounds = output.appendingPathComponent(SoundSetLayout.soundsName).path
        var info = stat()
        guard lstat(sounds, &info) != 0 || info.st_mode & S_IFMT != S_IFLNK else { return nil }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: sounds)) ?? [] {
            guard let stamp = FileStamp(path: sounds + "/" + name, followingLinks: false) else { return nil }
            stamps["\(SoundSetLayout.soundsName)/\(name)"] = stamp
        }
        return stamps
    }

    /// The names that count as recordings in `assets` (non-hidden, not the configuration), with
    /// stamps; nil when one is a link or a folder (the full build decides about those).
    static func recordings(in assets: URL) -> [String: FileStamp]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: assets.path) else { return nil }
        var stamps: [String: FileStamp] = [:]
        let folder = assets.path
        for name in names where AssetCatalog.isRecordingName(name) {
            let path = folder + "/" + name
            // A file that can no longer be read is no set up to date: the full build says why.
            guard let stamp = FileStamp(path: path, followingLinks: false), access(path, R_OK) == 0 else { return nil }
            stamps[name] = stamp
        }
        BuildWork.count(\.takesStatted, stamps.count)
        return stamps
    }
}
