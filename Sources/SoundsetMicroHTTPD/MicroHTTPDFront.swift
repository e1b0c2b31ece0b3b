internal import CMicroHTTPD
import Foundation
import SoundsetServe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The HTTP front over libmicrohttpd: its own pool of threads (each running an event loop over
/// its share of the connections, answering one request at a time), and on top of them the request
/// deadline and the connection limit libmicrohttpd lacks (`ConnectionTable`: it only stops
/// accepting at its limit, set higher here).
///
/// libmicrohttpd hands the request target over as sent (an unescape callback that changes
/// nothing): the handler decodes it, once, strictly. `HEAD` gets the `GET` response's headers and
/// `Content-Length` without its body (libmicrohttpd leaves it out).
public final class MicroHTTPDFront: HTTPFront, @unchecked Sendable {
    // @unchecked: `daemon`, `context` and `watchdog` are set by `start` and cleared by `stop`,
    // which the owner calls from one thread, one after the other.
    private var daemon: Daemon?
    private var context: FrontContext?
    private var watchdog: Thread?

    public init() {}

    /// The connections libmicrohttpd itself is allowed for `connections` (`--connections`): more,
    /// so that it goes on accepting at the limit and the front makes room (`ConnectionTable`),
    /// and sockets shut down meanwhile do not stop it. Open files needed: this and a few more.
    public static func libraryConnections(for connections: Int) -> Int { connections + max(64, connections / 4) }

    deinit { stop() }

    public func start(_ settings: HTTPFrontSettings, handler: any HTTPHandler) throws(HTTPFrontError) -> (host: String, port: Int) {
        let context = FrontContext(handler: handler, settings: settings)
        let daemon: Daemon
        do { daemon = try Daemon(settings, context: context) } catch {
            context.workers.close()
            throw error
        }
        self.daemon = daemon
        self.context = context
        let tick = min(0.1, settings.requestTimeout / 10)
        let watchdog = Thread { [context] in
            while !context.isStopped {
                Thread.sleep(forTimeInterval: tick)
                context.connections.expire(after: settings.requestTimeout)
            }
        }
        watchdog.name = "soundset-serve-deadline"
        watchdog.start()
        self.watchdog = watchdog
        return (settings.host, daemon.port)
    }

    public func stop() {
        guard let daemon, let context else { return }
        context.beginStopping()
        let listening = daemon.quiesce()
        let deadline = ConnectionTable.now() + context.settings.stopGrace
        // Connections the system has accepted and the library not yet (a client's request may wait
        // in them) are handed to it, to be answered as the others; then the socket stops listening,
        // so new connections are refused (closed only once the daemon is stopped, below).
        let openedBefore = context.connections.opened
        let added = listening >= 0 ? daemon.adoptWaiting(on: listening) : 0
        if listening >= 0 { _ = shutdown(listening, Int32(SHUT_RDWR)) }
        while (context.connections.opened < openedBefore + added || context.connections.underWay() > 0) && ConnectionTable.now() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        // Every suspended connection resumed (libmicrohttpd cannot stop with one): the encodes
        // running finish, the queued ones are answered 503 with Retry-After. Each resumed answer
        // is written by the daemon's thread on its next pass, so the daemon stops only once every
        // request handed to the handler is answered (or, at most a second on, its client too slow
        // to take it: closed unanswered, and logged as aborted).
        context.workers.close()
        let answering = ConnectionTable.now() + 1
        while context.connections.handlingCount() > 0 && ConnectionTable.now() < answering { Thread.sleep(forTimeInterval: 0.005) }
        daemon.stop()  // every connection closed, every thread joined
        self.daemon = nil
        if listening >= 0 { close(listening) }  // only now: a thread of the daemon may have used it
        context.finish()
        self.context = nil
        watchdog = nil
    }
}

/// What libmicrohttpd's callbacks reach through their closure pointer.
final class FrontContext: @unchecked Sendable {
    // @unchecked: `handler`, `settings` and `connections` are immutable or thread-safe; the flag
    // is read and written holding `lock`.
    let handler: any HTTPHandler
    let settings: HTTPFrontSettings
    let connections: ConnectionTable
    /// Where `HTTPAnswer.later` work runs, its connection suspended meanwhile.
    let workers: WorkPool
    private let lock = NSLock()
    private var stopped = false

    init(handler: any HTTPHandler, settings: HTTPFrontSettings) {
        self.handler = handler
        self.settings = settings
        connections = ConnectionTable(limit: settings.connections)
        workers = WorkPool(threads: settings.workers, name: "soundset-serve-work")
    }

    var isStopped: Bool { lock.withLock { stopped } }
    /// Stopping has begun: every response says `Connection: close` (`ConnectionTable.responded`).
    func beginStopping() { connections.beginStopping() }
    func finish() { lock.withLock { stopped = true } }
}

/// An `MHD_Daemon`: started in `init`, stopped (every connection closed, every thread joined) by
/// `stop` or in `deinit`.
private final class Daemon {
    private let handle: OpaquePointer
    /// Retained for the daemon's life: the callbacks' closure.
    private let context: Unmanaged<FrontContext>
    let port: Int

    init(_ settings: HTTPFrontSettings, context: FrontContext) throws(HTTPFrontError) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(settings.host, String(settings.port), &hints, &found)
        guard status == 0, let address = found else {
            throw HTTPFrontError("cannot listen on \(settings.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_AUTO.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.pointee.ai_family == AF_INET6 { flags |= MHD_USE_IPv6.rawValue }
        let retained = Unmanaged.passRetained(context)
        guard
            let handle = soundset_mhd_start(
                flags, address.pointee.ai_addr, UInt32(settings.threads), UInt32(MicroHTTPDFront.libraryConnections(for: settings.connections)),
                UInt32(max(1, settings.requestTimeout.rounded(.up))), accessHandler, uriLogged, connectionNotified, requestCompleted, leaveEscaped,
                retained.toOpaque())
        else {
            retained.release()
            throw HTTPFrontError(
                "cannot listen on \(settings.host):\(settings.port) (\(RegularFileReason.current())): is another server using the port?")
        }
        self.handle = handle
        self.context = retained
        port = Int(soundset_mhd_bound_port(handle))
    }

    /// Stops accepting connections (`MHD_quiesce_daemon`); returns the listening socket, to close
    /// once the daemon is stopped, or -1.
    func quiesce() -> Int32 { Int32(MHD_quiesce_daemon(handle)) }

    /// Accepts every connection waiting on `listening` (the daemon quiesced, no thread of it
    /// accepts any more) and hands each to the daemon.
    /// - Returns: how many it took.
    func adoptWaiting(on listening: Int32) -> Int {
        _ = fcntl(listening, F_SETFL, fcntl(listening, F_GETFL) | O_NONBLOCK)
        var count = 0
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listening, $0, &length) }
            }
            guard socket >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return count
            }
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)  // (the library makes it non-blocking)
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(handle, socket, $0, length) }
            }
            if added == .YES { count += 1 }  // (refused, it is closed by the library)
        }
    }

    private var stopped = false

    /// Stops the daemon (`MHD_stop_daemon`): every connection closed, every thread joined.
    func stop() {
        guard !stopped else { return }
        stopped = true
        MHD_stop_daemon(handle)
        context.release()
    }

    deinit { stop() }
}

/// The system's reason for the last failed call.
private enum RegularFileReason {
    static func current() -> String {
        let text = String(cString: strerror(errno))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}

// MARK: - libmicrohttpd's callbacks: C function pointers, which find the front through `cls`.

private func frontContext(_ cls: UnsafeMutableRawPointer?) -> FrontContext { Unmanaged<FrontContext>.fromOpaque(cls!).takeUnretainedValue() }

private func key(_ connection: OpaquePointer?) -> UInt { UInt(bitPattern: connection.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0) }

/// Leaves the target as sent: the handler decodes it itself (`MHD_OPTION_UNESCAPE_CALLBACK`).
private let leaveEscaped: soundset_mhd_unescape = { _, _, text in strlen(text!) }

/// The request line has arrived (`MHD_OPTION_URI_LOG_CALLBACK`): its target as sent, query
/// included, up to any NUL byte in it (the access handler puts the rest back: the handler refuses
/// it, a target cut at its NUL would be another target).
private let uriLogged: soundset_mhd_uri_log = { cls, uri, connection in
    let length = uri.map { strlen($0) } ?? 0
    let target = uri.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""
    frontContext(cls).connections.requestLine(key(connection), target: target, bytes: length)
    return nil
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    let context = frontContext(cls)
    if code == .CONNECTION_NOTIFY_STARTED {
        let socket = soundset_mhd_connection_fd(connection)
        let client = peerAddress(socket)
        if context.connections.opened(key(connection), socket: socket, client: client) == .refused { refuse(socket, client: client, context: context) }
        context.handler.connectionsChanged(by: 1)
    } else {
        context.connections.closed(key(connection))
        context.handler.connectionsChanged(by: -1)
    }
}

/// Answers a connection over the limit with every other one busy: 503, and its sending side shut
/// down (the client reads the 503 to its end, then leaves, and the library closes the connection;
/// shutting down the reading side too could make the close a reset that discards the 503);
/// logged as a request `-` for `(connection-limit)`, with the client's address.
private func refuse(_ socket: Int32, client: String, context: FrontContext) {
    let body =
        "{\"error\": \"too many connections: \(context.settings.connections) are open, each with a request under way\", "
        + "\"hint\": \"try again shortly\"}\n"
    let response =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        + "Retry-After: 1\r\nConnection: close\r\n\r\n" + body
    #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
    #else
        let flags = Int32(MSG_DONTWAIT)
    #endif
    let sent = response.utf8CString.withUnsafeBufferPointer { send(socket, $0.baseAddress!, $0.count - 1, flags) }
    _ = shutdown(socket, Int32(SHUT_WR))
    context.handler.completed(
        HTTPExchange(
            method: "-", target: "(connection-limit)", status: 503, bytes: sent == response.utf8.count ? body.utf8.count : 0, seconds: 0,
            client: client))
}

/// The status an access line and the metrics give a request handed to the handler whose response
/// was never sent whole: its client left (before its work ran, or while it was written), or the
/// server stopped first. nginx's "client closed request"; counted as `other`.
let abortedStatus = 499

private let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, requestContext, termination in
    let context = frontContext(cls)
    // A request closed with its work's answer unsent (the daemon stopping right after the resume).
    if let pointer = requestContext?.pointee, PendingAnswer.holds(pointer) {
        Unmanaged<PendingAnswer>.fromOpaque(pointer).release()
        requestContext!.pointee = nil
    }
    guard let entry = context.connections.completed(key(connection)) else { return }
    let refused = entry.phase != .handling
    // What responded() recorded is what was queued, not what was sent: a request ended any other
    // way than with its response sent whole is logged as aborted, with no bytes.
    let aborted = !refused && termination != .REQUEST_TERMINATED_COMPLETED_OK
    let status = refused ? Int(soundset_mhd_connection_status(connection)) : aborted ? abortedStatus : entry.status
    guard status != 0 else { return }
    context.handler.completed(
        HTTPExchange(
            method: entry.method.isEmpty ? "-" : entry.method, target: entry.target, status: status, bytes: aborted ? 0 : entry.bytes,
            seconds: ConnectionTable.now() - entry.started, client: entry.client, requestID: entry.requestID))
}

/// Answers a request once it has arrived whole: libmicrohttpd calls this once when the header is
/// in, then with any body in pieces, then once more with nothing left. A response queued at the
/// first call makes libmicrohttpd close the connection after it, which is what a method refused
/// (perhaps with a body on its way) gets; GET and HEAD are answered at the last call, keeping the
/// connection open for the next request. A body is dropped as it comes. Until the answer the
/// request is still arriving, under the deadline.
/// The methods answered once the request is whole; any other is answered at once.
private let waitsForBody: Set<String> = ["GET", "HEAD", "OPTIONS"]

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, _, uploadSize, requestContext in
    let context = frontContext(cls)
    let methodName = method.map { String(cString: $0) } ?? ""
    if let pointer = requestContext!.pointee, PendingAnswer.holds(pointer) {
        // Resumed: the work is done, its response is sent from here, libmicrohttpd's thread.
        let pending = Unmanaged<PendingAnswer>.fromOpaque(pointer).takeRetainedValue()
        requestContext!.pointee = UnsafeMutableRawPointer(bitPattern: 2)
        // The client left before the work ran: nothing to send, the connection closed.
        guard !pending.clientGone else { return .NO }
        return send(pending.response ?? PendingAnswer.stopping, on: connection, context: context, head: methodName == "HEAD", requestID: pending.requestID)
    }
    let first = requestContext!.pointee == nil
    if first { requestContext!.pointee = UnsafeMutableRawPointer(bitPattern: 1) }
    if uploadSize!.pointee > 0 {
        uploadSize!.pointee = 0
        return .YES
    }
    // Content-Length fields that disagree are answered at once (400, and the connection closed), before
    // any body is read by one of them.
    let answerNow =
        first
        ? !waitsForBody.contains(methodName) || soundset_mhd_lengths_disagree(connection) != 0
        : requestContext!.pointee == UnsafeMutableRawPointer(bitPattern: 1)
    guard answerNow else { return .YES }
    requestContext!.pointee = UnsafeMutableRawPointer(bitPattern: 2)
    guard var (target, _, targetBytes) = context.connections.handling(key(connection), method: methodName) else { return .NO }
    // A raw NUL in the target: the library hands it over as a C string, cut at the NUL (and the
    // URI log callback saw it so). The target as received is longer: its rest is put back, for
    // the handler to refuse (a control byte: 400) and the access line to show (a `?`, `&` or `=`
    // after the NUL may show as `\0`: the library has parsed the query in place).
    let received = soundset_mhd_target_length(url, version)
    if received > targetBytes, let url {
        let rest = UnsafeRawBufferPointer(start: url + targetBytes, count: received - targetBytes)
        target += String(decoding: rest, as: UTF8.self)
        context.connections.setTarget(key(connection), target)
    }
    let headers = HeaderBag()
    let bag = Unmanaged.passUnretained(headers).toOpaque()
    _ = MHD_get_connection_values(
        connection, .HEADER_KIND,
        { bag, _, name, value in
            guard let name, let value else { return .YES }
            Unmanaged<HeaderBag>.fromOpaque(bag!).takeUnretainedValue().add(String(cString: name), String(cString: value))
            return .YES
        }, bag)
    let requestID = RequestID.accepting(headers.fields["x-request-id"]) ?? RequestID.next()
    switch context.handler.answer(to: HTTPRequest(method: methodName, target: target, headers: headers.fields)) {
    case .now(let response):
        return send(response, on: connection, context: context, head: methodName == "HEAD", requestID: requestID)
    case .later(let work):
        // Work (composing, encoding) runs on the workers, the connection suspended: this thread
        // goes on answering its other connections, and takes this one up again when resumed.
        let pending = PendingAnswer(requestID: requestID)
        requestContext!.pointee = Unmanaged.passRetained(pending).toOpaque()
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(handle: connection, socket: soundset_mhd_connection_fd(connection))
        context.workers.submit(
            {
                // libmicrohttpd does not watch a suspended connection: a client gone meanwhile is
                // seen here, and its work is not done.
                if suspended.clientGone { pending.clientGone = true } else { pending.response = work() }
                MHD_resume_connection(suspended.handle)
            },
            abandon: {
                pending.response = PendingAnswer.stopping
                MHD_resume_connection(suspended.handle)
            })
        return .YES
    }
}

/// A connection's answer made by the workers while the connection is suspended: written by the
/// worker before it resumes the connection, read by libmicrohttpd's thread after.
private final class PendingAnswer: @unchecked Sendable {
    var response: HTTPResponse?
    /// The client had left when the work's turn came: the work was skipped.
    var clientGone = false
    let requestID: String

    init(requestID: String) { self.requestID = requestID }

    /// Whether a request's context is a `PendingAnswer` (not one of the access handler's markers).
    static func holds(_ pointer: UnsafeMutableRawPointer) -> Bool { Int(bitPattern: pointer) > 2 }

    /// What a queued encode answers when the server stops before it runs.
    static let stopping = HTTPResponse(
        status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "1")],
        body: ResponseBody(Data(#"{"error":"the server is stopping","hint":"ask again in a moment"}"#.utf8 + [0x0A])))
}

/// A suspended connection, handed to the worker that resumes it (`MHD_resume_connection` may be
/// called from any thread).
private struct SuspendedConnection: @unchecked Sendable {
    let handle: OpaquePointer?
    /// Its socket (open while the connection is suspended: the library closes none of those).
    let socket: Int32

    /// Whether the client has closed its side: the socket reads as ended, with no byte waiting
    /// (a next request pipelined behind this one, or a client that has not closed, reads otherwise).
    var clientGone: Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }
}

private func send(_ response: HTTPResponse, on connection: OpaquePointer?, context: FrontContext, head: Bool, requestID: String) -> MHD_Result {
    if response.lengthUnknown && head {
        guard let made = soundset_mhd_unknown_length_response() else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
        _ = MHD_add_response_header(made, "X-Request-Id", requestID)
        _ = context.connections.responded(key(connection), status: response.status, bytes: 0, requestID: requestID)
        return MHD_queue_response(connection, UInt32(response.status), made)
    }
    let body = response.body
    let made: OpaquePointer?
    if let length = response.bodyLength {
        made = lengthOnlyResponse(length)
    } else {
        let retained = Unmanaged.passRetained(body)
        made = MHD_create_response_from_buffer_with_free_callback_cls(
            body.count, UnsafeMutableRawPointer(mutating: body.pointer), { Unmanaged<ResponseBody>.fromOpaque($0!).release() }, retained.toOpaque())
        if made == nil { retained.release() }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    // (withCString: a native string's own bytes, where passing the String would copy it.)
    for (name, value) in response.headers { _ = name.withCString { name in value.withCString { MHD_add_response_header(made, name, $0) } } }
    let stopping = context.connections.responded(
        key(connection), status: response.status, bytes: head || response.status == 304 || response.bodyLength != nil ? 0 : body.count, requestID: requestID)
    if stopping { _ = MHD_add_response_header(made, "Connection", "close") }
    _ = MHD_add_response_header(made, "X-Request-Id", requestID)
    return MHD_queue_response(connection, UInt32(response.status), made)
}

/// A response of `length` bytes whose body is not in hand (`HTTPResponse.bodyLength`), for a `304` or
/// the answer to a `HEAD`: libmicrohttpd sends `Content-Length: length` and, for those, never reads
/// the body; were it ever asked for (it is not sent for a HEAD or a 304), the reader ends the
/// connection with an error rather than send bytes that are not the body.
private func lengthOnlyResponse(_ length: Int) -> OpaquePointer? {
    MHD_create_response_from_callback(UInt64(length), 1024, { _, _, _, _ in -2 /* MHD_CONTENT_READER_END_WITH_ERROR */ }, nil, nil)
}

/// The request's header fields, collected by `MHD_get_connection_values`.
private final class HeaderBag {
    var fields: [String: String] = [:]

    func add(_ name: String, _ value: String) {
        let lower = name.lowercased()
        if let earlier = fields[lower] { fields[lower] = earlier + ", " + value } else { fields[lower] = value }
    }
}
