import Foundation
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `soundset serve` makes of requests written byte by byte to a socket (a NUL in the target,
/// two Content-Lengths), what its 304s and 503s carry, and how it keeps its connection limit and
/// stops: the built executable, over real sockets.
@Suite struct StrictHTTPOverSocketsTests: ServedFolderTests {
    /// A raw NUL cut the target at it (`/v1/plan/2\0.5` answered the plan of 2.00); any control
    /// byte in the target is 400, and the access line shows the whole target, escaped.
    @Test func aControlByteInTheTargetIs400() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset([], in: folder.url)
        let targets = [
            "/v1/plan/2\u{0}.5", "/v1/announcements/1.wav\u{0}/../../etc/passwd", "/v1/plan/2\u{1}", "/v1/plan/2\t.5", "/v1/plan/2\r.5",
            "/v1/plan/2\u{7F}", "/v1/plan/2?prefix=none\u{0}x", "/healthz\u{1B}",
            // A NUL followed by what looks like the request line's end: the target is still whole.
            "/v1/plan/2\u{0}HTTP/1.1\u{0}.5", "/v1/announcements/1.wav\u{0}HTTP/1.1\u{0}/../../etc/passwd",
        ]
        for target in targets {
            let connection = try HTTPConnection(port: server.port)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let reply = try connection.reply()
            #expect(reply.status == 400, "\(target.debugDescription)")
            #expect(try reply.json()["error"] as? String == "the URL has a control character", "\(target.debugDescription)")
        }
        let result = server.stop()
        #expect(result.status == 0)
        let lines = accessLines(result.stderr)
        #expect(lines.contains { $0.hasPrefix("GET /v1/plan/2\\0.5 400 ") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("GET /v1/announcements/1.wav\\0/../../etc/passwd 400 ") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("GET /v1/plan/2\\t.5 400 ") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("GET /v1/plan/2\\0HTTP/1.1\\0.5 400 ") }, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("GET /v1/plan/2?prefix=none\\0x 400 ") }, "\(result.stderr)")
        #expect(lines.filter { $0.contains(" 400 ") }.count == targets.count, "\(result.stderr)")
    }

    /// Two Content-Length fields that disagree: 400 before any body is read, and the connection
    /// closed (what follows is never read as a request). The same length twice is one length.
    @Test func contentLengthsThatDisagreeAre400AndClose() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        let smuggler = try HTTPConnection(port: server.port, timeout: 5)
        try smuggler.send(
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nContent-Length: 48\r\n\r\nabcdGET /v1/set HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let refused = try smuggler.reply()
        #expect(refused.status == 400)
        #expect(try refused.json()["error"] as? String == "the request has Content-Length fields that disagree (4, 48)")
        #expect(refused.headers["connection"]?.lowercased() == "close")
        #expect(smuggler.closedByPeer())

        let same = try HTTPConnection(port: server.port)
        try same.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\nabcd")
        #expect(try same.reply().status == 200)
        try same.request("/healthz")
        #expect(try same.reply().status == 200)
    }

    /// A 304 has no Content-Length of its own (libmicrohttpd wrote `Content-Length: 0`): it carries
    /// the 200's, as RFC 9110 8.6 allows, and no body: the next response on the connection follows
    /// at once. An announcement no longer cached is composed for it.
    @Test(arguments: [[String](), ["--cache-mb", "0"]])
    func a304CarriesThe200sLengthAndNoBody(cache: [String]) throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"] + cache, in: folder.url)
        defer { _ = server.stop() }
        let connection = try HTTPConnection(port: server.port)
        for target in ["/v1/announcements/12.34.mp3", "/v1/announcements/12.34.wav", "/v1/plan/12.34"] {
            try connection.request(target)
            let full = try connection.reply()
            #expect(full.status == 200)
            let etag = try #require(full.headers["etag"])
            try connection.request(target, headers: ["If-None-Match": etag])
            let notModified = try connection.reply()
            #expect(notModified.status == 304, "\(target)")
            #expect(notModified.headers["content-length"] == String(full.body.count), "\(target)")
            #expect(notModified.headers["etag"] == etag)
            try connection.request("/healthz")
            let next = try connection.reply()
            #expect(next.status == 200 && next.headers["content-type"] == "application/json", "\(target)")
        }
    }

    /// A 503's body names no file of the server's (an absolute --output would show its path): the
    /// server's log says why, once.
    @Test func a503NamesNoServerPath() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output").path
        let server = try ServingSoundset(["--output", output], in: folder.url)
        for target in ["/healthz", "/v1/announcements/1.wav", "/v1/plan/1", "/v1/set"] {
            let reply = try server.get(target)
            #expect(reply.status == 503)
            #expect(try reply.json()["error"] as? String == "no valid sound set")
            #expect(!reply.text.contains(folder.url.path) && !reply.text.contains("Output"), "\(reply.text)")
        }
        try FakeSets.write(in: URL(fileURLWithPath: output), prefix: "received")
        #expect(try server.get("/healthz").status == 200)
        try FileManager.default.removeItem(at: URL(fileURLWithPath: output).appendingPathComponent("manifest.json"))
        var status = 200
        for _ in 0..<500 where status == 200 {
            Thread.sleep(forTimeInterval: 0.01)
            status = try server.get("/healthz").status
        }
        #expect(status == 503)
        let result = server.stop()
        // Told at the start, then again once the set served is gone.
        let told = result.stderr.split(separator: "\n").filter { $0.contains("\(output) has no manifest.json") }
        #expect(told.count == 2, "\(result.stderr)")
        #expect(told.last == "soundset: no valid sound set: \(output) has no manifest.json (run soundset build --output \(output))")
    }

    /// At the limit, a new connection is answered: the connection idle the longest is closed to
    /// make room (libmicrohttpd alone stopped accepting, and a new client waited behind idle ones).
    @Test func atTheLimitTheLongestIdleConnectionMakesRoom() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet", "--threads", "1", "--connections", "2"], in: folder.url)
        defer { _ = server.stop() }
        let first = try HTTPConnection(port: server.port, timeout: 5)
        try first.request("/healthz")
        #expect(try first.reply().status == 200)
        let second = try HTTPConnection(port: server.port, timeout: 5)
        try second.request("/healthz")
        #expect(try second.reply().status == 200)
        // Both idle, keep-alive: the limit is full.
        let third = try HTTPConnection(port: server.port, timeout: 5)
        try third.request("/v1/plan/3")
        #expect(try third.reply().status == 200)
        #expect(first.closedByPeer())
        try second.request("/healthz")
        #expect(try second.reply().status == 200)
        try third.request("/healthz")
        #expect(try third.reply().status == 200)
    }

    /// At the limit with a request begun on every connection, a new one is refused: 503 (or closed
    /// before it reads it), and a line in the log; the requests under way are answered.
    @Test func overTheLimitWithEveryConnectionBusyIsRefusedAndLogged() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--threads", "1", "--connections", "2"], in: folder.url)
        let busy = try (0..<2).map { _ in try HTTPConnection(port: server.port, timeout: 5) }
        for connection in busy { try connection.send("GET /healthz HTTP/1.1\r\n") }
        let refused = try HTTPConnection(port: server.port, timeout: 5)
        try? refused.request("/healthz")
        if let reply = try? refused.reply() {
            #expect(reply.status == 503)
            #expect((try reply.json()["error"] as? String)?.hasPrefix("too many connections") == true)
        }
        #expect(refused.closedByPeer())
        for connection in busy {
            try connection.send("Host: 127.0.0.1\r\n\r\n")
            #expect(try connection.reply().status == 200)
        }
        let result = server.stop()
        #expect(accessLines(result.stderr).filter { $0.hasPrefix("- (connection-limit) 503 ") }.count == 1, "\(result.stderr)")
        #expect(accessLines(result.stderr).filter { $0.hasPrefix("GET /healthz 200 ") }.count == 2, "\(result.stderr)")
    }

    /// SIGTERM: the listening socket closes at once (a new connection is refused), a request whose
    /// first bytes came before it is finished and answered whole (`Connection: close`), an idle
    /// connection is closed, and the server exits 0.
    @Test func sigtermStopsListeningAndFinishesARequestBegun() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset([], in: folder.url)
        let idle = try HTTPConnection(port: server.port, timeout: 10)
        try idle.request("/healthz")
        #expect(try idle.reply().status == 200)
        let begun = try HTTPConnection(port: server.port, timeout: 10)
        try begun.send("GET /v1/plan/4")
        // The server has read them (a request is under way from its first bytes in either case).
        Thread.sleep(forTimeInterval: 0.2)
        kill(server.process.process.processIdentifier, SIGTERM)
        var refused = false
        for _ in 0..<500 {
            do { _ = try HTTPConnection(port: server.port) } catch {
                refused = (error as? POSIXError)?.code == .ECONNREFUSED
                break
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(refused)
        try begun.send(".56 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let reply = try begun.reply()
        #expect(reply.status == 200)
        #expect(reply.headers["connection"]?.lowercased() == "close")
        #expect(try reply.json()["amount"] != nil)
        let result = server.process.wait()
        #expect(result.status == 0)
        #expect(idle.closedByPeer())
        #expect(accessLines(result.stderr).contains { $0.hasPrefix("GET /v1/plan/4.56 200 ") }, "\(result.stderr)")
    }

    /// SIGTERM with requests sent on connections the server has not accepted yet (its one thread
    /// busy composing): each is answered, none reset.
    @Test func sigtermAnswersRequestsWaitingToBeAccepted() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet", "--threads", "1"], in: folder.url)
        let connections = try (0..<40).map { _ in try HTTPConnection(port: server.port, timeout: 30) }
        for (index, connection) in connections.enumerated() { try connection.request("/v1/announcements/\(300 + index).75.mp3") }
        kill(server.process.process.processIdentifier, SIGTERM)
        let statuses = connections.map { (try? $0.reply().status) ?? 0 }
        #expect(statuses.filter { $0 == 200 }.count == 40, "\(statuses)")
        #expect(server.process.wait().status == 0)
    }
}
