import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and replacing files without trusting what is on disk: only regular files are read (a
/// FIFO would block forever, a device never end), never more than a stated size, and a file is
/// replaced by `rename(2)`, which is atomic on every system (Foundation's `replaceItemAt` is not, on
/// Linux).
public enum RegularFile {
    /// Why a file could not be read or written: a short reason in words, such as `is missing`,
    /// `is not a regular file` or `no space left on device`, and its kind, which callers branch on
    /// (never on the words).
    public struct Failure: Error, Equatable {
        /// What kind of failure it is.
        public enum Kind: Sendable, Equatable {
            /// There is no such file.
            case missing
            /// It is a folder, a FIFO, a device or a socket.
            case notRegularFile
            /// It is a symbolic link, where none is followed.
            case symbolicLink
            /// It is larger than the caller allows.
            case tooLarge
            /// The system refused (permission, space, I/O); the reason says which.
            case system
        }

        public var kind: Kind
        public var reason: String
        public init(reason: String, kind: Kind = .system) {
            self.reason = reason
            self.kind = kind
        }

        /// The failure of a file that is not there.
        public static let missing = Failure(reason: "is missing", kind: .missing)
    }

    /// The first `count` bytes of the regular file at `url` (all of it when it is shorter), and its
    /// size: what a file's header says, without reading the rest.
    /// - Parameter followingLinks: false refuses a symbolic link (a folder soundset owns is never
    ///   left through one).
    /// - Throws: `Failure` when it is missing, not a regular file or unreadable.
    public static func head(_ url: URL, count: Int, followingLinks: Bool = true) throws(Failure) -> (bytes: Data, size: Int) {
        let descriptor = try openRegular(url, followingLinks: followingLinks)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(reason: "cannot be read (\(systemReason(errno)))") }
        return (try readUpTo(min(count, Int(info.st_size)), from: descriptor), Int(info.st_size))
    }

    /// The bytes of the regular file at `url`, at most `maxBytes` of them.
    /// - Throws: `Failure` when it is missing, not a regular file, larger than `maxBytes` or unreadable.
    public static func read(_ url: URL, maxBytes: Int, followingLinks: Bool = true) throws(Failure) -> Data {
        let descriptor = try openRegular(url, followingLinks: followingLinks)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(reason: "cannot be read (\(systemReason(errno)))") }
        guard info.st_size <= maxBytes else { throw Failure(reason: "is \(info.st_size) bytes, more than the \(maxBytes) allowed", kind: .tooLarge) }
        return try readUpTo(Int(info.st_size), from: descriptor)
    }

    /// A system call's failure: its errno.
    struct SystemError: Error {
        var code: Int32
    }

    /// Up to `count` bytes from `descriptor`: fewer when the file ends first (it shrank while it
    /// was read, and is read as it now is).
    private static func readUpTo(_ count: Int, from descriptor: Int32) throws(Failure) -> Data {
        do { return try readBytes(count, from: descriptor) } catch {
            throw Failure(reason: "cannot be read (\(systemReason(error.code)))")
        }
    }

    /// `readUpTo(_:from:)` with the errno of a failure.
    static func readBytes(_ count: Int, from descriptor: Int32) throws(SystemError) -> Data {
        var data = Data(count: count)
        var total = 0
        let failure: Int32? = data.withUnsafeMutableBytes { raw in
            while total < raw.count {
                let got = systemRead(descriptor, raw.baseAddress! + total, raw.count - total)
                if got < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if got == 0 { break }
                total += got
            }
            return nil
        }
        if let failure { throw SystemError(code: failure) }
        if total < data.count { data.removeSubrange(total...) }
        return data
    }

    /// Reads the regular file at `url` in chunks of `chunk` bytes, handing each to `body`: a file of
    /// any size in constant memory.
    /// - Throws: `Failure` when it is missing, not a regular file or unreadable.
    public static func stream(_ url: URL, chunk: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) -> Void) throws(Failure) {
        let descriptor = try openRegular(url)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: chunk)
        let failure: Int32? = buffer.withUnsafeMutableBytes { raw in
            while true {
                let count = systemRead(descriptor, raw.baseAddress!, raw.count)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { return nil }
                body(UnsafeRawBufferPointer(rebasing: raw[..<count]))
            }
        }
        if let failure { throw Failure(reason: "cannot be read (\(systemReason(failure)))") }
    }

    /// A descriptor of the regular file at `url`, opened without blocking (a FIFO would wait for a
    /// writer forever), with its size.
    private static func openRegular(_ url: URL, followingLinks: Bool = true) throws(Failure) -> Int32 {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            if errno == ELOOP, !followingLinks { throw Failure(reason: "is a symbolic link", kind: .symbolicLink) }
            throw errno == ENOENT ? .missing : Failure(reason: "cannot be read (\(systemReason(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(reason: "cannot be read (\(systemReason(code)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(reason: "is not a regular file", kind: .notRegularFile)
        }
        return descriptor
    }

    /// Deletes the file at `url` when it is a regular file: never a folder, never through a link.
    public static func remove(_ url: URL) {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        unlink(url.path)
    }

    /// The name of the file a temporary file of `replace` was to become, or nil when `name` is not
    /// one: `.<name>.<UUID>.tmp`.
    public static func replacedName(ofTemporary name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), name.utf8.count > 42 else { return nil }
        let inner = name.dropFirst().dropLast(4)
        let uuid = inner.suffix(36)
        guard UUID(uuidString: String(uuid)) != nil, inner.dropLast(36).hasSuffix(".") else { return nil }
        return String(inner.dropLast(37))
    }

    /// Writes `data` to `url`, created or truncated: for files nobody reads before the writer is done
    /// (a staging folder's, a cache entry); `replace` is for the others. No fsync: durability comes
    /// from writing a whole new folder and swapping it in, not from flushing each file. Opened
    /// without blocking and never through a link: a FIFO or a link put in the file's place is an
    /// error, not a hang or a write elsewhere.
    /// - Throws: `Failure` with the system's reason.
    public static func write(_ data: Data, to url: URL) throws(Failure) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(reason: systemReason(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(reason: "is not a regular file", kind: .notRegularFile)
        }
        guard ftruncate(descriptor, 0) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(reason: systemReason(code))
        }
        var failure = writeAll(data, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure { throw Failure(reason: systemReason(failure)) }
    }

    /// Writes every byte of `data` to `descriptor`: nil, or the errno that stopped it.
    static func writeAll(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Writes `data` to a new file beside `url` and renames it over `url`: readers see the old file or
    /// the new one, never part of either, and a failure leaves `url` as it was.
    /// - Throws: `Failure` with the system's reason (no space left, permission denied ...).
    public static func replace(_ url: URL, with data: Data) throws(Failure) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(reason: systemReason(errno)) }
        var failure = writeAll(data, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary.path)
            throw Failure(reason: systemReason(failure))
        }
    }

    /// The system's reason inside a Foundation error, lower-cased.
    public static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return systemReason(Int32(posix.code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return systemReason(Int32(nsError.code)) }
        // Foundation's own codes for the system's errors, in the system's words.
        if nsError.domain == NSCocoaErrorDomain {
            let codes: [Int: Int32] = [
                CocoaError.fileNoSuchFile.rawValue: ENOENT, CocoaError.fileReadNoSuchFile.rawValue: ENOENT,
                CocoaError.fileWriteNoPermission.rawValue: EACCES, CocoaError.fileReadNoPermission.rawValue: EACCES,
                CocoaError.fileWriteOutOfSpace.rawValue: ENOSPC, CocoaError.fileWriteVolumeReadOnly.rawValue: EROFS,
                CocoaError.fileWriteFileExists.rawValue: EEXIST,
            ]
            if let code = codes[nsError.code] { return systemReason(code) }
        }
        let text = nsError.localizedDescription
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The system's words for `code`, lower-cased: `no space left on device`.
    public static func systemReason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

/// `read(2)` and `write(2)`, which the names of `RegularFile`'s own functions hide.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
    #else
        Darwin.read(descriptor, buffer, count)
    #endif
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #else
        Darwin.write(descriptor, buffer, count)
    #endif
}
