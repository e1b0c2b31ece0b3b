import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock(2)` on a lock file: it orders callers in one process (each call opens its
/// own descriptor) and in several, and the system releases it when the holder dies.
///
/// On iOS a process suspended while it holds a lock in an App Group container is killed, so hold it
/// only for the few milliseconds a decision takes, never across a wait.
enum FileLock {
    /// Runs `body` while holding the lock on `url` (created when missing), waiting for it.
    /// - Throws: `RegularFile.Failure` when the lock file cannot be opened or locked.
    static func withLock<T>(_ url: URL, _ body: () -> T) throws(RegularFile.Failure) -> T {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { throw RegularFile.Failure(reason: "cannot open \(url.lastPathComponent) (\(RegularFile.systemReason(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw RegularFile.Failure(reason: "cannot lock \(url.lastPathComponent) (\(RegularFile.systemReason(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }
}
