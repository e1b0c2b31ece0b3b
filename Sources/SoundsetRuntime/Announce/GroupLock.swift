import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Says when the system is about to suspend the process, so that it is never suspended holding the
/// group's lock: iOS kills a process suspended while it holds a lock on a file in a shared container
/// (exception code 0xdead10cc).
///
/// Close it from `serviceExtensionTimeWillExpire`, from the expiration handler of a background task,
/// or when `ProcessInfo.performExpiringActivity` calls its block with `true`: `close()` waits for a
/// hold under way (milliseconds: a decision, or the renames of an install), and from then on the
/// lock is not taken, so the work that needed it falls back with its reason.
public final class SuspensionGate: @unchecked Sendable {
    // @unchecked: `closed` is read and written under `lock`, which is also held for the whole of every
    // hold of the group's lock taken through this gate.
    private let lock = NSLock()
    private var closed = false

    public init() {}

    /// Lets no hold of the group's lock begin from now on; returns once a hold under way has ended.
    public func close() { lock.withLock { closed = true } }

    /// Whether `close()` was called.
    public var isClosed: Bool { lock.withLock { closed } }

    /// Runs `body` unless the gate is closed, keeping it from closing until `body` returns.
    /// - Returns: nil when the gate is closed.
    func whileOpen<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return nil }
        return try body()
    }
}

/// The group's one lock (`soundset/queue.lock`, a `flock`, released by the system when its holder
/// dies), held only for what must not interleave: a decision (read the queue, decide, write it) or
/// the renames that put an installed set in place. It is never waited on without bound: it is tried
/// without blocking, again and again, until a deadline well inside the extension's 30 s.
enum GroupLock {
    /// How long a caller tries to take the lock before it gives up: holds last milliseconds.
    static let defaultWait = 2.0

    /// Told how long each hold lasted, in seconds of the wall clock and of the holding thread's CPU
    /// (`make bench` prints the longest); nil otherwise. Set once, before any hold.
    nonisolated(unsafe) static var holdObserver: ((_ wall: Double, _ cpu: Double) -> Void)?

    /// Runs `body` holding the group's lock.
    /// - Parameters:
    ///   - gate: when closed, the lock is not taken (the process is about to be suspended).
    ///   - wait: how long to keep trying, in seconds.
    /// - Throws: `GroupFailure` when the lock file cannot be opened, the lock cannot be taken before
    ///   the deadline or the gate is closed, or `body` throws.
    static func withLock<T>(
        _ group: OpenGroup, gate: SuspensionGate?, wait: Double = defaultWait, _ body: () throws(GroupFailure) -> T
    ) throws(GroupFailure) -> T {
        let lockName = "\(SoundSetLayout.stateName)/\(GroupFolder.lockName)"
        if gate?.isClosed == true { throw closedGate }
        // What is moved out of the lock's way is said by the decision (or install) holding it.
        try group.clearWayForLock()
        let lock = LockFile(
            descriptor: try group.state.openLockFile(GroupFolder.lockName, protection: group.protection),
            url: group.state.url.appendingPathComponent(GroupFolder.lockName))
        let deadline = ProcessInfo.processInfo.systemUptime + wait
        var pause: useconds_t = 500
        while true {
            let outcome: T??
            if let gate {
                outcome = try gate.whileOpen { () throws(GroupFailure) -> T? in try attempt(lock, lockName, body) }
            } else {
                outcome = .some(try attempt(lock, lockName, body))
            }
            switch outcome {
            case nil: throw closedGate
            case .some(let result?): return result
            case .some(nil):
                guard ProcessInfo.processInfo.systemUptime < deadline else {
                    throw GroupFailure(reason: String(format: "%@ was held by another process for more than %g s", lockName, wait))
                }
                usleep(pause)
                pause = min(pause * 2, 20_000)
            }
        }
    }

    /// Tries the lock once without blocking: `body`'s result, or nil when another holds it.
    private static func attempt<T>(_ lock: LockFile, _ lockName: String, _ body: () throws(GroupFailure) -> T) throws(GroupFailure) -> T? {
        let taken: Bool
        do throws(RegularFile.Failure) { taken = try lock.lock(exclusive: true, wait: false) } catch {
            throw GroupFailure(reason: "\(lockName) \(error.reason)")
        }
        guard taken else { return nil }
        let start = ProcessInfo.processInfo.systemUptime
        let cpu = holdObserver == nil ? 0 : threadCPUTime()
        defer {
            lock.unlock()
            if let holdObserver { holdObserver(ProcessInfo.processInfo.systemUptime - start, threadCPUTime() - cpu) }
        }
        return try body()
    }

    /// The CPU time of the calling thread, in seconds.
    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static let closedGate = GroupFailure(reason: "the process is about to be suspended, so the group's lock was not taken")
}
