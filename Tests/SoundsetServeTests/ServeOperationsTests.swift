import Foundation
import SoundsetTestSupport
import Testing

@testable import SoundsetServe

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What operators expect of `soundset serve`, over real sockets: CORS, /metrics, the access log.
@Suite struct ServeOperationsTests: ServedFolderTests {
    /// Waits (at most 10 s) until `file` holds `count` lines; returns its lines.
    private func lines(of file: URL, atLeast count: Int) -> [String] {
        var found: [String] = []
        for _ in 0..<1000 {
            found = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if found.count >= count { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return found
    }

    @Test func aPreflightIs204AndEveryAnswerLetsAPageReadItsTag() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        // On one keep-alive connection: a preflight leaves the connection usable.
        let connection = try HTTPConnection(port: server.port)
        try connection.request(
            "/v1/announcements/12.5.mp3", method: "OPTIONS",
            headers: ["Origin": "https://shop.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "range, if-none-match"])
        let preflight = try connection.reply()
        #expect(preflight.status == 204)
        #expect(preflight.body.isEmpty)
        #expect(preflight.headers["access-control-allow-origin"] == "*")
        #expect(preflight.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS")
        #expect(preflight.headers["access-control-allow-headers"] == "Range, If-None-Match, If-Range, X-Request-Id")
        #expect(preflight.headers["access-control-max-age"] == "86400")
        #expect(preflight.headers["content-length"] == nil || preflight.headers["content-length"] == "0")
        try connection.request("/v1/announcements/12.5.mp3", headers: ["Origin": "https://shop.example"])
        let get = try connection.reply()
        #expect(get.status == 200)
        #expect(get.headers["access-control-allow-origin"] == "*")
        let exposed = try #require(get.headers["access-control-expose-headers"]).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for name in ["ETag", "Content-Length", "Content-Range", "Accept-Ranges", "X-Request-Id"] { #expect(exposed.contains(name), "\(name)") }
        try connection.request("/v1/announcements/12.5.mp3", method: "HEAD")
        #expect(try connection.reply(toHead: true).headers["access-control-expose-headers"] == get.headers["access-control-expose-headers"])
        // Errors too: a page can read why.
        #expect(try server.get("/v1/announcements/1,5.mp3").headers["access-control-allow-origin"] == "*")
        let post = try server.get("/healthz", method: "POST")
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD, OPTIONS")
    }

    @Test func metricsAreInThePrometheusFormatAndCountWhatHappened() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        let id = try #require(try server.get("/healthz").json()["set"] as? String)
        let before = try server.get("/metrics")
        #expect(before.status == 200)
        #expect(before.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(before.headers["cache-control"] == "no-store")
        let samples = Self.samples(before.text)
        // Every sample's family has HELP and TYPE lines, before its samples.
        let declared = Self.declaredTypes(before.text)
        for name in samples.keys {
            let family = name.split(separator: "{").first.map(String.init) ?? name
            let base = ["_bucket", "_sum", "_count"].reduce(family) { $0.hasSuffix($1) && declared[family] == nil ? String($0.dropLast($1.count)) : $0 }
            #expect(declared[base] != nil, "\(name) has no # TYPE")
        }
        #expect(declared["soundset_http_requests_total"] == "counter")
        #expect(declared["soundset_encode_seconds"] == "histogram")
        #expect(declared["soundset_cache_bytes"] == "gauge")
        #expect(samples["soundset_set_info{set=\"\(id)\"}"] == 1)
        #expect(samples["soundset_set_valid"] == 1)
        #expect(samples["soundset_cache_misses_total"] == 0)
        #expect(samples["soundset_http_open_connections"].map { $0 >= 1 } == true)  // this one, and perhaps /healthz's, closing

        // Two announcements composed, one of them asked for again, one 404, one 304.
        let mp3 = try server.get("/v1/announcements/3.5.mp3")
        _ = try server.get("/v1/announcements/3.5.mp3")
        let wav = try server.get("/v1/announcements/4.wav")
        #expect(try server.get("/v1/announcements/4.ogg").status == 404)
        #expect(try server.get("/v1/announcements/4.wav", headers: ["If-None-Match": wav.headers["etag"] ?? ""]).status == 304)
        // A request is counted once its response has gone out, which its client may see first, and
        // threads count in any order: ask until every one is in.
        var after: [String: Double] = [:]
        let expected = [("200", "mp3", 2.0), ("200", "wav", 1), ("304", "wav", 1), ("404", "none", 1)]
        for _ in 0..<500 {
            after = Self.samples(try server.get("/metrics").text)
            if expected.allSatisfy({ after["soundset_http_requests_total{status=\"\($0.0)\",format=\"\($0.1)\"}"] == $0.2 }) { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(after["soundset_http_requests_total{status=\"200\",format=\"mp3\"}"] == 2)
        #expect(after["soundset_http_requests_total{status=\"200\",format=\"wav\"}"] == 1)
        #expect(after["soundset_http_requests_total{status=\"304\",format=\"wav\"}"] == 1)
        #expect(after["soundset_http_requests_total{status=\"404\",format=\"none\"}"] == 1)
        #expect((after["soundset_http_requests_total{status=\"200\",format=\"none\"}"] ?? 0) >= 2)  // /healthz and /metrics
        #expect(after["soundset_cache_misses_total"] == 2)
        #expect(after["soundset_cache_hits_total"] == 1)
        #expect(after["soundset_cache_entries"] == 2)
        let held = try #require(after["soundset_cache_bytes"])
        #expect(held >= Double(mp3.body.count + wav.body.count) && held < Double(mp3.body.count + wav.body.count + 1000))
        #expect(after["soundset_encode_seconds_count{format=\"mp3\"}"] == 1)
        #expect(after["soundset_encode_seconds_bucket{format=\"mp3\",le=\"+Inf\"}"] == 1)
        #expect(after["soundset_encode_seconds_count{format=\"wav\"}"] == 1)
        #expect((after["soundset_encode_seconds_sum{format=\"mp3\"}"] ?? 0) > 0)
        #expect(after["soundset_http_response_bytes_total"].map { $0 >= Double(2 * mp3.body.count + wav.body.count) } == true)
        #expect((after["process_resident_memory_bytes"] ?? 0) > 1_000_000)
    }

    /// With no body cached (`--cache-mb 0`), a 304 and a HEAD of an announcement made once are
    /// answered with its length: nothing is encoded again, and neither counts as a cache hit or miss.
    @Test func aRevalidationOrAHeadOfAKnownLengthEncodesNothing() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet", "--cache-mb", "0"], in: folder.url)
        defer { _ = server.stop() }
        let target = "/v1/announcements/3.5.mp3"
        let full = try server.get(target)
        #expect(full.status == 200)
        let etag = try #require(full.headers["etag"])
        let metrics = { Self.samples(try server.get("/metrics").text) }
        // The encode is counted before its answer is sent.
        #expect(try metrics()["soundset_encode_seconds_count{format=\"mp3\"}"] == 1)
        // One keep-alive connection: a 304 or HEAD that sent a body would corrupt the reply after it.
        let connection = try HTTPConnection(port: server.port)
        for _ in 0..<3 {
            try connection.request(target, headers: ["If-None-Match": etag])
            let notModified = try connection.reply()
            #expect(notModified.status == 304)
            #expect(notModified.headers["content-length"] == String(full.body.count))
            try connection.request(target, method: "HEAD")
            let head = try connection.reply(toHead: true)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == String(full.body.count))
            try connection.request(target, method: "HEAD", headers: ["Range": "bytes=0-9"])
            let part = try connection.reply(toHead: true)
            #expect(part.status == 206)
            #expect(part.headers["content-length"] == "10")
            #expect(part.headers["content-range"] == "bytes 0-9/\(full.body.count)")
        }
        try connection.request("/healthz")
        #expect(try connection.reply().status == 200)
        let after = try metrics()
        #expect(after["soundset_encode_seconds_count{format=\"mp3\"}"] == 1)
        #expect(after["soundset_cache_misses_total"] == 1)
        #expect(after["soundset_cache_hits_total"] == 0)
        #expect(after["soundset_cache_entries"] == 0)
    }

    /// HEADs of WAVs never asked for are composed for their length, and kept out of the cache:
    /// they evict no body.
    @Test func headsOfDistinctWAVsLeaveTheCacheAsItWas() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        #expect(try server.get("/v1/announcements/1.wav").status == 200)
        let before = Self.samples(try server.get("/metrics").text)
        #expect(before["soundset_cache_entries"] == 1)
        for cents in 1...20 {
            let head = try server.get("/v1/announcements/2.\(String(format: "%02d", cents)).wav", method: "HEAD")
            #expect(head.status == 200)
            #expect(Int(head.headers["content-length"] ?? "") ?? 0 > 44)
        }
        let after = Self.samples(try server.get("/metrics").text)
        #expect(after["soundset_cache_entries"] == 1)
        #expect(after["soundset_cache_bytes"] == before["soundset_cache_bytes"])
        #expect(after["soundset_cache_misses_total"] == 1)
        #expect(after["soundset_cache_hits_total"] == 0)
        #expect(after["soundset_encode_seconds_count{format=\"wav\"}"] == 21)
        // A GET of one of them is still composed (a miss) and then kept.
        #expect(try server.get("/v1/announcements/2.01.wav").status == 200)
        #expect(Self.samples(try server.get("/metrics").text)["soundset_cache_entries"] == 2)
    }

    @Test func accessLinesInJSONCarryTimeClientAndTheRequestIDTheResponseNames() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("access.log")
        let server = try ServingSoundset(["--log-format", "json", "--access-log", log.path], in: folder.url)
        let started = Date()
        let generated = try server.get("/v1/announcements/2.wav")
        let kept = try server.get("/healthz", headers: ["X-Request-Id": "lb-7f3a:9c.2_b"])
        let forged = try server.get("/healthz", headers: ["X-Request-Id": "x\" \\injected"])
        let odd = try server.get("/v1/plan/1%0a2")
        let result = server.stop()
        #expect(result.status == 0)
        #expect(!result.stderr.contains("GET "))  // the lines went to the file
        let generatedID = try #require(generated.headers["x-request-id"])
        #expect(generatedID.count == 16 && generatedID.allSatisfy(\.isHexDigit))
        #expect(kept.headers["x-request-id"] == "lb-7f3a:9c.2_b")
        let forgedID = try #require(forged.headers["x-request-id"])
        #expect(forgedID != "x\" \\injected" && forgedID.count == 16)
        #expect(Set([generatedID, forgedID, try #require(odd.headers["x-request-id"])]).count == 3)

        let entries = try lines(of: log, atLeast: 4).map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(entries.count == 4)
        for entry in entries {
            #expect(Set(entry.keys) == ["time", "client", "requestId", "method", "target", "status", "bytes", "durationMs"])
            #expect(entry["client"] as? String == "127.0.0.1")
            let time = try #require(entry["time"] as? String)
            #expect(time.count == 24 && time.hasSuffix("Z"), "\(time)")
            let parsed = try #require(Self.rfc3339.date(from: time), "\(time)")
            #expect(abs(parsed.timeIntervalSince(started)) < 60)
        }
        let byID = Dictionary(entries.map { ($0["requestId"] as? String ?? "", $0) }) { a, _ in a }
        let first = try #require(byID[generatedID])
        #expect(first["method"] as? String == "GET")
        #expect(first["target"] as? String == "/v1/announcements/2.wav")
        #expect(first["status"] as? Int == 200)
        #expect(first["bytes"] as? Int == generated.body.count)
        #expect((first["durationMs"] as? Double).map { $0 >= 0 } == true)
        #expect(byID["lb-7f3a:9c.2_b"]?["target"] as? String == "/healthz")
        #expect(byID[forgedID]?["status"] as? Int == 200)
        #expect(byID[odd.headers["x-request-id"] ?? ""]?["target"] as? String == "/v1/plan/1%0a2")
    }

    @Test func textLinesKeepTheRequestReadable() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset([], in: folder.url)
        let health = try server.get("/healthz", headers: ["X-Request-Id": "abc"])
        let result = server.stop()
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains(" GET /healthz ") }, "\(result.stderr)")
        let fields = line.split(separator: " ").map(String.init)
        #expect(fields.count == 9, "\(line)")
        #expect(Self.rfc3339.date(from: fields[0]) != nil, "\(line)")
        #expect(Array(fields[1...6]) == ["127.0.0.1", "abc", "GET", "/healthz", "200", String(health.body.count)])
        #expect(Double(fields[7]) != nil && fields[8] == "ms")
    }

    @Test func sighupReopensTheLogSoItCanBeRotated() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("access.log")
        let rotated = folder.url.appendingPathComponent("access.log.1")
        let server = try ServingSoundset(["--access-log", log.path], in: folder.url)
        _ = try server.get("/healthz?before")
        #expect(lines(of: log, atLeast: 1).count == 1)
        try FileManager.default.moveItem(at: log, to: rotated)
        _ = try server.get("/healthz?renamed")  // still to the renamed file: the server holds it open
        #expect(lines(of: rotated, atLeast: 2).count == 2)
        kill(server.process.process.processIdentifier, SIGHUP)
        // The reopen happens on the log's writer thread: wait until a request's line lands in the new file.
        var landed = false
        for attempt in 0..<200 where !landed {
            _ = try server.get("/healthz?after\(attempt)")
            landed = lines(of: log, atLeast: 1).contains { $0.contains(" GET /healthz?after") }
            if !landed { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(landed)
        #expect(try server.get("/healthz").status == 200)  // SIGHUP did not stop it
        let result = server.stop()
        #expect(result.status == 0)
        let old = try String(contentsOf: rotated, encoding: .utf8)
        let new = try String(contentsOf: log, encoding: .utf8)
        #expect(old.contains(" GET /healthz?before ") && old.contains(" GET /healthz?renamed "))
        #expect(!new.contains("?before") && !new.contains("?renamed"))
        #expect(new.contains(" GET /healthz 200 "))  // the last line, flushed at the stop
        // Every request is in one file or the other, once.
        let all = (old + new).split(separator: "\n").filter { $0.contains(" GET /healthz") }
        #expect(Set(all.map { $0.split(separator: " ")[2] }).count == all.count)
    }

    @Test func anAccessLogThatCannotBeOpenedIsAFailureThatSaysSo() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let result = try SoundsetExecutable.run(["serve", "--listen", "127.0.0.1:0", "--access-log", "no/such/folder/a.log"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("soundset: cannot open the access log no/such/folder/a.log: No such file or directory"), "\(result.stderr)")
    }

    // MARK: - Lines and metrics, without a socket

    @Test func linesAreEscapedAndTimedToTheMillisecond() throws {
        let exchange = HTTPExchange(
            method: "GET", target: "/v1/plan/1\n2\"\\\u{1B}", status: 400, bytes: 120, seconds: 0.01234, client: "::1", requestID: "r1")
        let time = 1_796_309_527.1239  // 2026-12-03T14:52:07.123Z
        #expect(AccessLog.line(exchange, format: .text, at: time) == "2026-12-03T14:52:07.123Z ::1 r1 GET /v1/plan/1\\n2\"\\\\u{1B} 400 120 12.3 ms")
        let json = AccessLog.line(exchange, format: .json, at: time)
        #expect(
            json
                == #"{"time":"2026-12-03T14:52:07.123Z","client":"::1","requestId":"r1","method":"GET","target":"/v1/plan/1\n2\"\\\u001b","status":400,"bytes":120,"durationMs":12.3}"#
        )
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(decoded["target"] as? String == exchange.target)
        #expect(AccessLog.timestamp(0) == "1970-01-01T00:00:00.000Z")
        #expect(AccessLog.milliseconds(2.5) == "2500.0")
    }

    @Test func requestIDsFromOutsideAreKeptOnlyWhenPlain() {
        #expect(RequestID.accepting("0f8fad5b-d9cb-469f-a165-70867728950e") == "0f8fad5b-d9cb-469f-a165-70867728950e")
        #expect(RequestID.accepting("Root=1-67891233-abcdef012345678912345678") != nil)
        for bad in ["", "a b", "a\"b", "a\nb", "a;b", "é", String(repeating: "a", count: 129), nil] {
            #expect(RequestID.accepting(bad) == nil, "\(bad ?? "nil")")
        }
        let a = RequestID.next(), b = RequestID.next()
        #expect(a != b && a.prefix(8) == b.prefix(8) && a.count == 16)
    }

    @Test func aTargetsFormatIsReadFromItsExtension() {
        let formats = ServeMetrics.formats
        #expect(formats[ServeMetrics.formatIndex("/v1/announcements/1.mp3")] == "mp3")
        #expect(formats[ServeMetrics.formatIndex("/v1/sets/abc/announcements/1.25.aiff?prefix=none")] == "aiff")
        #expect(formats[ServeMetrics.formatIndex("/v1/plan/1.25")] == "none")
        #expect(formats[ServeMetrics.formatIndex("/healthz?x=.wav")] == "none")
        #expect(formats[ServeMetrics.formatIndex("")] == "none")
    }

    // MARK: - Helpers

    nonisolated(unsafe) static let rfc3339: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    /// Sample lines: `name{labels}` to value.
    static func samples(_ text: String) -> [String: Double] {
        var found: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            found[String(line[..<space])] = Double(line[line.index(after: space)...])
        }
        return found
    }

    /// `# TYPE name type` lines, each after its `# HELP`.
    static func declaredTypes(_ text: String) -> [String: String] {
        var types: [String: String] = [:]
        var helped: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if words.count >= 3 && words[0] == "#" && words[1] == "HELP" { helped.insert(words[2]) }
            if words.count == 4 && words[0] == "#" && words[1] == "TYPE" && helped.contains(words[2]) { types[words[2]] = words[3] }
        }
        return types
    }
}
