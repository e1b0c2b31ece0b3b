import Foundation
import SoundsetBuild
import SoundsetMicroHTTPD
import SoundsetServe
import SoundsetSetFolder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `soundset serve`: the set's announcements over HTTP, until SIGTERM or Ctrl-C.
enum ServeCommand {
    static let defaultListen = "127.0.0.1:8080"
    static let defaultConnections = 1000
    static let defaultCacheMB = 64
    static let defaultRequestTimeout = 10.0

    static let listen = Option.value(
        "--listen", "HOST:PORT", default: defaultListen,
        help: "the address to listen on; port 0 picks a free one; 0.0.0.0 or [::] listens on every interface")
    static let threads = Option.value(
        "--threads", "N", shown: "the number of cores",
        help: "threads answering requests, and as many more composing and encoding new announcements apart from them, first come first served "
            + "(never holding up another answer; a HEAD of an MP3 not made yet has no Content-Length)")
    static let connections = Option.value(
        "--connections", "N", default: String(defaultConnections), help: "connections open at once; past it an idle one is closed, or the new one refused")
    static let cacheMB = Option.value(
        "--cache-mb", "N", default: String(defaultCacheMB),
        help: "memory for composed announcements, MB; 0 keeps none (their lengths are remembered apart, for 304s and HEADs)")
    static let requestTimeout = Option.value(
        "--request-timeout", "SECONDS", default: "\(Int(defaultRequestTimeout))",
        help: "a request must arrive whole within this time of its connection opening (or of the previous response), or its connection is "
            + "closed; so is a connection idle that long")
    static let logFormat = Option.choice(
        "--log-format", ["text", "json"], default: "text",
        help: "access lines as text or one JSON object a line {time, client, requestId, method, target, status, bytes, durationMs}")
    static let accessLog = Option.value(
        "--access-log", "FILE", help: "append access lines to FILE instead of stderr (created when missing; reopened on SIGHUP)")
    static let quiet = Option(name: Option.quiet.name, help: "no access lines", notWith: accessLog.name)
    static let packs = Option.value(
        "--packs", "DIR",
        help: "also serve the voice packs in DIR (the *.pack files soundset pack writes, read again when they change): /v1/packs, "
            + "/v1/packs/VOICE.pack (the newest) and /v1/packs/VOICE/VERSION-SETID.pack (immutable)")

    static let voice = Option.voice.helping(
        "the voice the unversioned paths (/v1/announcements/..., /v1/plan/..., /v1/set) mean, when --output holds several (default: voices.json's defaultVoice)"
    )

    static let spec = CommandSpec(
        name: "serve", summary: "answer HTTP requests for announcements, plans and the set (web, mini-programs, Android)",
        arguments: .refusing("serve takes no AMOUNT or other argument"),
        options: [.output, voice, listen, threads, connections, cacheMB, requestTimeout, logFormat, accessLog, quiet, packs], about: Help.serveAbout,
        exitCodes: "exit codes: 0 stopped by SIGTERM or SIGINT, 1 cannot listen, 64 bad usage")

    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling) async throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        _ = try parsed.arguments()
        let (host, port) = try listenAddress(parsed.value(listen)!)
        let threads = try integer(parsed, Self.threads, default: ProcessInfo.processInfo.activeProcessorCount, 1...1024)
        let connections = try integer(parsed, Self.connections, default: max(defaultConnections, threads), threads...100_000)
        let cacheMB = try integer(parsed, Self.cacheMB, default: defaultCacheMB, 0...65_536)
        var requestTimeout = defaultRequestTimeout
        if let text = parsed.given(Self.requestTimeout) {
            guard let value = Double(text), value.isFinite, (0.1...3600).contains(value), text.allSatisfy({ $0.isNumber || $0 == "." }) else {
                throw UsageError("\(Self.requestTimeout.name) needs seconds from 0.1 to 3600, e.g. 10")
            }
            requestTimeout = value
        }
        let outputDisplay = parsed.value(.output)!
        let quiet = parsed.has(Self.quiet)
        let packsFolder = try ServeOperations.packsFolder(parsed)
        let chosenVoice = try Voices.name(parsed).map { _ in try Voices.setFolder(parsed, output: outputDisplay, spelling: spelling).voice }

        let accessLog = try ServeOperations.accessLog(parsed)
        defer { accessLog?.close() }
        let hangUp = ServeOperations.reopenOnHangUp(accessLog)
        defer { hangUp.cancel() }
        let trim = ServeOperations.trimAllocator()
        defer { trim.cancel() }
        let service = AnnouncementService(
            ServeSettings(
                output: URL(fileURLWithPath: outputDisplay), outputDisplay: outputDisplay, cacheBytes: cacheMB << 20, accessLog: accessLog,
                problemLog: { line in console.err(line) }, packs: packsFolder.map { URL(fileURLWithPath: $0) }, packsDisplay: packsFolder,
                voice: chosenVoice ?? nil))
        signal(SIGPIPE, SIG_IGN)
        raiseOpenFileLimit(to: MicroHTTPDFront.libraryConnections(for: connections) + 64)
        let stop = StopSignal.install()
        let front: any HTTPFront = MicroHTTPDFront()
        let bound: (host: String, port: Int)
        do {
            bound = try front.start(
                HTTPFrontSettings(
                    host: host, port: port, threads: threads, connections: connections, requestTimeout: requestTimeout, stopGrace: Self.stopGrace),
                handler: service)
        } catch {
            console.err("soundset: \(error)")
            return ExitCode.failure
        }
        let shownHost = bound.host.contains(":") ? "[\(bound.host)]" : bound.host
        switch service.servedSets() {
        case .success(let sets):
            console.out("listening on http://\(shownHost):\(bound.port) (\(sets))")
        case .failure(let problem):
            console.out("listening on http://\(shownHost):\(bound.port) (no valid set yet)")
            console.err("soundset: \(problem); /healthz answers 503 until a build puts a set there")
        }
        if let packs = service.servedPacks() { console.out(packs) }
        let number = await stop.wait()
        if !quiet { console.err("soundset: \(number == SIGINT ? "interrupted" : "terminated"): finishing the requests under way") }
        front.stop()
        return ExitCode.success
    }

    /// Raises the soft limit of open files towards `wanted` (a connection is a file), within the
    /// hard limit: 1024 is a common default, and 1000 connections need a few more.
    private static func raiseOpenFileLimit(to wanted: Int) {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        _ = setrlimit(resource, &limit)
    }

    /// `HOST:PORT`, `[IPv6]:PORT`.
    static func listenAddress(_ text: String) throws -> (String, Int) {
        let usage = UsageError("\(listen.name) needs HOST:PORT, e.g. 127.0.0.1:8080, 0.0.0.0:80 or [::1]:8080 (port 0 picks a free port)")
        guard let colon = text.lastIndex(of: ":") else { throw usage }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), port <= 65_535 else {
            throw usage
        }
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        } else if host.contains(":") {
            throw usage
        }
        guard !host.isEmpty, host.utf8.count <= 253, host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "/" }) else { throw usage }
        return (host, port)
    }

    private static func integer(_ parsed: Arguments, _ option: Option, default value: Int, _ range: ClosedRange<Int>) throws -> Int {
        guard let text = parsed.given(option) else { return value }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text), range.contains(number) else {
            throw UsageError("\(option.name) needs a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// Seconds stopping waits for requests under way: 5, or `SOUNDSET_SERVE_STOP_GRACE` (0 to 60).
    /// That variable is undocumented on purpose, for tests of what happens when the grace runs
    /// out (queued work answered 503); operators get no flag for it.
    static var stopGrace: Double {
        guard let text = ProcessInfo.processInfo.environment["SOUNDSET_SERVE_STOP_GRACE"], let seconds = Double(text), seconds.isFinite else {
            return 5
        }
        return min(60, max(0, seconds))
    }
}

/// SIGTERM and SIGINT, waited for once.
final class StopSignal: @unchecked Sendable {
    // @unchecked: `received` and `waiter` are guarded by `lock`; `sources` is set once, in `install`.
    private let lock = NSLock()
    private var received: Int32?
    private var waiter: CheckedContinuation<Int32, Never>?
    private var sources: [DispatchSourceSignal] = []

    static func install() -> StopSignal {
        let stop = StopSignal()
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signalled(number) }
            source.resume()
            stop.sources.append(source)
        }
        // The sources take the signals once libdispatch has put its handler in, which it does on a
        // thread of its own, later: a signal before that would be ignored (SIG_IGN), and the server
        // would never stop. Wait for the handlers (at most 2 s).
        for _ in 0..<2000 where [SIGINT, SIGTERM].contains(where: ignored) { usleep(1000) }
        return stop
    }

    /// Whether signal `number` is ignored (SIG_IGN) now.
    private static func ignored(_ number: Int32) -> Bool {
        var action = sigaction()
        guard sigaction(number, nil, &action) == 0 else { return false }
        #if canImport(Glibc)
            let handler = action.__sigaction_handler.sa_handler
        #else
            let handler = action.__sigaction_u.__sa_handler
        #endif
        return handler.map { unsafeBitCast($0, to: Int.self) == 1 } ?? false
    }

    private func signalled(_ number: Int32) {
        let waiting: CheckedContinuation<Int32, Never>? = lock.withLock {
            guard received == nil else { return nil }
            received = number
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(returning: number)
    }

    /// The first signal's number, once it comes.
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let already: Int32? = lock.withLock {
                if let received { return received }
                waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
