import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetServe

/// The service's answers without a socket: a request in, a response out.
@Suite struct AnnouncementServiceTests {
    private struct Served {
        let folder: TemporaryDirectory
        let service: AnnouncementService
        var output: URL { folder.url.appendingPathComponent("Output") }

        func get(_ target: String, method: String = "GET", headers: [String: String] = [:]) -> HTTPResponse {
            service.respond(to: HTTPRequest(method: method, target: target, headers: headers))
        }

        func json(_ response: HTTPResponse) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: response.body.data) as? [String: Any] ?? [:]
        }

        var id: String { (try? service.currentSet().get()) ?? "" }
        /// Lines written to the problem log.
        let problems: Lines

        /// Why there is no set, as the problem log says it.
        var reason: String? {
            guard case .failure(let error) = service.currentSet() else { return nil }
            return "\(error)"
        }
    }

    /// Lines written from any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    private func served(
        prefix: String? = "received", announcement: AnnouncementSettings = AnnouncementSettings(), frames: ((String) -> Int)? = nil, write: Bool = true
    ) throws -> Served {
        let folder = try TemporaryDirectory()
        let output = folder.url.appendingPathComponent("Output")
        if write { try FakeSets.write(in: output, prefix: prefix, announcement: announcement, frames: frames) }
        let problems = Lines()
        let settings = ServeSettings(output: output, outputDisplay: "Output", problemLog: { problems.append($0) })
        return Served(folder: folder, service: AnnouncementService(settings), problems: problems)
    }

    @Test func healthAndSetDescribeTheSet() throws {
        let server = try served()
        defer { server.folder.remove() }
        let health = server.get("/healthz")
        #expect(health.status == 200)
        #expect(String(decoding: health.body.data, as: UTF8.self) == "{\"set\":\"\(server.id)\",\"status\":\"ok\"}\n")
        #expect(health.header("Cache-Control") == "no-store")

        let set = server.get("/v1/set")
        #expect(set.status == 200)
        #expect(set.header("Content-Type") == "application/json")
        let object = try server.json(set)
        #expect(object["id"] as? String == server.id)
        // The set's own id (its clips and format: the report's, the installed names'), beside the
        // served id, which covers the reading and announcement settings too.
        let manifest = try Manifest.load(from: server.output.appendingPathComponent("manifest.json"))
        let ownID = SoundSet(manifest: manifest, folder: server.output).id
        #expect(object["setId"] as? String == ownID)
        #expect(ownID != server.id)
        #expect(object["locale"] as? String == "zh-CN")
        #expect(object["sampleRate"] as? Int == 8000)
        #expect(object["container"] as? String == "caf")
        let clips = object["clips"] as? [[String: Any]] ?? []
        #expect(clips.map { $0["name"] as? String } == manifest.clips.map(\.name))
        #expect(clips.map { $0["frames"] as? Int } == manifest.clips.map(\.frames))
        // Times to the millisecond, as everywhere soundset prints JSON.
        #expect(clips.map { $0["seconds"] as? Double } == manifest.clips.map { ($0.seconds * 1000).rounded() / 1000 })
        #expect(String(decoding: set.body.data, as: UTF8.self).range(of: #"[0-9]\.[0-9]{4,}"#, options: .regularExpression) == nil)
    }

    /// One byte range (Safari asks `bytes=0-1` before it plays): 206 with the bytes and
    /// Content-Range; a range past the end is 416; several ranges, or an If-Range of another
    /// body, get the whole body.
    @Test func aByteRangeIsAnsweredWith206() throws {
        let server = try served()
        defer { server.folder.remove() }
        let whole = server.get("/v1/announcements/12.wav")
        #expect(whole.header("Accept-Ranges") == "bytes")
        let bytes = whole.body.data
        let etag = try #require(whole.header("ETag"))
        for (range, first, last) in [
            ("bytes=0-1", 0, 1), ("bytes=100-", 100, bytes.count - 1), ("bytes=-10", bytes.count - 10, bytes.count - 1),
            ("bytes=5-999999999", 5, bytes.count - 1),
        ] {
            let part = server.get("/v1/announcements/12.wav", headers: ["range": range])
            #expect(part.status == 206, "\(range)")
            #expect(part.header("Content-Range") == "bytes \(first)-\(last)/\(bytes.count)", "\(range)")
            #expect(part.body.data == bytes[first...last], "\(range)")
        }
        let past = server.get("/v1/announcements/12.wav", headers: ["range": "bytes=\(bytes.count)-"])
        #expect(past.status == 416)
        #expect(past.header("Content-Range") == "bytes */\(bytes.count)")
        for headers in [["range": "bytes=0-1,5-6"], ["range": "items=0-1"], ["range": "bytes=0-1", "if-range": "\"other\""], ["range": "bytes=x-1"]] {
            let full = server.get("/v1/announcements/12.wav", headers: headers)
            #expect(full.status == 200, "\(headers)")
            #expect(full.body.data == bytes, "\(headers)")
        }
        #expect(server.get("/v1/announcements/12.wav", headers: ["range": "bytes=0-1", "if-range": etag]).status == 206)
    }

    /// A suffix the request names that needs a copy the set lacks is the request's to change: 400.
    @Test func aRequestThatNeedsAMissingCopyIs400() throws {
        let server = try served()
        defer { server.folder.remove() }
        for target in ["/v1/plan/5?suffix=yuan", "/v1/announcements/5.wav?suffix=yuan"] {
            let response = server.get(target)
            #expect(response.status == 400, "\(target)")
            let body = try server.json(response)
            #expect(
                body["error"] as? String
                    == "the sound set has no yuanCopy to play its clip twice in a row (add \"yuan\" to copies in soundset.json and run soundset build)")
        }
    }

    @Test func withoutAValidSetHealthIs503AndSoIsEverythingElse() throws {
        let server = try served(write: false)
        defer { server.folder.remove() }
        for target in ["/healthz", "/v1/set", "/v1/plan/1", "/v1/announcements/1.wav"] {
            let response = server.get(target)
            #expect(response.status == 503, "\(target)")
            // The body names no file of the server's: the problem log does, once.
            let object = try server.json(response)
            #expect(object["error"] as? String == "no valid sound set", "\(target)")
            #expect(object["hint"] as? String == "build the set: the server picks it up without a restart (the server's log says what is wrong)")
        }
        #expect(server.problems.all == ["soundset: no valid sound set: Output has no manifest.json (run soundset build --output Output)"])
        // A set whose clip is not the one its manifest describes is no valid set either.
        try FakeSets.write(in: server.output, prefix: "received")
        #expect(server.get("/healthz").status == 200)
        let other = try served()
        defer { other.folder.remove() }
        try Data("not a sound".utf8).write(to: other.output.appendingPathComponent("Sounds/3.caf"))
        let broken = try other.json(other.get("/healthz"))
        #expect(broken["error"] as? String == "no valid sound set")
        #expect(
            other.problems.all == [
                "soundset: no valid sound set: Output/Sounds/3.caf is not the file the manifest describes (run soundset build --output Output)"
            ])
        // Served, then the same reason again: told again.
        try FileManager.default.removeItem(at: server.output.appendingPathComponent("manifest.json"))
        for _ in 0..<500 where server.get("/healthz").status == 200 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(server.get("/v1/set").status == 503)
        #expect(server.problems.all.count == 2 && Set(server.problems.all).count == 1, "\(server.problems.all)")
    }

    /// A set whose manifest, Sounds folder or a clip is a link to a file outside it is no set to
    /// serve (a commit or an app carries the link, not the file), whatever the link points to: 503,
    /// naming the link and the fix; once the build has put the files in their place, it is served.
    @Test(arguments: [("Sounds/3.caf", "the sound"), ("Sounds", "the sounds"), ("manifest.json", "the manifest")])
    func aSetWithALinkInItIsNotServed(item: String, carried: String) throws {
        let server = try served()
        defer { server.folder.remove() }
        let elsewhere = try server.folder.folder("elsewhere")
        let moved = elsewhere.appendingPathComponent((item as NSString).lastPathComponent)
        try FileManager.default.moveItem(at: server.output.appendingPathComponent(item), to: moved)
        try FileManager.default.createSymbolicLink(at: server.output.appendingPathComponent(item), withDestinationURL: moved)
        for target in ["/healthz", "/v1/announcements/3.wav"] {
            let response = server.get(target)
            #expect(response.status == 503, "\(target)")
            #expect(try server.json(response)["error"] as? String == "no valid sound set", "\(target)")
            #expect(!response.body.data.contains(Data(moved.path.utf8)))
        }
        #expect(
            server.reason
                == "Output/\(item) is a link to \(moved.path): a commit or an app bundle carries the link, not \(carried) (run soundset build --output Output)")
        // The build's swap puts a whole new set in its place.
        let staging = server.folder.url.appendingPathComponent("staging")
        try FakeSets.write(in: staging, prefix: "received", frames: { _ in 500 })
        try FileManager.default.moveItem(at: server.output, to: server.folder.url.appendingPathComponent("retired"))
        try FileManager.default.moveItem(at: staging, to: server.output)
        #expect(server.get("/healthz").status == 200)
    }

    /// A manifest over the runtime's cap is no valid set here either, refused by its size as the app
    /// and check refuse it.
    @Test func aManifestOverTheRuntimesCapIs503() throws {
        let server = try served()
        defer { server.folder.remove() }
        let manifest = server.output.appendingPathComponent("manifest.json")
        var data = try Data(contentsOf: manifest)
        data.append(Data(repeating: UInt8(ascii: " "), count: Manifest.maxBytes + 1 - data.count))
        try data.write(to: manifest)
        let response = server.get("/healthz")
        #expect(response.status == 503)
        let error = server.reason ?? ""
        #expect(error.hasPrefix("Output/manifest.json: "), "\(error)")
        #expect(error.contains("manifest.json: the manifest is 262145 bytes, more than the 262144 an app's extension can afford to read"), "\(error)")
    }

    @Test(arguments: [
        ("/", 404), ("/v1", 404), ("/v1/", 404), ("/v1/set/", 404), ("/v1/set/x", 404), ("/v1/announcements", 404),
        ("/v1/announcements/1.ogg", 404), ("/v1/announcements/12", 404), ("/v1/announcements/1.wav/x", 404), ("/v1/sets/abc", 404),
        ("/v1/sets/abc/set", 404), ("/v1/../healthz", 404), ("/v1/%2e%2e/healthz", 404), ("/Output/manifest.json", 404),
        ("/v1/announcements/..%2F..%2Fmanifest.json", 404), ("/v1/announcements/..%2F..%2F1.wav", 400), ("/v1/plan/1%00", 400), ("/v1/plan/%zz", 400),
        ("/v1/plan/1.234", 400),
        ("/v1/announcements/-1.wav", 400), ("/v1/announcements/1e5.mp3", 400),
    ])
    func errorStatuses(target: String, status: Int) throws {
        let server = try served()
        defer { server.folder.remove() }
        let response = server.get(target)
        #expect(response.status == status)
        #expect(response.header("Content-Type") == "application/json")
        let object = try server.json(response)
        #expect(object["error"] is String)
        #expect((object["hint"] as? String)?.isEmpty == false)
    }

    @Test func errorBodiesSayWhatIsWrong() throws {
        let server = try served()
        defer { server.folder.remove() }
        let comma = try server.json(server.get("/v1/announcements/1,5.mp3"))
        #expect(comma["error"] as? String == "'1,5': the amount has a decimal comma: write 1.5, with a point")
        let encoded = try server.json(server.get("/v1/plan/1%2C5"))
        #expect(encoded["error"] as? String == "'1,5': the amount has a decimal comma: write 1.5, with a point")
        let unknown = try server.json(server.get("/v1/announcements/1.wav?prefx=none"))
        #expect(unknown["error"] as? String == "unknown query parameter 'prefx'")
        let twice = try server.json(server.get("/v1/announcements/1.wav?join=file&join=file"))
        #expect(twice["error"] as? String == "the query parameter join is given more than once")
        let join = try server.json(server.get("/v1/announcements/1.wav?join=crossfade"))
        #expect(join["error"] as? String == "join must be speech or file, not 'crossfade'")
        let whole = try server.json(server.get("/v1/announcements/1.wav?whole=yes"))
        #expect(whole["error"] as? String == "whole must be 0 or 1, not 'yes'")
        let path = try server.json(server.get("/v1/announcements/1.wav?prefix=..%2Fmanifest"))
        #expect(path["error"] as? String == "prefix '../manifest' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed")
        let missing = server.get("/v1/announcements/1.wav?suffix=thanks")
        #expect(missing.status == 400)
        #expect(try server.json(missing)["error"] as? String == "the set has no clip 'thanks' for the suffix")
    }

    @Test func otherMethodsAre405WithAllow() throws {
        let server = try served()
        defer { server.folder.remove() }
        for method in ["POST", "PUT", "DELETE", "PATCH", "get", "options"] {
            let response = server.get("/healthz", method: method)
            #expect(response.status == 405, "\(method)")
            #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(try server.json(response)["hint"] as? String == "soundset serve answers GET, HEAD and OPTIONS only")
        }
        #expect(server.get("/healthz", method: "HEAD").status == 200)
    }

    @Test func aURIOver2KiBIs414() throws {
        let server = try served()
        defer { server.folder.remove() }
        let base = "/v1/announcements/1.wav?prefix="
        let exact = base + String(repeating: "a", count: 2048 - base.utf8.count)
        #expect(server.get(exact).status == 400)  // read, and refused for its name's length
        let over = server.get(exact + "a")
        #expect(over.status == 414)
        #expect(try server.json(over)["error"] as? String == "the request's URI is 2049 bytes, over the 2048 allowed")
        #expect(server.get(exact + "a", method: "POST").status == 414)
    }

    @Test func pinnedURLsAreImmutableAndOnlyForTheCurrentSet() throws {
        let server = try served()
        defer { server.folder.remove() }
        let pinned = server.get("/v1/sets/\(server.id)/announcements/12.wav")
        #expect(pinned.status == 200)
        #expect(pinned.header("Cache-Control") == "public, max-age=31536000, immutable")
        let unpinned = server.get("/v1/announcements/12.wav")
        #expect(unpinned.header("Cache-Control") == "public, max-age=60")
        #expect(unpinned.body.data == pinned.body.data)
        #expect(unpinned.header("ETag") == pinned.header("ETag"))
        #expect(server.get("/v1/sets/\(server.id)/plan/12").header("Cache-Control") == "public, max-age=31536000, immutable")

        let other = server.get("/v1/sets/0123456789/announcements/12.wav")
        #expect(other.status == 404)
        let object = try server.json(other)
        #expect(object["set"] as? String == server.id)
        #expect(object["error"] as? String == "the set '0123456789' is not served here: the current set is \(server.id)")
        #expect(object["hint"] as? String == "ask for /v1/sets/\(server.id)/announcements/12.wav, or the unpinned /v1/announcements/12.wav")
    }

    @Test func entityTagsNameTheSetAmountOptionsAndFormat() throws {
        let server = try served()
        defer { server.folder.remove() }
        let first = server.get("/v1/announcements/12.wav")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"\(server.id)-") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
        #expect(server.get("/v1/announcements/12.wav").header("ETag") == etag)
        // The set's own prefix named or left out: the same announcement, the same tag.
        #expect(server.get("/v1/announcements/12.wav?prefix=received").header("ETag") == etag)
        #expect(server.get("/v1/announcements/12.00.wav").header("ETag") == etag)
        var others: Set<String> = [etag]
        for target in [
            "/v1/announcements/12.mp3", "/v1/announcements/12.caf", "/v1/announcements/12.aiff", "/v1/announcements/12.01.wav",
            "/v1/announcements/12.wav?prefix=none", "/v1/announcements/12.wav?join=file", "/v1/announcements/12.wav?whole=1",
            "/v1/plan/12",
        ] {
            let tag = try #require(server.get(target).header("ETag"), "\(target)")
            #expect(others.insert(tag).inserted, "\(target)")
        }

        for field in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let cached = server.get("/v1/announcements/12.wav", headers: ["if-none-match": field])
            #expect(cached.status == 304, "\(field)")
            // The length of the body a 200 would carry (the front sends no body): the 304's Content-Length.
            #expect(cached.bodyLength == first.body.count)
            #expect(cached.body.count == 0)
            #expect(cached.header("ETag") == etag)
        }
        #expect(server.get("/v1/announcements/12.wav", headers: ["if-none-match": "\"other\""]).status == 200)
        // The tag ends in the amount as the amount writes itself.
        for text in ["0", "0.05", "10.5", "999999999999.99", "1000000"] {
            let amount = try Amount(text)
            #expect(server.get("/v1/plan/\(text)").header("ETag")?.hasSuffix("-\(amount)\"") == true, "\(text)")
        }
        let plan = try #require(server.get("/v1/plan/12").header("ETag"))
        #expect(server.get("/v1/plan/12", headers: ["if-none-match": plan]).status == 304)
    }

    @Test func ifNoneMatchIsReadByteByByte() {
        let etag = "\"0123456789-abcdef012345-12.00\""
        for field in [etag, " \(etag) ", "\t\(etag)", "W/\(etag)", "\"a\",\(etag)", "\"a\" ,\t W/\(etag) ,", "\"a\",,\(etag)", "*", " * "] {
            #expect(AnnouncementService.matches(field, etag), "\(field)")
        }
        for field in ["", ",", "\"a\"", String(etag.dropLast()), etag + "x", "x" + etag, "W/", "w/\(etag)", "\"a\", *", "**", "W/*"] {
            #expect(!AnnouncementService.matches(field, etag), "\(field)")
        }
        #expect(!AnnouncementService.matches(nil, etag))
    }

    /// Two Content-Length fields that disagree (joined by the front, as any field sent twice) are a
    /// request smuggled past a proxy that reads the other one: 400. The same length twice is one.
    @Test func contentLengthsThatDisagreeAre400() throws {
        let server = try served()
        defer { server.folder.remove() }
        let refused = server.get("/healthz", headers: ["content-length": "5, 50"])
        #expect(refused.status == 400)
        #expect(try server.json(refused)["error"] as? String == "the request has Content-Length fields that disagree (5, 50)")
        #expect(server.get("/healthz", headers: ["content-length": "5, 5"]).status == 200)
        #expect(server.get("/healthz", headers: ["content-length": "0"]).status == 200)
    }

    @Test func theAnnouncersRulesDecideWhatPlays() throws {
        // received lasts 2 s, every other clip 0.5 s: "1" whole lasts about 3 s, without the prefix 1 s.
        var settings = AnnouncementSettings(bannerSeconds: 2, leadInMs: 100)
        let server = try served(announcement: settings, frames: { $0 == "received" ? 16_000 : 4_000 })
        defer { server.folder.remove() }
        let manifest = try Manifest.load(from: server.output.appendingPathComponent("manifest.json"))
        settings = manifest.announcement!
        let full = try Planner(manifest: manifest).plan(Amount("1"), announcement: settings)
        var bareSettings = settings
        bareSettings.prefix = nil
        let bare = try Planner(manifest: manifest).plan(Amount("1"), announcement: bareSettings)
        #expect(full.clips == ["received", "1", "yuan"])
        #expect(Double(800 + full.totalFrames) / 8000 > 2 && Double(800 + bare.totalFrames) / 8000 <= 2)

        func frames(_ target: String) throws -> Int {
            let response = server.get(target)
            #expect(response.status == 200, "\(target)")
            return try SoundData(parsing: response.body.data, name: target).frames
        }
        // Over the banner whole: the prefix is dropped, the lead-in kept.
        #expect(try frames("/v1/announcements/1.caf") == 800 + bare.totalFrames)
        // whole=1: everything, no lead-in.
        #expect(try frames("/v1/announcements/1.caf?whole=1") == full.totalFrames)
        // A prefix that fits plays.
        let fitting = try Planner(manifest: manifest).plan(Amount("1"), announcement: bareSettings)
        #expect(try frames("/v1/announcements/1.caf?prefix=none") == 800 + fitting.totalFrames)
        // The plan is what soundset plan --format json prints: what plays, and what the rules made of it.
        let plan = String(decoding: server.get("/v1/plan/1").body.data, as: UTF8.self)
        #expect(plan == (try JSONFormatting.text(try PlayedAnnouncement.of(Amount("1"), manifest: manifest))) + "\n")
        #expect(plan.contains(#""outcome" : "shortened""#) || plan.contains(#""outcome":"shortened""#), "\(plan)")
        #expect(plan.contains(#""leadInFrames" : 800"#) || plan.contains(#""leadInFrames":800"#), "\(plan)")
    }

    @Test func aNewSetIsPickedUpAndARequestUnderWayKeepsItsOwn() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output, prefix: "received")
        let source = SetSource(output: output, display: "Output")
        let before = try source.current().get()
        #expect(try source.current().get() === before)  // unchanged: the same set, not read again

        // A build's swap: the new set is staged beside the folder and renamed into its place, and
        // the old one removed.
        let staging = folder.url.appendingPathComponent("staging")
        try FakeSets.write(in: staging, prefix: "received", frames: { _ in 500 })
        try FileManager.default.moveItem(at: output, to: folder.url.appendingPathComponent("retired"))
        try FileManager.default.moveItem(at: staging, to: output)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("retired"))

        // Picked up within the recheck interval (a tenth of a second): asked again until then, for 5 s at most.
        var after = try source.current().get()
        for _ in 0..<500 where after.id == before.id {
            Thread.sleep(forTimeInterval: 0.01)
            after = try source.current().get()
        }
        #expect(after.id != before.id)
        #expect(after.set.manifest.clips.allSatisfy { $0.frames == 500 })
        // The request that began before the swap composes its own set, whole, though its files are gone.
        let sound = try AnnouncementRenderer.render(amount: Amount("2.22"), options: AnnouncementOptions(), format: .caf, set: before)
        let oldPlan = try AnnouncementRenderer.plan(Amount("2.22"), options: AnnouncementOptions(), set: before)
        #expect(try SoundData(parsing: sound, name: "old").frames == oldPlan.frames)
        #expect(oldPlan.plan.steps.allSatisfy { $0.frames != 500 })
        let newPlan = try AnnouncementRenderer.plan(Amount("2.22"), options: AnnouncementOptions(), set: after)
        let newSound = try AnnouncementRenderer.render(amount: Amount("2.22"), options: AnnouncementOptions(), format: .caf, set: after)
        #expect(try SoundData(parsing: newSound, name: "new").frames == newPlan.frames)
    }

    @Test(arguments: [Container.caf, .wav, .aiff], [Encoding.pcm16, .ulaw, .alaw])
    func everyContainerHoldsTheSameSamples(container: Container, encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output, container: container, encoding: encoding, prefix: "received")
        let service = AnnouncementService(ServeSettings(output: output, outputDisplay: "Output"))
        var decoded: [String: [Float]] = [:]
        for format in AudioFormat.allCases where format != .mp3 {
            let response = service.respond(to: HTTPRequest(method: "GET", target: "/v1/announcements/2.22.\(format.rawValue)"))
            #expect(response.status == 200)
            let file = try SoundFile.open(bytes: response.body.data, path: "a.\(format.rawValue)")
            #expect(file.info.container == format.container)
            #expect(file.info.encoding == encoding)
            #expect(file.info.sampleRate == 8000)
            decoded[format.rawValue] = try file.readAll()
        }
        let own = try #require(decoded[container.rawValue])
        #expect(own.count > 1000)
        for (name, samples) in decoded { #expect(samples == own, "\(name) from \(container.rawValue) \(encoding.rawValue)") }
        let mp3 = service.respond(to: HTTPRequest(method: "GET", target: "/v1/announcements/2.22.mp3"))
        #expect(try SoundFile.open(bytes: mp3.body.data, path: "a.mp3").info.sampleRate == 8000)
    }

    @Test func accessLinesAreOneLineWhateverTheTarget() {
        let line = AnnouncementService.accessLine(
            HTTPExchange(method: "GET", target: "/v1/plan/1\n2\u{1B}[31m", status: 400, bytes: 120, seconds: 0.0123))
        #expect(line == "GET /v1/plan/1\\n2\\u{1B}[31m 400 120 12.3 ms")
    }
}
