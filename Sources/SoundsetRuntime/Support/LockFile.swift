import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `flock(2)` on a lock file, held as long as this value lives (or until `unlock`): it orders
/// callers in one process (each opens its own descriptor) and in several, and the system releases it
/// when the holder dies, so a killed process never leaves a lock behind.
///
/// On iOS a process suspended while it holds a lock in an App Group container is killed: the runtime
/// holds one only for the few milliseconds a decision takes, never across a wait.
public final class LockFile {
    private let descriptor: Int32
    public let url: URL

    /// Opens (creating when missing) the lock file at `url`; it must be a regular file.
    /// - Parameter existing: open it only if it is there, for reading: a shared lock needs no write
    ///   permission, so a reader may lock a file another user's build made.
    /// - Throws: `RegularFile.Failure` when it cannot be opened (`missing` when `existing` and absent).
    public init(_ url: URL, existing: Bool = false) throws(RegularFile.Failure) {
        self.url = url
        let flags = existing ? O_RDONLY : O_RDWR | O_CREAT
        let descriptor = open(url.path, flags | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if existing && code == ENOENT { throw RegularFile.Failure.missing }
            throw RegularFile.Failure(reason: "cannot open \(url.lastPathComponent) (\(RegularFile.systemReason(code)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw RegularFile.Failure(reason: "\(url.lastPathComponent) is not a regular file", kind: .notRegularFile)
        }
        self.descriptor = descriptor
    }

    /// A lock over `descriptor`, an open regular file (closed with this value).
    init(descriptor: Int32, url: URL) {
        self.descriptor = descriptor
        self.url = url
    }

    /// The reason `init(_:existing:)` gives for a lock file that is not there.
    public static let missing = "is missing"

    deinit { close(descriptor) }

    /// Takes the lock: `exclusive` for one holder, else shared with other shared holders.
    /// - Parameter wait: block until it is free; otherwise return false at once when it is held.
    /// - Throws: `RegularFile.Failure` when the system refuses the lock.
    @discardableResult
    public func lock(exclusive: Bool = true, wait: Bool = true) throws(RegularFile.Failure) -> Bool {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK, !wait { return false }
            throw RegularFile.Failure(reason: "cannot lock \(url.lastPathComponent) (\(RegularFile.systemReason(errno)))")
        }
        return true
    }

    /// Releases the lock (closing releases it too).
    public func unlock() { flock(descriptor, LOCK_UN) }

    /// The holder's note: what `note(_:)` wrote (a pid, for messages), or "" when none.
    public var note: String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    /// Writes a short note into the lock file for those who wait on it (the holder's pid).
    public func note(_ text: String) {
        _ = ftruncate(descriptor, 0)
        _ = Array(text.utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Runs `body` while holding the exclusive lock on `url` (created when missing), waiting for it.
    /// - Throws: `RegularFile.Failure` when the lock file cannot be opened or locked.
    public static func withLock<T>(_ url: URL, _ body: () -> T) throws(RegularFile.Failure) -> T {
        let lock = try LockFile(url)
        try lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
