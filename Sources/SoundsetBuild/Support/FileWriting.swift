import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain file writes: create or truncate, write everything, close. No fsync: the build's durability
/// comes from writing a whole new folder and swapping it in, not from flushing each file.
enum FileWriting {
    /// Writes `data` to `url`.
    /// - Throws: `POSIXError` with the system's reason.
    static func write(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc_write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }
}

#if canImport(Glibc)
    private let Glibc_write = Glibc.write
#else
    private let Glibc_write = Darwin.write
#endif
