import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a folder of the group, or a file in it, could not be used: a reason in words, and whether the
/// system refused for lack of permission (on iOS: data protection, before the first unlock).
struct GroupFailure: Error, Equatable {
    var reason: String
    var protectedData = false

    /// What a phone that has not been unlocked since it started says when a protected file is opened.
    static let protectedDataReason = "protected data is not available (the phone has not been unlocked since it started)"

    /// `what cannot be <verb> (<the system's words>)`; a refusal for lack of permission says that
    /// protected data is not available first.
    static func system(_ what: String, _ verb: String, _ code: Int32) -> GroupFailure {
        let text = "\(what) cannot be \(verb) (\(RegularFile.systemReason(code)))"
        guard code == EPERM || code == EACCES else { return GroupFailure(reason: text) }
        return GroupFailure(reason: "\(protectedDataReason): \(text)", protectedData: true)
    }
}

/// Why a file in a `FolderHandle` could not be read.
enum FileProblem: Error, Equatable {
    case missing
    /// A folder, a FIFO, a link or anything else but a regular file.
    case notRegular
    case tooLarge(Int, limit: Int)
    case system(Int32)

    /// As `RegularFile.Failure` words it: `is missing`, `is not a regular file` ...
    var reason: String {
        switch self {
        case .missing: "is missing"
        case .notRegular: "is not a regular file"
        case .tooLarge(let size, let limit): "is \(size) bytes, more than the \(limit) allowed"
        case .system(let code): "cannot be read (\(RegularFile.systemReason(code)))"
        }
    }

    /// The group's failure for the file shown as `what`.
    func failure(_ what: String) -> GroupFailure {
        if case .system(let code) = self { return .system(what, "read", code) }
        return GroupFailure(reason: "\(what) \(reason)")
    }
}

/// A kill test's look at the writing of every temporary file of the group's: told the file's name
/// and the bytes written so far after each 4 KiB page (`soundset announce` kills itself at one, for
/// the tests through the binary). Set once, before any write; nil otherwise.
package enum TemporaryWrites {
    package nonisolated(unsafe) static var pageWritten: ((_ name: String, _ bytes: Int) -> Void)?
}

/// A folder opened once and used by its descriptor from then on: every file in it is opened,
/// created, renamed and removed relative to the descriptor (`openat`, `renameat`, `unlinkat`), never
/// through a path, so a link put where the folder or one of its files was cannot send a write or a
/// deletion elsewhere. Subfolders are opened without following links.
final class FolderHandle {
    let descriptor: Int32
    /// Where it was opened, for messages and for the data-protection call that takes a path.
    let url: URL
    /// How messages name it (`Library/Sounds`).
    let display: String
    /// A test's stand-in for the system refusing to open a path (its errno, or nil to go on): how
    /// data protection before the first unlock is tried on Linux, through the same code.
    let refusal: (@Sendable (String) -> Int32?)?

    private init(descriptor: Int32, url: URL, display: String, refusal: (@Sendable (String) -> Int32?)?) {
        self.descriptor = descriptor
        self.url = url
        self.display = display
        self.refusal = refusal
    }

    /// `openat` of `name`, unless the test's refusal says otherwise.
    private func openFile(_ name: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        if let code = refusal?("\(display)/\(name)") {
            errno = code
            return -1
        }
        return openat(descriptor, name, flags, mode)
    }

    deinit { close(descriptor) }

    /// Opens the folder at `url` (following a link there: the caller chose it), creating it and its
    /// parents when missing.
    static func root(_ url: URL, display: String, refusal: (@Sendable (String) -> Int32?)? = nil) throws(GroupFailure) -> FolderHandle {
        var descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor < 0, errno == ENOENT {
            do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
                throw GroupFailure(reason: "\(display) cannot be created (\(RegularFile.reason(error)))")
            }
            descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard descriptor >= 0 else { throw .system(display, "opened", errno) }
        return FolderHandle(descriptor: descriptor, url: url, display: display, refusal: refusal)
    }

    /// The subfolder `name`, opened without following a link; created (and given `protection`) when
    /// missing and `create` is set.
    /// - Throws: `GroupFailure` when it is a link, not a folder, or cannot be opened or created.
    func folder(_ name: String, display: String, create: Bool, protection: GroupProtection) throws(GroupFailure) -> FolderHandle {
        var created = false
        for _ in 0..<3 {
            let descriptor = openFile(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 {
                let folder = FolderHandle(
                    descriptor: descriptor, url: url.appendingPathComponent(name, isDirectory: true), display: display, refusal: refusal)
                if created { protection.apply(to: descriptor, path: folder.url.path) }
                return folder
            }
            let code = errno
            if code == ENOENT, create {
                guard mkdirat(self.descriptor, name, 0o755) == 0 else {
                    if errno == EEXIST { continue }
                    throw .system(display, "created", errno)
                }
                created = true
                continue
            }
            switch kind(of: name) {
            case S_IFLNK?:
                throw GroupFailure(reason: "\(display) is a symbolic link: soundset writes only in real folders (replace the link with a folder)")
            case let kind? where kind != S_IFDIR:
                throw GroupFailure(reason: "\(display) is a file, not a folder: remove it")
            default:
                throw .system(display, "opened", code)
            }
        }
        throw GroupFailure(reason: "\(display) keeps changing while it is opened")
    }

    /// The file type (`S_IFREG`, `S_IFDIR`, `S_IFLNK` ...) of `name`, not following a link, or nil
    /// when there is nothing by that name.
    func kind(of name: String) -> mode_t? { info(name).map { $0.st_mode & S_IFMT } }

    /// `fstatat` of `name`, not following a link.
    func info(_ name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// The bytes of the regular file `name`, at most `maxBytes`: opened without following a link and
    /// without blocking (a FIFO would wait forever).
    func read(_ name: String, maxBytes: Int) throws(FileProblem) -> Data {
        let file = openFile(name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            if code == ELOOP || code == ENXIO { throw .notRegular }
            throw .system(code)
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0 else { throw .system(errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
        guard info.st_size <= maxBytes else { throw .tooLarge(Int(info.st_size), limit: maxBytes) }
        do { return try RegularFile.readBytes(Int(info.st_size), from: file) } catch { throw .system(error.code) }
    }

    /// The names in the folder (without `.` and `..`), or nil when it cannot be listed.
    func names() -> [String]? {
        let copy = dup(descriptor)
        guard copy >= 0 else { return nil }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return nil
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Writes `data` to a new temporary file beside `name` (`.<name>.<UUID>.tmp`, never through a
    /// link), gives it `protection`, and returns the temporary file's name; a failure leaves nothing.
    /// - Parameter durable: flush it to the disk before returning (`fsync`), so that a rename over
    ///   `name` after a power cut never leaves a file whose data had not reached the disk.
    func writeTemporary(for name: String, _ data: Data, protection: GroupProtection, durable: Bool = false) throws(GroupFailure) -> String {
        let temporary = ".\(name).\(UUID().uuidString).tmp"
        let file = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw .system("\(display)/\(name)", "written", errno) }
        protection.apply(to: file, path: url.appendingPathComponent(temporary).path)
        var failure: Int32?
        if let observer = TemporaryWrites.pageWritten {
            // A page at a time, told after each: the kill tests stop the process at every page.
            for offset in stride(from: 0, to: data.count, by: 4096) where failure == nil {
                failure = RegularFile.writeAll(data[(data.startIndex + offset)..<(data.startIndex + min(data.count, offset + 4096))], to: file)
                observer(name, min(data.count, offset + 4096))
            }
        } else {
            failure = RegularFile.writeAll(data, to: file)
        }
        if failure == nil, durable, fsync(file) != 0 { failure = errno }
        if close(file) != 0, failure == nil { failure = errno }
        if let failure {
            unlinkat(descriptor, temporary, 0)
            throw .system("\(display)/\(name)", "written", failure)
        }
        return temporary
    }

    /// Flushes the folder itself (its names) to the disk: after a rename, so that a power cut never
    /// brings back the name's old file.
    func sync() { fsync(descriptor) }

    /// Claims `name` for a file to be written later: creates its temporary file and holds a `flock`
    /// on it until the claim is filled or ends (with its process, when the process dies). Another
    /// process tells a writer at work from a dead one by that lock (`isClaimed`).
    func claim(_ name: String, protection: GroupProtection) throws(GroupFailure) -> FileClaim {
        let temporary = ".\(name).\(UUID().uuidString).tmp"
        let file = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw .system("\(display)/\(name)", "written", errno) }
        guard flock(file, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(file)
            unlinkat(descriptor, temporary, 0)
            throw .system("\(display)/\(name)", "locked", code)
        }
        protection.apply(to: file, path: url.appendingPathComponent(temporary).path)
        return FileClaim(folder: self, name: name, temporary: temporary, descriptor: file)
    }

    /// Whether a live process holds a claim on `name` (see `claim`): one of its temporary files is
    /// locked.
    func isClaimed(_ name: String) -> Bool { claimed(among: [name]).contains(name) }

    /// Those of `names` on which a live process holds a claim, from one listing of the folder.
    func claimed(among names: Set<String>) -> Set<String> {
        var claimed = Set<String>()
        for entry in self.names() ?? [] {
            guard let name = RegularFile.replacedName(ofTemporary: entry), names.contains(name), !claimed.contains(name) else { continue }
            let file = openFile(entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else { continue }
            if flock(file, LOCK_SH | LOCK_NB) != 0 { claimed.insert(name) }
            close(file)
        }
        return claimed
    }

    /// Renames `from` to `to` in this folder, in one step: readers see the old file or the new one.
    func rename(_ from: String, to: String) throws(GroupFailure) {
        guard renameat(descriptor, from, descriptor, to) == 0 else { throw .system("\(display)/\(to)", "written", errno) }
    }

    /// Opens (creating when missing, with `protection`) the regular file `name` for reading and
    /// writing, never through a link, without blocking: a lock file.
    /// - Returns: the descriptor.
    func openLockFile(_ name: String, protection: GroupProtection) throws(GroupFailure) -> Int32 {
        let what = "\(display)/\(name)"
        var file = openFile(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        if file >= 0 {
            protection.apply(to: file, path: url.appendingPathComponent(name).path)
        } else if errno == EEXIST {
            file = openFile(name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        }
        guard file >= 0 else {
            if errno == ELOOP || errno == ENXIO { throw GroupFailure(reason: "\(what) is not a regular file") }
            throw .system(what, "opened", errno)
        }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(file)
            throw GroupFailure(reason: "\(what) is not a regular file")
        }
        return file
    }

    /// Deletes `name` when it is a regular file: never a folder, never what a link points to.
    func remove(_ name: String) {
        guard kind(of: name) == S_IFREG else { return }
        unlinkat(descriptor, name, 0)
    }

    /// Moves `name` (whatever it is) into `aside` as `<name>.<stamp>.<UUID>`, out of the way of a file
    /// soundset must write there; nothing in it is deleted. The stamp (16 digits of microseconds
    /// since 1970, rising within a process) orders the entries for `keepNewestAside`.
    func moveAside(_ name: String, into aside: FolderHandle) throws(GroupFailure) {
        guard renameat(descriptor, name, aside.descriptor, "\(name).\(AsideStamp.next()).\(UUID().uuidString)") == 0 else {
            throw .system("\(display)/\(name)", "moved aside", errno)
        }
    }

    /// Deletes the oldest entries of this folder (`soundset/aside`) beyond the newest `limit`, whole:
    /// oldest by the stamp `moveAside` puts in their names (a name without one, from an earlier
    /// version, is older than any with one), then by name. Deletes at most `budget` files and
    /// folders; what is left is deleted by a later call.
    func keepNewestAside(_ limit: Int, budget: Int) {
        guard let names = names(), names.count > limit else { return }
        let oldest = names.map { (stamp: AsideStamp.of($0), name: $0) }.sorted { ($0.stamp, $0.name) < ($1.stamp, $1.name) }
        var budget = budget
        for entry in oldest.prefix(names.count - limit) where budget > 0 { _ = removeWhole(entry.name, budget: &budget, depth: 0) }
    }

    /// Deletes `name`, and when it is a folder everything in it first, never following a link, at
    /// most `budget` entries and 32 folders deep.
    /// - Returns: whether it is gone.
    func removeWhole(_ name: String, budget: inout Int, depth: Int = 0) -> Bool {
        guard let kind = kind(of: name) else { return true }
        guard budget > 0 else { return false }
        if kind == S_IFDIR {
            guard depth < 32 else { return false }
            let inner = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard inner >= 0 else { return false }
            let folder = FolderHandle(descriptor: inner, url: url.appendingPathComponent(name), display: "\(display)/\(name)", refusal: refusal)
            for entry in folder.names() ?? [] {
                guard folder.removeWhole(entry, budget: &budget, depth: depth + 1) else { return false }
            }
            guard budget > 0 else { return false }
        }
        budget -= 1
        return unlinkat(descriptor, name, kind == S_IFDIR ? AT_REMOVEDIR : 0) == 0 || errno == ENOENT
    }

    /// Gives `name` (a file or folder of soundset's own) `protection` again.
    /// - Returns: false when it exists but cannot be opened (protected data, before the first unlock).
    @discardableResult
    func protect(_ name: String, _ protection: GroupProtection) -> Bool {
        let file = openFile(name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return errno == ENOENT || errno == ELOOP }
        defer { close(file) }
        protection.apply(to: file, path: url.appendingPathComponent(name).path)
        return true
    }
}

/// A claimed file (`FolderHandle.claim`): its temporary file, locked while this lives. `fill` writes
/// the bytes, flushes them and renames the file into place; a claim never filled is removed.
final class FileClaim {
    let folder: FolderHandle
    let name: String
    let temporary: String
    private var descriptor: Int32
    private var filled = false

    fileprivate init(folder: FolderHandle, name: String, temporary: String, descriptor: Int32) {
        self.folder = folder
        self.name = name
        self.temporary = temporary
        self.descriptor = descriptor
    }

    /// Writes `data`, flushes it (a file in place is whole, even after a power cut) and renames it
    /// to its name; then the lock is let go.
    func fill(_ data: Data) throws(GroupFailure) {
        var failure = RegularFile.writeAll(data, to: descriptor)
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if let failure { throw .system("\(folder.display)/\(name)", "written", failure) }
        try folder.rename(temporary, to: name)
        filled = true
        close(descriptor)
        descriptor = -1
    }

    /// Lets the lock go before the file is written: when the process is about to be suspended, a
    /// lock held in the shared container gets it killed (0xdead10cc), and writing a few milliseconds
    /// unclaimed is the lesser risk.
    func unlock() { flock(descriptor, LOCK_UN) }

    deinit {
        if !filled { unlinkat(folder.descriptor, temporary, 0) }
        if descriptor >= 0 { close(descriptor) }
    }
}

/// The stamp in the name of what is moved aside: microseconds since 1970 in 16 digits, so names sort
/// by it, and never the same twice in a process (two moves within a microsecond, or a clock set back).
enum AsideStamp {
    // @unchecked: `last` is read and written under `lock` only.
    private final class Last: @unchecked Sendable {
        let lock = NSLock()
        var value: Int64 = 0
    }
    private static let last = Last()

    static func next() -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let stamp = last.lock.withLock { () -> Int64 in
            last.value = max(now, last.value + 1)
            return last.value
        }
        let digits = String(stamp)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// The stamp in an entry's name (`<name>.<stamp>.<UUID>`), or 0 when it has none.
    static func of(_ entry: String) -> Int64 {
        let parts = entry.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return 0 }
        let stamp = parts[parts.count - 2]
        guard stamp.utf8.count == 16, stamp.utf8.allSatisfy({ (48...57).contains($0) }) else { return 0 }
        return Int64(stamp) ?? 0
    }
}
