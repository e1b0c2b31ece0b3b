import Foundation
import SoundsetRuntime

/// The locks of one output folder, in the memo's folder beside it (`.soundset-cache`):
///
/// - `lock-<name>`: held by a build from its start to its end, so a second build of the same folder
///   waits for the first (or, with `--no-wait`, stops at once);
/// - `swap-<name>`: held by a build only while it swaps the new set in and removes the old one, and
///   shared by readers (check, plan, render, report) while they read, so they see one set whole.
///
/// The system releases a lock when its holder dies: a killed build never leaves one behind.
package enum OutputLocks {
    /// The folder holding the locks (and the memo), created with its `.gitignore` when missing.
    package static func folder(for output: URL) -> URL? { try? prepareFolder(for: output) }

    private static func prepareFolder(for output: URL) throws(RegularFile.Failure) -> URL {
        let folder = MemoFolder.folder(for: output)
        try MemoFolder.create(folder)
        return folder
    }

    /// Takes the build lock of `output`.
    /// - Parameters:
    ///   - wait: wait while another build holds it, telling `waiting` once; else fail at once.
    ///   - display: how the output folder is named in messages.
    /// - Returns: the held lock; the build holds it until it ends.
    /// - Throws: `BuildProblem` when another build holds it and `wait` is false, or the lock cannot be made.
    package static func build(_ output: URL, display: String, wait: Bool, waiting: (String) -> Void) throws(BuildProblem) -> LockFile {
        let folder: URL
        do { folder = try prepareFolder(for: output) } catch {
            throw BuildProblem(display, OutputProblem.noLockFolder(folder: MemoFolder.folder(for: output).path, reason: error.reason))
        }
        let lock: LockFile
        do {
            lock = try LockFile(folder.appendingPathComponent("lock-\(output.lastPathComponent)"))
            if try !lock.lock(wait: false) {
                let holder = lock.note.isEmpty ? "another soundset" : "another soundset (pid \(lock.note))"
                guard wait else {
                    throw BuildProblem(display, OutputProblem.beingBuilt(holder: holder))
                }
                waiting("waiting for \(holder) to finish building \(display)")
                try lock.lock()
            }
        } catch let problem as BuildProblem {
            throw problem
        } catch {
            throw BuildProblem(display, OutputProblem.buildLock(reason: (error as? RegularFile.Failure)?.reason ?? "\(error)"))
        }
        lock.note(String(getpid()))
        return lock
    }

    /// The swap lock's file of `output`.
    package static func swapURL(_ output: URL) -> URL { MemoFolder.folder(for: output).appendingPathComponent("swap-\(output.lastPathComponent)") }

    /// The swap lock of `output`, taken for the swap itself.
    /// - Throws: `BuildProblem` naming the lock file when it cannot be made or locked: a build never
    ///   swaps a set in unlocked, so no reader can see half of it.
    package static func swap(_ output: URL) throws(BuildProblem) -> LockFile {
        let url = swapURL(output)
        do {
            try MemoFolder.create(url.deletingLastPathComponent())
            let lock = try LockFile(url)
            try lock.lock()
            return lock
        } catch {
            throw BuildProblem(url.path, OutputProblem.swapLock(reason: error.reason))
        }
    }

    /// Runs `body` holding `output`'s swap lock shared: no build swaps a new set in meanwhile. A
    /// symbolic `output` is resolved first, as a build resolves it, so both take the same lock. The
    /// lock is opened for reading when it is there (another user's build may have made it); when it
    /// is not and cannot be made (a read-only checkout, where nobody builds either), or the output
    /// folder does not exist, `body` runs without it.
    /// - Throws: `BuildProblem` naming the lock file when it is there but cannot be locked (not a
    ///   regular file, say), and what `body` throws.
    package static func reading<T>(_ output: URL, _ body: () throws -> T) throws -> T {
        let lock = try readLock(output)
        defer { lock?.unlock() }
        return try body()
    }

    /// `reading` for a body that awaits (the check, which derives the set again).
    package static func reading<T>(_ output: URL, _ body: () async throws -> T) async throws -> T {
        let lock = try readLock(output)
        defer { lock?.unlock() }
        return try await body()
    }

    /// `output`'s swap lock, held shared; nil when there is none to hold (see `reading`).
    private static func readLock(_ output: URL) throws -> LockFile? {
        let resolved = (try? OutputFolder.resolve(output, display: output.path)) ?? output.standardizedFileURL
        let url = swapURL(resolved)
        var lock: LockFile?
        do {
            lock = try LockFile(url, existing: true)
        } catch  where error.kind == .missing {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isFolder), isFolder.boolValue,
                (try? MemoFolder.create(url.deletingLastPathComponent())) != nil
            {
                lock = try? LockFile(url)
            }
        } catch {
            throw BuildProblem(url.path, OutputProblem.readLockNotRegular(reason: error.reason))
        }
        do { try lock?.lock(exclusive: false) } catch {
            throw BuildProblem(url.path, OutputProblem.readLock(reason: error.reason))
        }
        return lock
    }
}

/// The memo's folder: created with a `.gitignore` of `*`, so an app's repository never commits it,
/// wherever `--output` points.
package enum MemoFolder {
    /// The memo folder's name, beside the output folder.
    package static let name = ".soundset-cache"

    /// The memo folder of the output folder `output`: beside it.
    package static func folder(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(name)
    }

    package static func prepare(_ folder: URL) -> Bool { (try? create(folder)) != nil }

    package static func create(_ folder: URL) throws(RegularFile.Failure) {
        let ignore = folder.appendingPathComponent(".gitignore")
        if FileManager.default.fileExists(atPath: ignore.path) { return }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw RegularFile.Failure(reason: RegularFile.reason(error))
        }
        try RegularFile.replace(ignore, with: Data("*\n".utf8))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
