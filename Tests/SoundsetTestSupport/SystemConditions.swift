import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Running a command without root's privileges, for tests of permission errors (root reads every
/// file whatever its mode).
public enum Unprivileged {
    /// What to put before a command to run it unprivileged: nothing when the tests already run as
    /// an ordinary user, `setpriv` to user nobody when they run as root; nil when neither works.
    public static let prefix: [String]? = {
        if geteuid() != 0 { return [] }
        let setpriv = "/usr/bin/setpriv"
        guard FileManager.default.isExecutableFile(atPath: setpriv) else { return nil }
        return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    }()

    public static var available: Bool { prefix != nil }

    /// Lets anyone read, write and search everything below `folder` (and `folder` itself), so the
    /// unprivileged user can build in it.
    public static func openUp(_ folder: URL) throws {
        var paths = [folder.path]
        if let walker = FileManager.default.enumerator(atPath: folder.path) {
            for case let relative as String in walker { paths.append(folder.appendingPathComponent(relative).path) }
        }
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
            let mode: mode_t = info.st_mode & S_IFMT == S_IFDIR ? 0o777 : 0o666
            guard chmod(path, mode) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM) }
        }
    }
}

/// A tmpfs mounted for a test (Linux, as root): a mount point, or a disk of a chosen size.
public struct TmpfsMount {
    public let url: URL

    /// Whether this machine lets the tests mount one.
    public static let available: Bool = {
        #if os(Linux)
            guard geteuid() == 0, let folder = try? TemporaryDirectory("soundset-mount-probe") else { return false }
            defer { folder.remove() }
            guard let mount = try? TmpfsMount(at: folder.url, kilobytes: 64) else { return false }
            mount.unmount()
            return true
        #else
            return false
        #endif
    }()

    /// Mounts a tmpfs of `kilobytes` at `url` (an existing folder).
    public init(at url: URL, kilobytes: Int) throws {
        self.url = url
        guard Self.run(["/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0777", "tmpfs", url.path]) == 0 else {
            throw POSIXError(.EPERM)
        }
    }

    /// Binds the folder `source` at `url` (an existing folder): a mount point on the same file system.
    public init(binding source: URL, at url: URL) throws {
        self.url = url
        guard Self.run(["/bin/mount", "--bind", source.path, url.path]) == 0 else { throw POSIXError(.EPERM) }
    }

    public func unmount() { _ = Self.run(["/bin/umount", url.path]) }

    private static func run(_ command: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
