import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `soundset serve` as a client meets it: the built executable on a port the system chose, spoken
/// to over real sockets.
@Suite struct ServeOverSocketsTests {
    /// A folder with a fake zh-CN set in Output (8 kHz CAF, prefix `received`).
    private func setFolder(container: Container = .caf, encoding: Encoding = .pcm16) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), container: container, encoding: encoding, prefix: "received")
        return folder
    }

    /// 16-bit samples of a CAF, WAV or AIFF file's bytes, whatever its byte order.
    private func samples(_ data: Data, name: String) throws -> [Int16] {
        let sound = try SoundData(parsing: data, name: name)
        return stride(from: 0, to: sound.samples.count, by: 2).map { offset in
            let a = UInt16(sound.samples[sound.samples.startIndex + offset]), b = UInt16(sound.samples[sound.samples.startIndex + offset + 1])
            return Int16(bitPattern: sound.format.littleEndian ? a | b << 8 : a << 8 | b)
        }
    }

    @Test func everyEndpointAnswersWhatTheCommandsPrint() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(in: folder.url)
        let id = try #require(server.banner.split(separator: " ").last.map { String($0.dropLast()) })
        #expect(server.banner == "listening on http://127.0.0.1:\(server.port) (set \(id))")

        let health = try server.get("/healthz")
        #expect(health.status == 200)
        #expect(try health.json()["set"] as? String == id)
        let set = try server.get("/v1/set")
        #expect(try set.json()["id"] as? String == id)
        #expect((try set.json()["clips"] as? [Any])?.count == FakeSets.clipNames.count)

        // The plan: byte for byte what soundset plan prints.
        for (query, flags) in [("", [String]()), ("?prefix=none&join=file", ["--prefix", "none", "--join", "file"])] {
            let plan = try server.get("/v1/plan/123.45\(query)")
            #expect(plan.status == 200)
            #expect(plan.headers["content-type"] == "application/json")
            let printed = try SoundsetExecutable.run(["plan", "123.45", "--format", "json"] + flags, in: folder.url)
            #expect(plan.text == printed.stdout, "\(query)")
        }

        // The announcement in the set's container: byte for byte what soundset render writes.
        for (query, flags) in [("", [String]()), ("?join=file", ["--join", "file"]), ("?prefix=none", ["--prefix", "none"])] {
            let served = try server.get("/v1/announcements/123.45.caf\(query)")
            #expect(served.status == 200)
            #expect(served.headers["content-type"] == "audio/x-caf")
            #expect(served.headers["content-length"] == String(served.body.count))
            #expect(served.headers["etag"]?.hasPrefix("\"\(id)-") == true)
            #expect(served.headers["cache-control"] == "public, max-age=60")
            let rendered = try SoundsetExecutable.run(["render", "123.45", "--out", "a.caf"] + flags, in: folder.url)
            #expect(rendered.status == 0, "\(rendered.stderr)")
            #expect(served.body == (try Data(contentsOf: folder.url.appendingPathComponent("a.caf"))), "\(query)")

            // WAV and AIFF: the same samples in another container, byte for byte what render writes there.
            let reference = try samples(served.body, name: "a.caf")
            for format in ["wav", "aiff"] {
                let other = try server.get("/v1/announcements/123.45.\(format)\(query)")
                #expect(other.headers["content-type"] == (format == "wav" ? "audio/wav" : "audio/aiff"))
                #expect(try samples(other.body, name: "a.\(format)") == reference, "\(format)\(query)")
                let written = try SoundsetExecutable.run(["render", "123.45", "--out", "a.\(format)"] + flags, in: folder.url)
                #expect(written.status == 0, "\(written.stderr)")
                #expect(other.body == (try Data(contentsOf: folder.url.appendingPathComponent("a.\(format)"))), "\(format)\(query)")
            }
        }

        // MP3: libsndfile reads it back at the set's rate, about as long as the announcement.
        let mp3 = try server.get("/v1/announcements/123.45.mp3")
        #expect(mp3.status == 200)
        #expect(mp3.headers["content-type"] == "audio/mpeg")
        let decoded = try SoundFile.open(bytes: mp3.body, path: "a.mp3")
        #expect(decoded.info.sampleRate == 8000)
        #expect(decoded.info.channels == 1)
        let frames = try samples(try server.get("/v1/announcements/123.45.caf").body, name: "a.caf").count
        let mp3Frames = try decoded.readAll().count
        #expect(mp3Frames >= frames && mp3Frames < frames + 8000 / 4, "\(mp3Frames) frames decoded for \(frames)")

        let result = server.stop()
        #expect(result.status == 0)
        // One access line per request: time, client, request id, method, target, status, bytes, milliseconds.
        let lines = result.stderr.split(separator: "\n").filter { $0.contains(" 127.0.0.1 ") && $0.contains(" GET /") }
        #expect(lines.count == 15)
        // (Each is written when its response has gone out, on the thread that sent it: in any order.)
        #expect(lines.contains { $0.contains(" GET /healthz 200 \(health.body.count) ") && $0.hasSuffix(" ms") }, "\(result.stderr)")
    }

    @Test func headConditionalRequestsAndErrorsOverTheWire() throws {
        let folder = try setFolder(container: .wav, encoding: .ulaw)
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        // One keep-alive connection: a HEAD that sent a body would corrupt the reply after it.
        let connection = try HTTPConnection(port: server.port)
        try connection.request("/v1/announcements/2.22.wav", method: "HEAD")
        let head = try connection.reply(toHead: true)
        try connection.request("/v1/announcements/2.22.wav")
        let get = try connection.reply()
        #expect(head.status == 200 && get.status == 200)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(head.headers["etag"] == get.headers["etag"])
        let etag = try #require(get.headers["etag"])
        try connection.request("/v1/announcements/2.22.wav", headers: ["If-None-Match": etag])
        let notModified = try connection.reply()
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers["etag"] == etag)
        try connection.request("/healthz")
        #expect(try connection.reply().status == 200)

        let comma = try server.get("/v1/announcements/1,5.mp3")
        #expect(comma.status == 400)
        #expect(try comma.json()["error"] as? String == "'1,5': the amount has a decimal comma: write 1.5, with a point")
        let missing = try server.get("/v1/announcements/1.ogg")
        #expect(missing.status == 404)
        #expect((try missing.json()["hint"] as? String)?.contains("/v1/announcements/123.45.mp3") == true)
        let traversal = try server.get("/v1/announcements/%2e%2e%2f%2e%2e%2fOutput%2fmanifest.json")
        #expect(traversal.status == 404)
        let nul = try server.get("/v1/announcements/1%00.wav")
        #expect(nul.status == 400)
        #expect(try nul.json()["error"] as? String == "the URL has a control character")
        let post = try server.get("/v1/announcements/1.wav", method: "POST")
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD, OPTIONS")
        #expect(try post.json()["error"] as? String == "the method POST is not allowed")
        let long = try server.get("/v1/plan/" + String(repeating: "1", count: 2048))
        #expect(long.status == 414)
        #expect(try long.json()["error"] as? String == "the request's URI is 2057 bytes, over the 2048 allowed")
        // Past libmicrohttpd's own buffer it answers 414 itself.
        #expect(try server.get("/v1/plan/" + String(repeating: "1", count: 40_000)).status == 414)
        let wrongSet = try server.get("/v1/sets/0000000000/announcements/1.wav")
        #expect(wrongSet.status == 404)
        #expect(try wrongSet.json()["set"] as? String == (try server.get("/healthz").json()["set"] as? String))
    }

    @Test func withoutASetHealthIs503UntilABuildPutsOneThere() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        #expect(server.banner == "listening on http://127.0.0.1:\(server.port) (no valid set yet)")
        let health = try server.get("/healthz")
        #expect(health.status == 503)
        #expect(try health.json()["error"] as? String == "no valid sound set")
        #expect(try server.get("/v1/announcements/1.wav").status == 503)
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received")
        #expect(try server.get("/healthz").status == 200)
        #expect(try server.get("/v1/announcements/1.wav").status == 200)
        let result = server.stop()
        #expect(result.status == 0)
        #expect(result.stderr.contains("soundset: no valid sound set") == false)
        #expect(result.stderr.hasPrefix("soundset: Output has no manifest.json (run soundset build --output Output); /healthz answers 503"))
    }

    @Test func twoHundredRequestsAtOnceAreAllAnswered() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        // 200 connections open at once, each with a request sent before any reply is read: 50
        // amounts in four formats, so the same announcement is asked for while it is composed.
        let formats = ["wav", "caf", "aiff", "mp3"]
        let targets = (0..<200).map { "/v1/announcements/\(100 + $0 % 50).\($0 % 7).\(formats[$0 / 50])" }
        let connections = try targets.map { _ in try HTTPConnection(port: server.port) }
        for (connection, target) in zip(connections, targets) { try connection.request(target) }
        let replies = try connections.map { try $0.reply() }
        #expect(replies.filter { $0.status == 200 }.count == 200)
        var bodies: [String: Data] = [:]
        for (target, reply) in zip(targets, replies) {
            if let earlier = bodies.updateValue(reply.body, forKey: target) { #expect(earlier == reply.body) }
            #expect(!reply.body.isEmpty)
        }
        // And the same again, answered from the cache with the same bytes.
        #expect(try server.get(targets[3]).body == replies[3].body)
    }

    @Test func aSlowClientIsClosedAtItsTimeout() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet", "--request-timeout", "1"], in: folder.url)
        defer { _ = server.stop() }
        let slow = try HTTPConnection(port: server.port, timeout: 0.1)
        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: one byte at a time\r\n\r\n".utf8)
        let start = Date()
        var sent = 0
        var closed = false
        // A byte every 100 ms would take 7 s; the server closes the connection after 1 s.
        while sent < request.count && !closed {
            do { try slow.send(Data([request[sent]])) } catch {
                closed = true
                break
            }
            sent += 1
            closed = slow.closedByPeer()  // waits up to 100 ms
            // Meanwhile others are answered.
            if sent == 5 { #expect(try server.get("/healthz").status == 200) }
        }
        #expect(closed)
        #expect(sent < request.count)
        #expect(Date().timeIntervalSince(start) >= 1)
    }

    @Test func aNewSetIsPickedUpAfterABuild() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let build = { try SoundsetExecutable.run(["build", "--quiet", "--no-report"], in: folder.url) }
        #expect(try build().status == 0)
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        let before = try server.get("/v1/set").json()
        let id = try #require(before["id"] as? String)

        // A longer take of 2, built again: the build swaps a new set in.
        let take = Takes.word(word: 0.6, rate: 22050, levelDb: -30, seed: 7)
        try WAVFile.write(take.samples, to: assets.appendingPathComponent("2.wav"), rate: 22050)
        #expect(try build().status == 0)
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        // The old set is answered while the new one loads (off the requests' threads): ask until
        // the new one is served (at most 10 s).
        var after = try server.get("/v1/set").json()
        for _ in 0..<1000 where after["id"] as? String == id {
            Thread.sleep(forTimeInterval: 0.01)
            after = try server.get("/v1/set").json()
        }
        let newID = try #require(after["id"] as? String)
        #expect(newID != id)
        let clips = after["clips"] as? [[String: Any]] ?? []
        #expect(clips.map { $0["frames"] as? Int } == manifest.clips.map(\.frames))
        #expect(try server.get("/healthz").json()["set"] as? String == newID)
        #expect(try server.get("/v1/sets/\(id)/plan/2").status == 404)
    }

    @Test func sigtermLetsTheRequestsUnderWayFinish() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset([], in: folder.url)
        // Twenty connections the server has accepted (each answered once), each then sending a
        // request for an announcement never composed before; SIGTERM as they arrive.
        let connections = try (0..<20).map { _ in try HTTPConnection(port: server.port) }
        for connection in connections {
            try connection.request("/healthz")
            #expect(try connection.reply().status == 200)
        }
        for (index, connection) in connections.enumerated() { try connection.request("/v1/announcements/\(7000 + index).25.mp3") }
        kill(server.process.process.processIdentifier, SIGTERM)
        let replies = try connections.map { try $0.reply() }
        #expect(replies.allSatisfy { $0.status == 200 && !$0.body.isEmpty })
        let result = server.process.wait()
        #expect(result.status == 0)
        #expect(result.stderr.contains("soundset: terminated: finishing the requests under way"))
        #expect(result.stderr.split(separator: "\n").filter { $0.contains(" GET /v1/announcements/") && $0.contains(" 200 ") }.count == 20)
        // Stopped: nothing listens any more.
        #expect(throws: (any Error).self) { try HTTPConnection(port: server.port) }
    }

    @Test func helpAndBadUsage() throws {
        let help = try SoundsetExecutable.run(["serve", "--help"])
        #expect(help.status == 0)
        for word in [
            "--output", "--listen", "--threads", "--connections", "--cache-mb", "--request-timeout", "--quiet", "--log-format", "--access-log",
            "SIGHUP", "X-Request-Id", "/metrics", "OPTIONS", "Access-Control-Expose-Headers", "/healthz", "/v1/set", "/v1/plan/",
            "/v1/announcements/", "/v1/sets/", "If-None-Match", "304", "405", "414", "503", "SIGTERM", "prefix=", "suffix=", "join=", "whole=1",
        ] {
            #expect(help.stdout.contains(word), "\(word)")
        }
        #expect(try SoundsetExecutable.run(["help", "serve"]).stdout == help.stdout)
        #expect(try SoundsetExecutable.run(["--help"]).stdout.contains("  serve     "))
        for (arguments, message) in [
            (["--listen", "8080"], "soundset: --listen needs HOST:PORT, e.g. 127.0.0.1:8080, 0.0.0.0:80 or [::1]:8080 (port 0 picks a free port)"),
            (["--listen", "127.0.0.1:65536"], "soundset: --listen needs HOST:PORT, e.g. 127.0.0.1:8080, 0.0.0.0:80 or [::1]:8080 (port 0 picks a free port)"),
            (["--threads", "0"], "soundset: --threads needs a whole number from 1 to 1024"),
            (["--request-timeout", "1e3"], "soundset: --request-timeout needs seconds from 0.1 to 3600, e.g. 10"),
            (["12"], "soundset: serve takes no AMOUNT or other argument, got '12'"),
            (["--log-format", "xml"], "soundset: --log-format needs text or json"),
            (["--quiet", "--access-log", "a.log"], "soundset: --quiet writes no access log: leave out --access-log, or --quiet"),
        ] {
            let result = try SoundsetExecutable.run(["serve"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr == "\(message)\nrun 'soundset serve --help' for usage\n")
        }
    }

    @Test func aPortInUseIsAFailureThatSaysSo() throws {
        let folder = try setFolder()
        defer { folder.remove() }
        let server = try ServingSoundset(["--quiet"], in: folder.url)
        defer { _ = server.stop() }
        let second = try SoundsetExecutable.run(["serve", "--listen", "127.0.0.1:\(server.port)"], in: folder.url)
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("soundset: cannot listen on 127.0.0.1:\(server.port) ("))
    }
}
