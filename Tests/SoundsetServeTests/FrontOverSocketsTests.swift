import Foundation
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The front's handling of connections whose requests wait on the workers (`soundset serve`, the
/// built executable, over real sockets): stopping once the grace has run out, clients that leave
/// before their work runs, the connection limit with connections suspended, request ids, and the
/// open-connections gauge.
@Suite struct FrontOverSocketsTests: ServedFolderTests {
    /// Reads `/metrics` until `done` holds of its samples (at most 5 s: a request is counted once
    /// its response has gone out, and a connection once the library has closed it).
    private func metrics(_ server: ServingSoundset, until done: ([String: Double]) -> Bool) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        for _ in 0..<500 {
            samples = ServeOperationsTests.samples(try server.get("/metrics").text)
            if done(samples) { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return samples
    }

    /// SIGTERM with more work queued than the grace lets finish (one worker, a grace of 0.3 s):
    /// every client gets a whole response, 200 (its encode was running, or done) or 503 with
    /// Retry-After (queued still), and the log says the same of each; then the server exits 0.
    @Test func whenTheGraceRunsOutEveryQueuedRequestIsAnswered503() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(
            ["--threads", "1", "--connections", "300"], in: folder.url, environment: ["SOUNDSET_SERVE_STOP_GRACE": "0.3"])
        let clients = try (0..<200).map { index -> HTTPConnection in
            let connection = try HTTPConnection(port: server.port, timeout: 30)
            try connection.request("/v1/announcements/\(87_654_300 + index).99.mp3?whole=1")
            return connection
        }
        // One thread accepts in order: once a later connection is answered, every request is in.
        #expect(try server.get("/healthz").status == 200)
        kill(server.process.process.processIdentifier, SIGTERM)
        let replies = clients.map { try? $0.reply() }
        let result = server.process.wait()
        #expect(result.status == 0)
        #expect(replies.allSatisfy { $0 != nil }, "\(replies.filter { $0 == nil }.count) clients got no response")
        let ok = replies.compactMap { $0 }.filter { $0.status == 200 && $0.headers["content-type"] == "audio/mpeg" }
        let stopping = replies.compactMap { $0 }.filter { $0.status == 503 }
        #expect(ok.count + stopping.count == clients.count)
        #expect(!stopping.isEmpty, "the grace did not run out: nothing was left queued")
        #expect(stopping.allSatisfy { $0.headers["retry-after"] == "1" && $0.headers["connection"]?.lowercased() == "close" })
        let lines = accessLines(result.stderr).filter { $0.hasPrefix("GET /v1/announcements/87654") }
        #expect(lines.filter { $0.contains(" 200 ") }.count == ok.count, "\(result.stderr)")
        #expect(lines.filter { $0.contains(" 503 ") }.count == stopping.count, "\(result.stderr)")
        #expect(lines.count == clients.count, "\(result.stderr)")
    }

    /// Clients that send an MP3 request and close at once: their work is skipped (no encode), and
    /// none is counted or logged as a 200: each is logged as aborted (499, no bytes).
    @Test func clientsGoneBeforeTheirWorkRunsCauseNoEncode() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--threads", "1"], in: folder.url)
        let stayer = try HTTPConnection(port: server.port)
        try stayer.request("/v1/announcements/76543210.99.mp3?whole=1")
        for index in 0..<20 {
            let leaver = try HTTPConnection(port: server.port)
            try leaver.request("/v1/announcements/\(1000 + index).25.mp3")
            // closed here
        }
        let last = try HTTPConnection(port: server.port)
        try last.request("/v1/announcements/7.77.mp3")
        #expect(try stayer.reply().status == 200)
        #expect(try last.reply().status == 200)
        let after = try metrics(server) { $0["soundset_http_requests_total{status=\"other\",format=\"mp3\"}"] == 20 }
        #expect(after["soundset_http_requests_total{status=\"other\",format=\"mp3\"}"] == 20)
        #expect(after["soundset_http_requests_total{status=\"200\",format=\"mp3\"}"] == 2)
        #expect(after["soundset_encode_seconds_count{format=\"mp3\"}"] == 2)
        // A miss is a body composed: the skipped work is none.
        #expect(after["soundset_cache_misses_total"] == 2)
        let result = server.stop()
        let leavers = accessLines(result.stderr).filter { $0.hasPrefix("GET /v1/announcements/10") }
        #expect(leavers.count == 20, "\(result.stderr)")
        #expect(leavers.allSatisfy { $0.contains(".25.mp3 499 0 ") }, "\(result.stderr)")
    }

    /// At the limit with every connection's request waiting on the one worker (suspended, not
    /// idle): a new client is refused 503, none of them closed, each answered; the refusal's line
    /// names the client.
    @Test func connectionsWaitingOnTheWorkersAreBusyAtTheLimit() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--threads", "1", "--connections", "3"], in: folder.url)
        let busy = try (0..<3).map { index -> HTTPConnection in
            let connection = try HTTPConnection(port: server.port, timeout: 30)
            try connection.request("/v1/announcements/\(65_432_100 + index).99.mp3?whole=1")
            return connection
        }
        let refused = try HTTPConnection(port: server.port, timeout: 30)
        try? refused.request("/healthz")
        let reply = try refused.reply()
        #expect(reply.status == 503)
        #expect((try reply.json()["error"] as? String)?.hasPrefix("too many connections") == true)
        #expect(refused.closedByPeer())
        for connection in busy {
            let answer = try connection.reply()
            #expect(answer.status == 200 && answer.headers["content-type"] == "audio/mpeg")
        }
        let result = server.stop()
        let refusal = result.stderr.split(separator: "\n").first { $0.contains(" - (connection-limit) 503 ") }
        #expect(refusal?.contains("127.0.0.1") == true, "\(result.stderr)")
    }

    /// Clients come and go (one refused at the limit among them): once they have closed, the
    /// open-connections gauge is back to its baseline.
    @Test func theOpenConnectionsGaugeComesBackToItsBaseline() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet", "--threads", "1", "--connections", "3"], in: folder.url)
        defer { _ = server.stop() }
        let baseline = try #require(ServeOperationsTests.samples(try server.get("/metrics").text)["soundset_http_open_connections"])
        do {
            let busy = try (0..<3).map { _ in try HTTPConnection(port: server.port, timeout: 10) }
            for connection in busy { try connection.send("GET /healthz HTTP/1.1\r\n") }
            let refused = try HTTPConnection(port: server.port, timeout: 10)
            try? refused.request("/healthz")
            #expect((try? refused.reply().status) == 503)
            for connection in busy {
                try connection.send("Host: 127.0.0.1\r\n\r\n")
                #expect(try connection.reply().status == 200)
            }
            // Each asks before the next opens (at the limit, an idle one makes room for the next).
            let more = try (0..<5).map { _ in
                let connection = try HTTPConnection(port: server.port, timeout: 10)
                try connection.request("/v1/announcements/3.wav")
                #expect(try connection.reply().status == 200)
                return connection
            }
            _ = more
            let during = try metrics(server) { ($0["soundset_http_open_connections"] ?? 0) > baseline }
            #expect((during["soundset_http_open_connections"] ?? 0) > baseline)
        }  // every client closed here
        let after = try metrics(server) { $0["soundset_http_open_connections"] == baseline }
        #expect(after["soundset_http_open_connections"] == baseline)
    }

    /// A client's own X-Request-Id on an answer made by the workers (an announcement not cached):
    /// sent back, and in the access line.
    @Test func aClientsRequestIDComesBackFromTheWorkers() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--threads", "1"], in: folder.url)
        let reply = try server.get("/v1/announcements/54.32.mp3", headers: ["X-Request-Id": "order-4711:try.2"])
        #expect(reply.status == 200 && reply.headers["content-type"] == "audio/mpeg")
        #expect(reply.headers["x-request-id"] == "order-4711:try.2")
        let result = server.stop()
        let line = result.stderr.split(separator: "\n").first { $0.contains(" GET /v1/announcements/54.32.mp3 200 ") }
        #expect(line?.split(separator: " ").dropFirst(2).first == "order-4711:try.2", "\(result.stderr)")
    }
}
