import Foundation
import SoundsetRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The last build's output files, serving as the cache of finished clips: a clip whose prepared
/// entry and set level are unchanged, and whose file in the output folder is still as that build
/// wrote it (by stat, as for recordings), is hard-linked into the new set instead of being finished
/// and written again. The figures the build needs about it are kept with the build's stamps.
struct FinishedFiles: Sendable {
    /// What the last build wrote for one clip.
    struct Entry: Codable, Sendable, Equatable {
        /// The clip's prepared-cache key (`ClipCache.key`).
        var key: String
        var finished: ClipCache.Finished
    }

    private let sounds: URL
    private let entries: [String: Entry]
    private let stamps: [String: FileStamp]

    /// The finished files recorded in `stamps` for the output folder at `output`.
    init(stamps: BuildStamps, output: URL) {
        sounds = output.appendingPathComponent(SoundSetLayout.soundsName)
        entries = stamps.finished
        self.stamps = stamps.outputs
    }

    /// The last build's file `fileName` and its figures, when it holds the clip with prepared key
    /// `key` at exactly `level` and is untouched since.
    func file(_ fileName: String, key: String, level: Double) -> (ClipCache.Finished, URL)? {
        guard let entry = entries[fileName], entry.key == key, entry.finished.levelBits == level.bitPattern,
            let url = untouched(fileName)
        else { return nil }
        return (entry.finished, url)
    }

    /// The last build's file `fileName` in Sounds, if it is there as that build left it.
    func untouched(_ fileName: String) -> URL? {
        let url = sounds.appendingPathComponent(fileName)
        guard let recorded = stamps["\(SoundSetLayout.soundsName)/\(fileName)"], FileStamp(path: url.path) == recorded else { return nil }
        return url
    }

    /// Puts the file at `source` at `target`: a hard link where the file system allows one (no bytes
    /// written), else a copy.
    static func place(_ source: URL, at target: URL) throws {
        if link(source.path, target.path) == 0 { return }
        try FileWriting.write(try Data(contentsOf: source), to: target)
    }
}
