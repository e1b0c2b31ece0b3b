import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What stat(2) says of each non-hidden entry in the assets folder (size, modification and change
/// times, inode, type) and which folder it is: equal fingerprints mean no take was added, removed, renamed or written.
/// `build --watch` polls it, which works on every file system and platform, network shares too.
public struct AssetsFingerprint: Sendable, Equatable {
    private var entries: [String: [Int64]]

    /// The fingerprint of `folder` now; a folder that cannot be read has a fingerprint of its own
    /// (so its coming back is a change).
    public static func of(_ folder: URL) -> AssetsFingerprint {
        // The folder itself by identity only: a hidden file written into it changes its times.
        var entries: [String: [Int64]] = [".": Array(facts(folder.path).suffix(2))]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") {
            entries[name] = facts(folder.appendingPathComponent(name).path)
        }
        return AssetsFingerprint(entries: entries)
    }

    /// The entry's facts through a link and of the link itself: [] when it cannot be stat'ed.
    private static func facts(_ path: String) -> [Int64] {
        var result: [Int64] = []
        for follow in [true, false] {
            var info = stat()
            guard (follow ? stat(path, &info) : lstat(path, &info)) == 0 else {
                result.append(-1)
                continue
            }
            #if canImport(Darwin)
                let modified = info.st_mtimespec, changed = info.st_ctimespec
            #else
                let modified = info.st_mtim, changed = info.st_ctim
            #endif
            result += [
                Int64(info.st_size), Int64(modified.tv_sec), Int64(modified.tv_nsec), Int64(changed.tv_sec), Int64(changed.tv_nsec),
                Int64(bitPattern: UInt64(info.st_ino)), Int64(info.st_mode),
            ]
        }
        return result
    }
}
