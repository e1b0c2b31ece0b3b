import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP response as read off a socket.
public struct HTTPReply: Sendable {
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    public var body: Data

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object, decoded from its text.
    public func json() throws -> [String: Any] { try JSONSerialization.jsonObject(with: body) as? [String: Any] ?? [:] }
}

/// A plain TCP connection to 127.0.0.1 that writes what it is given and reads HTTP/1.1 responses:
/// nothing is normalised on the way, so tests send exactly the bytes an attacker would.
public final class HTTPConnection {
    private let socket: Int32
    private var buffer = Data()

    /// Connects to `port` on 127.0.0.1; reads wait at most `timeout` seconds.
    public init(port: Int, timeout: Double = 30) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        var wait = timeval()
        wait.tv_sec = Int(timeout)
        wait.tv_usec = .init(timeout.truncatingRemainder(dividingBy: 1) * 1e6)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var noSignal: Int32 = 1
        #if canImport(Darwin)
            setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        _ = noSignal
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // (No close here: an initializer that throws once every property is set still runs deinit,
        // and a second close would close whatever another test opened under the same number.)
        guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Writes `bytes` whole.
    /// - Throws: `POSIXError` when the peer has closed the connection.
    public func send(_ bytes: Data) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { pointer in
                #if canImport(Glibc)
                    Glibc.send(socket, pointer.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                #else
                    Darwin.send(socket, pointer.baseAddress! + sent, bytes.count - sent, 0)
                #endif
            }
            guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPIPE) }
            sent += count
        }
    }

    public func send(_ text: String) throws { try send(Data(text.utf8)) }

    /// Sends a request for `target` with a Host field and `headers`.
    public func request(_ target: String, method: String = "GET", headers: [String: String] = [:]) throws {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try send(text + "\r\n")
    }

    /// Reads one response: its head, then `Content-Length` bytes of body (none for a `HEAD`
    /// request's response or a 304).
    /// - Throws: `POSIXError` when the connection closes or the read times out first.
    public func reply(toHead head: Bool = false) throws -> HTTPReply {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil { try fill() }
        let end = buffer.range(of: separator)!
        let lines = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        buffer = Data(buffer[end.upperBound...])
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = head || status == 304 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return HTTPReply(status: status, headers: headers, body: body)
    }

    /// Whether the peer has closed the connection (a read gives end of file or a reset), waiting
    /// at most the read timeout.
    public func closedByPeer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
        buffer.append(byte)
        return false
    }

    /// Whether the peer has closed the connection, without waiting.
    public func closedNow() -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
        if count == 0 { return true }
        if count < 0 { return errno == ECONNRESET }
        buffer.append(byte)
        return false
    }

    /// Whether bytes of a response have arrived (read or waiting in the socket), without waiting.
    public func replyArrived() -> Bool {
        guard buffer.isEmpty else { return true }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) > 0
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &chunk, chunk.count, 0)
        guard count > 0 else { throw POSIXError(count == 0 ? .ECONNRESET : POSIXErrorCode(rawValue: errno) ?? .EIO) }
        buffer.append(contentsOf: chunk[0..<count])
    }

    /// One request on a new connection, closed after its response.
    public static func get(port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:]) throws -> HTTPReply {
        let connection = try HTTPConnection(port: port)
        try connection.request(target, method: method, headers: headers.merging(["Connection": "close"]) { a, _ in a })
        return try connection.reply(toHead: method == "HEAD")
    }
}

/// `soundset serve` running on a port the system chose, until stopped.
public final class ServingSoundset: @unchecked Sendable {
    // @unchecked: set up once in `init`; `stop` is called once, from one thread.
    public let process: RunningSoundset
    public let port: Int
    /// The first line it printed on stdout.
    public let banner: String

    /// Starts `soundset serve --listen 127.0.0.1:0 arguments…` in `directory`, with `environment`
    /// added, and waits for its first line (at most a minute, for a machine under load).
    public init(_ arguments: [String] = [], in directory: URL, environment: [String: String] = [:]) throws {
        process = try RunningSoundset(["serve", "--listen", "127.0.0.1:0"] + arguments, in: directory, environment: environment)
        var line = ""
        for _ in 0..<6000 {
            // One read: two could see the file before and after the line arrives.
            let text = process.stdoutSoFar
            if text.contains("\n"), let first = text.split(separator: "\n", omittingEmptySubsequences: false).first {
                line = String(first)
                break
            }
            guard process.process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        banner = line
        guard let colon = line.range(of: "127.0.0.1:"), let port = Int(line[colon.upperBound...].prefix { $0.isNumber }) else {
            process.process.terminate()
            let result = process.wait()
            throw ServeFailure(description: "soundset serve did not start: \(result.stdout)\(result.stderr)")
        }
        self.port = port
    }

    /// Sends SIGTERM and waits for it to exit.
    public func stop() -> RunResult {
        kill(process.process.processIdentifier, SIGTERM)
        return process.wait()
    }

    public func get(_ target: String, method: String = "GET", headers: [String: String] = [:]) throws -> HTTPReply {
        try HTTPConnection.get(port: port, target, method: method, headers: headers)
    }
}

public struct ServeFailure: Error, CustomStringConvertible {
    public var description: String
}
