import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an interrupted build (Ctrl-C, SIGTERM) must undo, and when it may end: the staging folders
/// it is writing are removed, and a swap under way (the exchange and the old set's removal) is let
/// finish first, so the output folder is always one whole set and nothing is left beside it.
/// The command line's signal handler calls `interrupt`.
public final class Interruption: @unchecked Sendable {
    // @unchecked: every field is guarded by `lock`.
    public static let shared = Interruption()

    private let lock = NSLock()
    private var staging: Set<URL> = []
    private var swaps = 0
    private var pending: (status: Int32, say: @Sendable (Bool) -> Void)?
    private var ending = false
    /// A new set was swapped in (the build's output is done; what remains is printing).
    private var swappedIn = false
    /// Held by the thread that ends the process, from the start of the clean-up to `exit`.
    private let endLock = NSLock()

    /// A staging folder the build is writing, removed if it is interrupted.
    func writing(_ folder: URL) { lock.withLock { _ = staging.insert(folder) } }

    /// The staging folder is gone (swapped in, or removed).
    func done(_ folder: URL) { lock.withLock { _ = staging.remove(folder) } }

    /// Runs a swap, which an interruption waits for.
    func swapping<T>(_ body: () throws(BuildProblem) -> T) throws(BuildProblem) -> T {
        lock.withLock { swaps += 1 }
        defer {
            let waiting: (status: Int32, say: @Sendable (Bool) -> Void)? = lock.withLock {
                swaps -= 1
                return swaps == 0 ? pending : nil
            }
            if let waiting { end(waiting.status, say: waiting.say) }
        }
        let result = try body()
        lock.withLock { swappedIn = true }
        return result
    }

    /// Removes the staging folders being written and ends the process with `status`, at once or
    /// as soon as a swap under way is done. `say` is told whether the new set was swapped in (the
    /// output folder then holds it) before the process ends.
    public func interrupt(status: Int32, say: @escaping @Sendable (_ swapped: Bool) -> Void) {
        let now: Bool = lock.withLock {
            guard swaps > 0 else { return true }
            pending = (status, say)
            return false
        }
        if now { end(status, say: say) }
    }

    /// Blocks for good when the process is being ended by an interruption: the build, failing as
    /// its staging folder goes, must neither print nor exit before the clean-up is done.
    public func waitIfEnding() {
        guard lock.withLock({ ending }) else { return }
        endLock.lock()
    }

    private func end(_ status: Int32, say: @Sendable (Bool) -> Void) -> Never {
        endLock.lock()
        let (folders, swapped) = lock.withLock {
            ending = true
            return (staging, swappedIn)
        }
        // Other tasks may still be writing into them: try again while files keep appearing.
        for folder in folders {
            for _ in 0..<5 where FileManager.default.fileExists(atPath: folder.path) {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        say(swapped)
        exit(status)
    }
}
