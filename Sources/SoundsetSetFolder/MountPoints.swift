import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a folder is a mount point, which no rename can replace.
enum MountPoints {
    /// True when `url` is the root of a mounted file system: on another device than its parent, or
    /// (a bind mount of the same file system, on Linux) listed in `/proc/self/mountinfo`.
    static func isMountPoint(_ url: URL) -> Bool {
        var folder = stat()
        var parent = stat()
        guard stat(url.path, &folder) == 0, stat(url.deletingLastPathComponent().path, &parent) == 0 else { return false }
        if folder.st_dev != parent.st_dev { return true }
        #if os(Linux)
            guard let real = realpath(url.path, nil) else { return false }
            defer { free(real) }
            return linuxMountPoints().contains(String(cString: real))
        #else
            return false
        #endif
    }

    /// The mount points `/proc/self/mountinfo` lists (its fifth field, with the kernel's octal
    /// escapes for space, tab, newline and backslash undone).
    static func linuxMountPoints() -> Set<String> {
        // A /proc file states no size: read to its end.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/mountinfo"), let data = try? handle.readToEnd() else { return [] }
        try? handle.close()
        var points = Set<String>()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 4 else { continue }
            points.insert(unescape(fields[4]))
        }
        return points
    }

    private static func unescape(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(field.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "\\"), iterator.count >= 3, let value = UInt8(String(decoding: iterator.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                iterator = iterator.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
