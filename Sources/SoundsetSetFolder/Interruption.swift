import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an interrupted build (Ctrl-C, SIGTERM) must undo, and when it may end: the staging folders
/// it is writing are removed, and a swap under way (the exchange and the old set's removal) is let
/// finish first, so the output folder is always one whole set and nothing is left beside it.
/// The command line's signal handler calls `interrupt`, and gives it the way the process ends
/// (`_exit`, which the library never calls itself).
///
/// Once the end has begun no swap starts and no staging folder is made: the build's thread, which
/// goes on until the process ends, blocks where it would.
public final class Interruption: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    public static let shared = Interruption()

    private let lock = NSLock()
    private var staging: Set<URL> = []
    private var swaps = 0
    private var pending: Ending?
    /// The process is being ended: nothing more may start.
    private var ending = false
    /// The build under way swapped its new set in (its output is done; what remains is printing).
    /// Per build: a watch builds many times, and a set an earlier build swapped in is not this one's.
    private var swappedIn = false

    /// How an interrupted process ends, once the clean-up is done: what it says (told whether the
    /// new set was swapped in), then `exit` with `status`.
    private struct Ending {
        var status: Int32
        var say: @Sendable (Bool) -> Void
        var exit: @Sendable (Int32) -> Never
    }

    /// A build begins: until it swaps its set in, an interruption says the output was not changed.
    package func beginBuild() { lock.withLock { swappedIn = false } }

    /// Makes a staging folder (`make`, run holding the lock, so an interruption sees the folder
    /// either made and to be removed, or never made) and keeps it to remove if interrupted.
    package func writing<E: Error>(_ folder: URL, make: () throws(E) -> Void) throws(E) {
        lock.lock()
        if ending {
            lock.unlock()
            parkForever()
        }
        defer { lock.unlock() }
        try make()
        staging.insert(folder)
    }

    /// The staging folder is gone (swapped in, or removed).
    package func done(_ folder: URL) { lock.withLock { _ = staging.remove(folder) } }

    /// Runs a swap, which an interruption waits for; none starts once the end has begun.
    package func swapping<T>(_ body: () throws(BuildProblem) -> T) throws(BuildProblem) -> T {
        try whole(body, isSwap: true)
    }

    /// Runs `body`, which writes beside the set (a report replaced in place), whole: an
    /// interruption waits for it, so it leaves no temporary file behind; none starts once the end
    /// has begun.
    package func uninterrupted<T>(_ body: () throws(BuildProblem) -> T) throws(BuildProblem) -> T {
        try whole(body, isSwap: false)
    }

    private func whole<T>(_ body: () throws(BuildProblem) -> T, isSwap: Bool) throws(BuildProblem) -> T {
        let refused: Bool = lock.withLock {
            if ending { return true }
            swaps += 1
            return false
        }
        if refused { parkForever() }
        var swapped = false
        defer {
            let waiting: Ending? = lock.withLock {
                swaps -= 1
                if swapped && isSwap { swappedIn = true }
                guard swaps == 0, let pending else { return nil }
                ending = true
                return pending
            }
            if let waiting { end(waiting) }
        }
        let result = try body()
        swapped = true
        return result
    }

    /// Removes the staging folders being written and ends the process with `status`, at once or
    /// as soon as a swap under way is done. `say` is told whether the new set was swapped in (the
    /// output folder then holds it) before the process ends; `exit` ends it (the caller's: not
    /// exit(3), whose atexit handlers must not run under worker threads that may be inside a C
    /// library, but `_exit`, everything said having been written unbuffered).
    public func interrupt(
        status: Int32, say: @escaping @Sendable (_ swapped: Bool) -> Void, exit: @escaping @Sendable (_ status: Int32) -> Never
    ) {
        let request = Ending(status: status, say: say, exit: exit)
        let now: Bool = lock.withLock {
            if ending { return false }
            guard swaps == 0 else {
                pending = request
                return false
            }
            ending = true
            return true
        }
        if now { end(request) }
    }

    /// Blocks for good when the process is being ended by an interruption: the build, failing as
    /// its staging folder goes, must neither print nor exit before the clean-up is done.
    public func waitIfEnding() {
        if lock.withLock({ ending }) { parkForever() }
    }

    private func parkForever() -> Never {
        while true { sleep(60) }
    }

    /// Called once, with `ending` set: no folder is added and no swap starts from now on.
    private func end(_ request: Ending) -> Never {
        let (folders, swapped) = lock.withLock { (staging, swappedIn) }
        // Other tasks may still be writing files into them: try again while files keep appearing.
        for folder in folders {
            for _ in 0..<5 where FileManager.default.fileExists(atPath: folder.path) {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        request.say(swapped)
        request.exit(request.status)
    }
}
