internal import CSystem
import Foundation
import SoundsetServe
import SoundsetSetFolder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `soundset serve` sets up for operators beside the server itself: the access log and its
/// reopening on SIGHUP, and the allocator's trimming.
enum ServeOperations {
    static let logFormatUsage = "\(ServeCommand.logFormat.name) needs text or json"

    /// The access log the options ask for, or nil for `--quiet`.
    static func accessLog(_ parsed: Arguments) throws -> AccessLog? {
        let format =
            try parsed.given(ServeCommand.logFormat).map { text in
                guard let format = AccessLogFormat(rawValue: text) else { throw UsageError(logFormatUsage) }
                return format
            } ?? .text
        let file = parsed.given(ServeCommand.accessLog)
        let quiet = ServeCommand.quiet.name
        if parsed.has(ServeCommand.quiet) {
            guard file == nil else { throw UsageError("\(quiet) writes no access log: leave out \(ServeCommand.accessLog.name), or \(quiet)") }
            return nil
        }
        if let file, file.isEmpty { throw UsageError("\(ServeCommand.accessLog.name) needs a file name") }
        return try AccessLog(format: format, destination: file.map { .file($0) } ?? .standardError)
    }

    /// The folder `--packs` names, when given: it must be a folder (a typo would serve no pack).
    static func packsFolder(_ parsed: Arguments) throws -> String? {
        guard let folder = parsed.given(ServeCommand.packs) else { return nil }
        var isFolder: ObjCBool = false
        guard !folder.isEmpty, FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError(
                "\(ServeCommand.packs.name) \(CommandSpelling.shellWord(folder)) is not a folder: name the folder soundset pack wrote the packs to")
        }
        return folder
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

    /// Returns the allocator's free pages to the system every `interval` seconds. Composed
    /// announcements (40 KB to 1 MB each) are allocated among the short-lived buffers that compose
    /// them; when the cache drops one, glibc keeps its pages in the holes it leaves, so the resident
    /// set grew to about twice `--cache-mb`. `malloc_trim(0)` gives back every free page inside the
    /// heaps, on a background thread; a fixed `mmap` threshold bounded the set as
    /// well but cost a third of distinct-WAV throughput (a mapping and page faults per body).
    /// The returned source must be kept.
    static func trimAllocator(every interval: Double = 2) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(500))
        timer.setEventHandler { soundset_trim_allocator() }
        timer.resume()
        return timer
    }
}
