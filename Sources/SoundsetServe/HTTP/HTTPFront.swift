/// What answers requests: the server's logic, which a front calls on its own threads.
public protocol HTTPHandler: Sendable {
    /// The response to `request`. Called on one of the front's threads, any number at once.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The response to `request` now, or the work that makes it (an announcement to compose and
    /// encode), which the front
    /// runs on its workers, off the threads that accept and answer everything else. Called on one
    /// of the front's threads; by default, `respond(to:)` now.
    func answer(to request: HTTPRequest) -> HTTPAnswer
    /// Told once a response was sent (or its connection closed), with what was sent.
    func completed(_ exchange: HTTPExchange)
    /// Told when a connection opens (`delta` 1) or closes (-1), on the front's threads.
    func connectionsChanged(by delta: Int)
}

extension HTTPHandler {
    public func connectionsChanged(by delta: Int) {}
}

extension HTTPHandler {
    public func answer(to request: HTTPRequest) -> HTTPAnswer { .now(respond(to: request)) }
}

/// A handler's answer: a response at once, or work to run on the front's workers that returns it.
public enum HTTPAnswer: Sendable {
    case now(HTTPResponse)
    case later(@Sendable () -> HTTPResponse)

    /// The response, made here when it is work.
    public var response: HTTPResponse {
        switch self {
        case .now(let response): response
        case .later(let work): work()
        }
    }
}

/// One request and what became of it, for the access log.
public struct HTTPExchange: Sendable {
    public var method: String
    public var target: String
    public var status: Int
    /// Body bytes of the response (none for `HEAD` and 304); fewer reach a client that leaves early.
    public var bytes: Int
    /// From the request's first line arriving to the response's last byte being handed to the system.
    public var seconds: Double
    /// The client's address as the socket has it (a proxy's, behind one), or `-`.
    public var client: String
    /// The request's id, sent back as `X-Request-Id` (`RequestID`), or `-` for a request the front refused itself.
    public var requestID: String

    public init(method: String, target: String, status: Int, bytes: Int, seconds: Double, client: String = "-", requestID: String = "-") {
        self.method = method
        self.target = target
        self.status = status
        self.bytes = bytes
        self.seconds = seconds
        self.client = client
        self.requestID = requestID
    }
}

/// How a front listens and what it allows a client.
public struct HTTPFrontSettings: Sendable {
    /// The address to listen on, numeric or a name (`127.0.0.1`, `::1`, `localhost`).
    public var host: String
    /// The port; 0 lets the system choose.
    public var port: Int
    /// Threads that read, answer and write (each answers one request at a time).
    public var threads: Int
    /// Connections open at once: one opened past it takes the place of the connection idle the
    /// longest, or is refused (503) when every connection has a request under way.
    public var connections: Int
    /// A request must arrive whole within this many seconds of its connection opening (or of the
    /// previous response on it), or the connection is closed: a client sending a byte a second
    /// cannot keep its connection.
    public var requestTimeout: Double
    /// How long stopping waits for requests under way.
    public var stopGrace: Double
    /// Threads that run a handler's work (`HTTPAnswer.later`: new announcements composed and
    /// encoded), first come first served, apart from `threads`, so that work never holds up the
    /// answers that need none.
    public var workers: Int

    public init(host: String, port: Int, threads: Int, connections: Int, requestTimeout: Double, stopGrace: Double = 5, workers: Int? = nil) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connections = connections
        self.requestTimeout = requestTimeout
        self.stopGrace = stopGrace
        self.workers = max(1, workers ?? threads)
    }
}

/// An HTTP/1.1 server that hands requests to an `HTTPHandler`: the one seam between soundset's
/// server and a networking library. `MicroHTTPDFront` (libmicrohttpd) is the one there is; a
/// SwiftNIO-based front could take its place where Swift packages can be had.
public protocol HTTPFront: AnyObject {
    /// Starts listening and answering with `handler`.
    /// - Returns: the address and port it listens on (the chosen one for port 0).
    /// - Throws: `HTTPFrontError` when it cannot listen.
    func start(_ settings: HTTPFrontSettings, handler: any HTTPHandler) throws(HTTPFrontError) -> (host: String, port: Int)
    /// Stops listening (a new connection is refused), answers the requests under way or already
    /// sent on connections the system had accepted (at most the settings' `stopGrace`), then
    /// closes every connection. Returns once it is stopped.
    func stop()
}

/// Why a front could not start.
public struct HTTPFrontError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
