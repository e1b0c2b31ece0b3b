import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

@testable import SoundsetServe

/// Several voices in one output folder (`voices.json` and `voices/<voice>/`), answered in process.
@Suite struct VoicesServiceTests {
    /// An output folder of two voices: `a` (FakeSets' clips) and `b` (the same names, other
    /// lengths, so other samples and another set id), `voices.json` naming `defaultVoice`.
    static func twoVoices(in folder: URL, defaultVoice: String? = "a") throws -> URL {
        let output = folder.appendingPathComponent("Output")
        try FakeSets.write(in: output.appendingPathComponent("voices/a"), prefix: "received")
        try FakeSets.write(in: output.appendingPathComponent("voices/b"), prefix: "received", frames: { 400 + $0.utf8.count * 11 })
        try writeIndex(output, voices: ["a", "b"], defaultVoice: defaultVoice)
        return output
    }

    static func writeIndex(_ output: URL, voices: [String], defaultVoice: String?) throws {
        let listed = try voices.map { voice -> [String: Any] in
            ["voice": voice, "locale": "zh-CN", "setId": try TestPacks.setId(output.appendingPathComponent("voices/\(voice)"))]
        }
        let index: [String: Any] = ["defaultVoice": defaultVoice.map { $0 as Any } ?? NSNull(), "schemaVersion": 1, "voices": listed]
        try JSONSerialization.data(withJSONObject: index, options: [.sortedKeys]).write(to: output.appendingPathComponent("voices.json"))
    }

    private struct Served {
        let service: AnnouncementService
        let problems: AnnouncementServiceTests.Lines

        func get(_ target: String, method: String = "GET", headers: [String: String] = [:]) -> HTTPResponse {
            service.respond(to: HTTPRequest(method: method, target: target, headers: headers))
        }
        func json(_ target: String) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: get(target).body.data) as? [String: Any] ?? [:]
        }
    }

    private func served(_ output: URL) -> Served {
        let problems = AnnouncementServiceTests.Lines()
        return Served(
            service: AnnouncementService(ServeSettings(output: output, outputDisplay: "Output", problemLog: { problems.append($0) })), problems: problems)
    }

    /// `serve --voice b`: the unversioned paths mean b, over voices.json's default a.
    @Test func theChosenVoiceIsWhatTheUnversionedPathsMean() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = try Self.twoVoices(in: folder.url, defaultVoice: "a")
        let chosen = AnnouncementService(ServeSettings(output: output, outputDisplay: "Output", voice: "b"))
        let idB = try #require(try served(output).json("/v1/voices/b/set")["id"] as? String)
        let set = try JSONSerialization.jsonObject(with: chosen.respond(to: HTTPRequest(method: "GET", target: "/v1/set")).body.data) as? [String: Any]
        #expect(set?["id"] as? String == idB)
        let voices = try JSONSerialization.jsonObject(with: chosen.respond(to: HTTPRequest(method: "GET", target: "/v1/voices")).body.data) as? [String: Any]
        #expect(voices?["defaultVoice"] as? String == "b")
        #expect(
            chosen.respond(to: HTTPRequest(method: "GET", target: "/v1/announcements/12.wav")).body.data
                == served(output).get("/v1/voices/b/announcements/12.wav").body.data)
    }

    @Test func eachVoiceIsAnsweredWithItsOwnSetAndTheUnversionedPathsMeanTheDefault() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = try Self.twoVoices(in: folder.url)
        let server = served(output)
        // Each voice's set alone, served as a one-voice output folder: what its paths must answer.
        let alone = ["a", "b"].map { served(output.appendingPathComponent("voices/\($0)")) }

        let idA = try #require(try server.json("/v1/voices/a/set")["id"] as? String)
        let idB = try #require(try server.json("/v1/voices/b/set")["id"] as? String)
        #expect(idA != idB)
        #expect(try server.json("/v1/set")["id"] as? String == idA)
        for format in ["wav", "caf", "mp3"] {
            let a = server.get("/v1/voices/a/announcements/123.45.\(format)")
            let b = server.get("/v1/voices/b/announcements/123.45.\(format)")
            #expect(a.status == 200 && b.status == 200)
            #expect(a.body.data != b.body.data, "\(format)")
            #expect(a.header("ETag") != b.header("ETag"), "\(format)")
            // Byte for byte each voice's set alone: no clip of the other voice in it.
            #expect(a.body.data == alone[0].get("/v1/announcements/123.45.\(format)").body.data, "\(format)")
            #expect(b.body.data == alone[1].get("/v1/announcements/123.45.\(format)").body.data, "\(format)")
            let unversioned = server.get("/v1/announcements/123.45.\(format)")
            #expect(unversioned.body.data == a.body.data)
            #expect(unversioned.header("ETag") == a.header("ETag"))
        }
        // The cache holds both voices' bodies apart: asked again, each is its own.
        #expect(server.get("/v1/voices/b/announcements/123.45.wav").body.data == alone[1].get("/v1/announcements/123.45.wav").body.data)
        #expect(server.get("/v1/voices/b/plan/7").body.data == alone[1].get("/v1/plan/7").body.data)
        #expect(server.get("/v1/voices/a/plan/7").body.data != server.get("/v1/voices/b/plan/7").body.data)

        // Pinned per voice: the voice's own id, cached for a year; the other voice's id is 404 naming this one's.
        let pinned = server.get("/v1/voices/b/sets/\(idB)/announcements/8.wav")
        #expect(pinned.status == 200)
        #expect(pinned.header("Cache-Control") == "public, max-age=31536000, immutable")
        let other = server.get("/v1/voices/b/sets/\(idA)/announcements/8.wav")
        #expect(other.status == 404)
        let otherBody = try JSONSerialization.jsonObject(with: other.body.data) as? [String: Any] ?? [:]
        #expect(otherBody["set"] as? String == idB)
        #expect((otherBody["hint"] as? String)?.contains("/v1/voices/b/sets/\(idB)/announcements/8.wav") == true)
        // 304 per voice: a's tag does not revalidate b's announcement.
        let tagA = try #require(server.get("/v1/voices/a/announcements/9.wav").header("ETag"))
        #expect(server.get("/v1/voices/a/announcements/9.wav", headers: ["if-none-match": tagA]).status == 304)
        #expect(server.get("/v1/voices/b/announcements/9.wav", headers: ["if-none-match": tagA]).status == 200)
    }

    @Test func theListHealthAndMetricsCoverEveryVoice() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = try Self.twoVoices(in: folder.url)
        let server = served(output)
        let idA = try #require(try server.json("/v1/voices/a/set")["id"] as? String)
        let idB = try #require(try server.json("/v1/voices/b/set")["id"] as? String)

        let list = try server.json("/v1/voices")
        #expect(list["defaultVoice"] as? String == "a")
        let voices = try #require(list["voices"] as? [[String: Any]])
        #expect(voices.map { $0["voice"] as? String } == ["a", "b"])
        #expect(voices.map { $0["id"] as? String } == [idA, idB])
        #expect(voices.map { $0["default"] as? Bool } == [true, false])
        #expect(voices.map { $0["locale"] as? String } == ["zh-CN", "zh-CN"])
        #expect(voices[1]["setId"] as? String == (try TestPacks.setId(output.appendingPathComponent("voices/b"))))

        let health = server.get("/healthz")
        #expect(health.status == 200)
        #expect(String(decoding: health.body.data, as: UTF8.self) == "{\"set\":\"\(idA)\",\"status\":\"ok\",\"voices\":{\"a\":\"\(idA)\",\"b\":\"\(idB)\"}}\n")
        let metrics = String(decoding: server.get("/metrics").body.data, as: UTF8.self)
        #expect(metrics.contains("soundset_set_info{set=\"\(idA)\",voice=\"a\"} 1\n"))
        #expect(metrics.contains("soundset_set_info{set=\"\(idB)\",voice=\"b\"} 1\n"))
        #expect(metrics.contains("soundset_set_valid 1\n"))

        // One voice without a valid set: /healthz is 503 naming it, the log names its folder, the other voice answers.
        try FileManager.default.removeItem(at: output.appendingPathComponent("voices/b/manifest.json"))
        let broken = served(output)
        let sick = broken.get("/healthz")
        #expect(sick.status == 503)
        #expect(String(decoding: sick.body.data, as: UTF8.self).contains("no valid sound set for the voice 'b'"))
        #expect(broken.problems.all.contains { $0.hasPrefix("soundset: no valid sound set: Output/voices/b has no manifest.json") })
        #expect(broken.get("/v1/voices/a/announcements/1.wav").status == 200)
        #expect(broken.get("/v1/voices/b/announcements/1.wav").status == 503)
        let sickMetrics = String(decoding: broken.get("/metrics").body.data, as: UTF8.self)
        #expect(sickMetrics.contains("soundset_set_valid 0\n"))
        #expect(sickMetrics.contains("voice=\"a\"} 1\n") && !sickMetrics.contains("voice=\"b\""))
    }

    @Test func anUnknownOrBadVoiceIs404ListingTheVoices() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let server = served(try Self.twoVoices(in: folder.url))
        let long = String(repeating: "x", count: 65)
        for voice in ["zz", "..", ".", "a%2Fb", "%2E%2E", "-a", long, "a%20b", "%E4%B8%AD"] {
            let response = server.get("/v1/voices/\(voice)/announcements/1.wav")
            #expect(response.status == 404, "\(voice)")
            let body = try JSONSerialization.jsonObject(with: response.body.data) as? [String: Any] ?? [:]
            #expect(body["voices"] as? [String] == ["a", "b"], "\(voice)")
            #expect((body["error"] as? String)?.contains("the voices are a, b") == true, "\(voice)")
        }
        #expect((try server.json("/v1/voices/zz/set")["error"] as? String)?.hasPrefix("there is no voice 'zz'") == true)
        // A NUL or another control character, escaped or not, is refused whole.
        #expect(server.get("/v1/voices/a%00/set").status == 400)
        #expect(server.get("/v1/voices/a\u{0}/set").status == 400)
        // Paths that are not a voice's resource.
        for target in ["/v1/voices/a", "/v1/voices/a/", "/v1/voices/a/voices", "/v1/voices/a/voices/b/set", "/v1/voices/a/sets"] {
            #expect(server.get(target).status == 404, "\(target)")
        }
    }

    @Test func severalVoicesWithoutADefaultAnswerOnlyTheVoicePaths() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let server = served(try Self.twoVoices(in: folder.url, defaultVoice: nil))
        let unversioned = server.get("/v1/announcements/1.wav")
        #expect(unversioned.status == 404)
        let body = try JSONSerialization.jsonObject(with: unversioned.body.data) as? [String: Any] ?? [:]
        #expect((body["error"] as? String)?.contains("names no default") == true)
        #expect(body["voices"] as? [String] == ["a", "b"])
        #expect(server.get("/v1/voices/b/announcements/1.wav").status == 200)
        #expect(try server.json("/v1/voices")["defaultVoice"] is NSNull)
    }

    @Test func oneVoiceListsItsSetUnnamedAndHasNoVoicePaths() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output, prefix: "received")
        let server = served(output)
        let id = try #require(try server.json("/v1/set")["id"] as? String)
        let list = try server.json("/v1/voices")
        #expect(list["defaultVoice"] is NSNull)
        let voices = try #require(list["voices"] as? [[String: Any]])
        #expect(voices.count == 1)
        #expect(voices[0]["voice"] is NSNull)
        #expect(voices[0]["id"] as? String == id)
        #expect(voices[0]["default"] as? Bool == true)
        let named = server.get("/v1/voices/a/set")
        #expect(named.status == 404)
        let body = try JSONSerialization.jsonObject(with: named.body.data) as? [String: Any] ?? [:]
        #expect(body["voices"] as? [String] == [])
        // The one set's answers keep their bytes: no voice in them.
        #expect(String(decoding: server.get("/healthz").body.data, as: UTF8.self) == "{\"set\":\"\(id)\",\"status\":\"ok\"}\n")
    }

    @Test func aVoiceAddedByABuildIsServedWithoutARestart() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = try Self.twoVoices(in: folder.url)
        let sources = VoiceSources(output: output, display: "Output", recheckInterval: 0)
        #expect(sources.current().names == ["a", "b"])
        let keptA = try #require(sources.current().voice(named: "a"))
        try FakeSets.write(in: output.appendingPathComponent("voices/c"), prefix: "received", frames: { 300 + $0.utf8.count })
        try Self.writeIndex(output, voices: ["a", "b", "c"], defaultVoice: "c")
        let lineup = sources.current()
        #expect(lineup.names == ["a", "b", "c"])
        #expect(lineup.defaultVoice?.name == "c")
        // A voice still listed keeps its source (its set is not loaded again for the new index).
        #expect(lineup.voice(named: "a") === keptA)
        #expect(try lineup.voice(named: "c")?.source.current().get().set.id == TestPacks.setId(output.appendingPathComponent("voices/c")))
        // A build that swaps a voice's set: that voice's source loads it (off the request, as one set's does).
        let reloading = VoiceSources(
            output: output, display: "Output", recheckInterval: 0, makeSource: { SetSource(output: $0, display: $1, recheckInterval: 0) })
        let sourceB = try #require(reloading.current().voice(named: "b")?.source)
        let before = try sourceB.current().get().set.id
        try FileManager.default.removeItem(at: output.appendingPathComponent("voices/b"))
        try FakeSets.write(in: output.appendingPathComponent("voices/b"), prefix: "received", frames: { 500 + $0.utf8.count })
        _ = sourceB.current()
        sourceB.waitForLoad()
        let after = try #require(reloading.current().voice(named: "b")).source.current().get().set.id
        #expect(after != before)
        #expect(after == (try TestPacks.setId(output.appendingPathComponent("voices/b"))))
        #expect(try reloading.current().voice(named: "a")?.source.current().get().set.id == TestPacks.setId(output.appendingPathComponent("voices/a")))
        // An index that does not read: no voice is served, and the reason names the file.
        try Data("{".utf8).write(to: output.appendingPathComponent("voices.json"))
        #expect(sources.current().broken?.reason.hasPrefix("Output/voices.json is not a voices index") == true)
    }
}
