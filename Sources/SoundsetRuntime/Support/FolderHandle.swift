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
    func writeTemporary(for name: String, _ data: Data, protection: GroupProtection) throws(GroupFailure) -> String {
        let temporary = ".\(name).\(UUID().uuidString).tmp"
        let file = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw .system("\(display)/\(name)", "written", errno) }
        protection.apply(to: file, path: url.appendingPathComponent(temporary).path)
        var failure = RegularFile.writeAll(data, to: file)
        if close(file) != 0, failure == nil { failure = errno }
        if let failure {
            unlinkat(descriptor, temporary, 0)
            throw .system("\(display)/\(name)", "written", failure)
        }
        return temporary
    }

    /// Renames `from` to `to` in this folder, in one step: readers see the old file or the new one.
    func rename(_ from: String, to: String) throws(GroupFailure) {
        guard renameat(descriptor, from, descriptor, to) == 0 else { throw .system("\(display)/\(to)", "written", errno) }
    }

    /// Writes `data` under a temporary name and renames it over `name`.
    func replace(_ name: String, with data: Data, protection: GroupProtection) throws(GroupFailure) {
        let temporary = try writeTemporary(for: name, data, protection: protection)
        do { try rename(temporary, to: name) } catch {
            unlinkat(descriptor, temporary, 0)
            throw error
        }
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

    /// Writes `data` over the regular file `name`, in place, when it is at least as large: the rest
    /// is filled with spaces (what follows a JSON value may be white space), so no block is freed or
    /// allocated and nothing is renamed. Only for a file that is read and written under one lock
    /// (a reader never sees it half written); a writer killed midway leaves a file the reader
    /// finds corrupt. On ext4, replacing a file by rename flushes its data first: 1.3-2.9 ms a save
    /// on this machine, against 0.03 ms in place (`make bench`: the decision's hold).
    /// - Returns: false when it must be replaced instead (missing, not a regular file, too small,
    ///   or four times larger than `data`, so that it shrinks).
    func overwrite(_ name: String, with data: Data) throws(GroupFailure) -> Bool {
        let file = openFile(name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == EPERM || errno == EACCES { throw .system("\(display)/\(name)", "written", errno) }
            return false
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) >= data.count, Int(info.st_size) < 4 * max(data.count, 4096)
        else { return false }
        var bytes = data
        bytes.append(Data(repeating: UInt8(ascii: " "), count: Int(info.st_size) - data.count))
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = pwrite(file, raw.baseAddress! + offset, raw.count - offset, off_t(offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .system("\(display)/\(name)", "written", failure) }
        return true
    }

    /// Deletes `name` when it is a regular file: never a folder, never what a link points to.
    func remove(_ name: String) {
        guard kind(of: name) == S_IFREG else { return }
        unlinkat(descriptor, name, 0)
    }

    /// Moves `name` (whatever it is) into `aside` as `<name>.<UUID>`, out of the way of a file soundset
    /// must write there; nothing in it is deleted.
    func moveAside(_ name: String, into aside: FolderHandle) throws(GroupFailure) {
        guard renameat(descriptor, name, aside.descriptor, "\(name).\(UUID().uuidString)") == 0 else {
            throw .system("\(display)/\(name)", "moved aside", errno)
        }
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
