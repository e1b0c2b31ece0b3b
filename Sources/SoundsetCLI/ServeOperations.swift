internal import CSystem
import Foundation
import SoundsetServe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `soundset serve` sets up for operators beside the server itself: the access log and its
/// reopening on SIGHUP, and the allocator's limits.
enum ServeOperations {
    static let logFormatUsage = "--log-format needs text or json"

    /// The access log the options ask for, or nil for `--quiet`.
    static func accessLog(_ parsed: Arguments) throws -> AccessLog? {
        let format = try parsed.options["--log-format"].map { text in
            guard let format = AccessLogFormat(rawValue: text) else { throw UsageError(logFormatUsage) }
            return format
        } ?? .text
        let file = parsed.options["--access-log"]
        if parsed.flags.contains("--quiet") {
            guard file == nil else { throw UsageError("--quiet writes no access log: leave out --access-log, or --quiet") }
            return nil
        }
        if let file, file.isEmpty { throw UsageError("--access-log needs a file name") }
        return try AccessLog(format: format, destination: file.map { .file($0) } ?? .standardError)
    }

    /// SIGHUP reopens `log`'s file (after a rotation renamed it); it never stops the server, with or
    /// without a log. The returned source must be kept.
    static func reopenOnHangUp(_ log: AccessLog?) -> DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { log?.reopen() }
        source.resume()
        return source
    }

    /// Keeps the allocator from holding much more than the cache: glibc gives each thread that
    /// allocates at once an arena of its own (up to 8 a core), and after a large block is freed it
    /// raises the size it serves from those arenas rather than from `mmap`, up to 32 MiB; composed
    /// announcements (40 KB to 1 MB each) then stay in arenas whose freed holes the next ones do
    /// not fit. A fixed `mmap` threshold of 128 KiB gives every large body its own mapping, returned
    /// whole when it is dropped, and two arenas a core bound the rest. `MALLOC_ARENA_MAX` and
    /// `MALLOC_MMAP_THRESHOLD_` in the environment still win.
    static func limitAllocator() {
        let environment = ProcessInfo.processInfo.environment
        soundset_limit_allocator(
            environment["MALLOC_MMAP_THRESHOLD_"] == nil ? Int32(128 << 10) : 0,
            environment["MALLOC_ARENA_MAX"] == nil ? Int32(2 * ProcessInfo.processInfo.activeProcessorCount) : 0)
    }
}
