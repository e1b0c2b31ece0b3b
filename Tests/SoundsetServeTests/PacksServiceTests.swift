import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

@testable import SoundsetServe

/// `serve --packs DIR`, answered in process: the list, the newest pack of a voice, the pinned one.
@Suite struct PacksServiceTests {
    private struct Shelf {
        let folder: TemporaryDirectory
        let packs: URL
        let service: AnnouncementService
        let log: AnnouncementServiceTests.Lines
        /// The files written: a v1 and a v2 of voice a (other sets), a v1 of voice b.
        let a1: Data, a2: Data, b1: Data
        let setA1: String, setA2: String

        func get(_ target: String, method: String = "GET", headers: [String: String] = [:]) -> HTTPResponse {
            service.respond(to: HTTPRequest(method: method, target: target, headers: headers))
        }
    }

    private func shelf(extra: [String: Data] = [:]) throws -> Shelf {
        let folder = try TemporaryDirectory()
        let sets = folder.url.appendingPathComponent("Sets")
        try FakeSets.write(in: sets.appendingPathComponent("one"), prefix: "received")
        try FakeSets.write(in: sets.appendingPathComponent("two"), prefix: "received", frames: { 300 + $0.utf8.count * 7 })
        let packs = try folder.folder("Packs")
        let a1 = try TestPacks.encode(set: sets.appendingPathComponent("one"), voice: "a", version: 1)
        let a2 = try TestPacks.encode(set: sets.appendingPathComponent("two"), voice: "a", version: 2)
        let b1 = try TestPacks.encode(set: sets.appendingPathComponent("one"), voice: "b_1", version: 1)
        for (name, data) in ["a.pack": a1, "a-new.pack": a2, "b.pack": b1].merging(extra, uniquingKeysWith: { $1 }) {
            try data.write(to: packs.appendingPathComponent(name))
        }
        // Not a pack's name: never read.
        try Data("not a pack".utf8).write(to: packs.appendingPathComponent("notes.txt"))
        let log = AnnouncementServiceTests.Lines()
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output, prefix: "received")
        let service = AnnouncementService(
            ServeSettings(output: output, outputDisplay: "Output", problemLog: { log.append($0) }, packs: packs, packsDisplay: "Packs"))
        return Shelf(
            folder: folder, packs: packs, service: service, log: log, a1: a1, a2: a2, b1: b1, setA1: try TestPacks.setId(sets.appendingPathComponent("one")),
            setA2: try TestPacks.setId(sets.appendingPathComponent("two")))
    }

    @Test func theNewestPackOfAVoiceIsRevalidatedAndAPinnedOneIsImmutable() throws {
        let shelf = try shelf()
        defer { shelf.folder.remove() }
        let newest = shelf.get("/v1/packs/a.pack")
        #expect(newest.status == 200)
        #expect(newest.body.data == shelf.a2)
        #expect(newest.header("ETag") == "\"2-\(shelf.setA2)\"")
        #expect(newest.header("Cache-Control") == "no-cache")
        #expect(newest.header("Content-Type") == "application/octet-stream")
        #expect(newest.header("Access-Control-Allow-Origin") == "*")
        let again = shelf.get("/v1/packs/a.pack", headers: ["if-none-match": "\"2-\(shelf.setA2)\""])
        #expect(again.status == 304)
        // The old version's tag is not the newest's: the whole new pack.
        #expect(shelf.get("/v1/packs/a.pack", headers: ["if-none-match": "\"1-\(shelf.setA1)\""]).status == 200)

        let pinned = shelf.get("/v1/packs/a/1-\(shelf.setA1).pack")
        #expect(pinned.status == 200)
        #expect(pinned.body.data == shelf.a1)
        #expect(pinned.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(pinned.header("ETag") == "\"1-\(shelf.setA1)\"")
        #expect(shelf.get("/v1/packs/a/1-\(shelf.setA1).pack", headers: ["if-none-match": "\"1-\(shelf.setA1)\""]).status == 304)
        #expect(shelf.get("/v1/packs/b_1.pack").body.data == shelf.b1)
        // A range, as a resumed download asks.
        let part = shelf.get("/v1/packs/a.pack", headers: ["range": "bytes=0-7"])
        #expect(part.status == 206)
        #expect(part.body.data == Data("SSPACK01".utf8))
        #expect(part.header("Content-Range") == "bytes 0-7/\(shelf.a2.count)")
    }

    @Test func theListNamesEveryPackWithItsPinnedURL() throws {
        let shelf = try shelf()
        defer { shelf.folder.remove() }
        let list = shelf.get("/v1/packs")
        #expect(list.status == 200)
        let object = try JSONSerialization.jsonObject(with: list.body.data) as? [String: Any] ?? [:]
        let packs = try #require(object["packs"] as? [[String: Any]])
        #expect(packs.map { $0["voice"] as? String } == ["a", "a", "b_1"])
        #expect(packs.map { $0["version"] as? Int } == [2, 1, 1])
        #expect(packs.map { $0["bytes"] as? Int } == [shelf.a2.count, shelf.a1.count, shelf.b1.count])
        #expect(packs.map { $0["locale"] as? String } == ["zh-CN", "zh-CN", "zh-CN"])
        #expect(packs[0]["url"] as? String == "/v1/packs/a/2-\(shelf.setA2).pack")
        // Every URL listed answers its pack.
        for pack in packs {
            #expect(shelf.get(pack["url"] as? String ?? "").body.count == pack["bytes"] as? Int)
        }
        #expect(shelf.service.servedPacks() == "packs from Packs: a version 2, b_1 version 1")
    }

    @Test func badNamesAndPathsAreRefusedAndNeverReadAsFiles() throws {
        let shelf = try shelf()
        defer { shelf.folder.remove() }
        let set = shelf.setA1
        let refused = [
            "/v1/packs/zz.pack", "/v1/packs/a", "/v1/packs/.pack", "/v1/packs/..%2Fa.pack", "/v1/packs/%2E%2E.pack", "/v1/packs/a.pack.pack",
            "/v1/packs/a/01-\(set).pack", "/v1/packs/a/1-\(set.uppercased()).pack", "/v1/packs/a/1-\(set)", "/v1/packs/a/1-\(set).pack.pack",
            "/v1/packs/a/-\(set).pack", "/v1/packs/a/3-\(set).pack", "/v1/packs/a/1-\(shelf.setA2).pack", "/v1/packs/../a.pack",
            "/v1/packs/a/..%2F..%2Fa.pack", "/v1/packs/a/1-\(set).pack/x", "/v1/packs/b.pack", "/v1/packs/a.PACK", "/v1/packs/", "/v1/packs/a/",
        ]
        for target in refused {
            let response = shelf.get(target)
            #expect(response.status == 404, "\(target)")
            #expect(response.header("Cache-Control") == "no-store", "\(target)")
        }
        #expect(shelf.get("/v1/packs/a%00.pack").status == 400)
        #expect(shelf.get("/v1/packs/a/1-\(set)\u{0}.pack").status == 400)
        let unknown = try JSONSerialization.jsonObject(with: shelf.get("/v1/packs/zz.pack").body.data) as? [String: Any] ?? [:]
        #expect(unknown["voices"] as? [String] == ["a", "b_1"])
        let wrongVersion = try JSONSerialization.jsonObject(with: shelf.get("/v1/packs/a/3-\(set).pack").body.data) as? [String: Any] ?? [:]
        #expect((wrongVersion["error"] as? String)?.contains("its newest is /v1/packs/a/2-\(shelf.setA2).pack") == true)
    }

    @Test func aFileThatIsNotAPackIsSkippedWithALogLineNamingIt() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let set = folder.url.appendingPathComponent("Set")
        try FakeSets.write(in: set, prefix: "received")
        let good = try TestPacks.encode(set: set, voice: "c", version: 5)
        let bad: [String: Data] = [
            "garbage.pack": Data("hello, world".utf8),
            "cut.pack": good.prefix(good.count - 1),
            "trailing.pack": good + Data([0]),
            "format2.pack": try TestPacks.encode(set: set, voice: "d", version: 1, edit: { $0.format = 2 }),
            "badvoice.pack": try TestPacks.encode(set: set, voice: "../d", version: 1),
            "badfile.pack": try TestPacks.encode(set: set, voice: "e", version: 1, edit: { $0.files[1].name = "Sounds/../x.caf" }),
            "version0.pack": try TestPacks.encode(set: set, voice: "f", version: 0),
            "same.pack": try TestPacks.encode(set: set, voice: "c", version: 5, sign: { _ in Data(repeating: 1, count: 64) }),
        ]
        let shelf = try self.shelf(extra: bad.merging(["c.pack": good], uniquingKeysWith: { $1 }))
        defer { shelf.folder.remove() }
        let list = try JSONSerialization.jsonObject(with: shelf.get("/v1/packs").body.data) as? [String: Any] ?? [:]
        #expect((list["packs"] as? [[String: Any]])?.compactMap { $0["voice"] as? String } == ["a", "a", "b_1", "c"])
        #expect(shelf.get("/v1/packs/c.pack").body.data == good)
        let lines = shelf.log.all
        for name in bad.keys where name != "same.pack" {
            #expect(
                lines.filter { $0.hasPrefix("soundset: packs: skipped Packs/\(name): ") && $0.hasSuffix("; it is not served") }.count == 1, "\(name): \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("soundset: packs: skipped Packs/same.pack: c.pack is the voice c's version 5 too") })
        for voice in ["d", "e", "f"] { #expect(shelf.get("/v1/packs/\(voice).pack").status == 404) }
        // Asked again, nothing changed: nothing read or logged again.
        _ = shelf.get("/v1/packs")
        #expect(shelf.log.all.count == lines.count)
    }

    @Test func aNewOrChangedPackIsReadOnceAndServed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let set = folder.url.appendingPathComponent("Set")
        try FakeSets.write(in: set, prefix: "received")
        let packs = try folder.folder("Packs")
        let shelf = PackShelf(folder: packs, display: "Packs", log: nil, recheckInterval: 0)
        #expect(shelf.current().packs.isEmpty)
        let v1 = try TestPacks.encode(set: set, voice: "a", version: 1)
        try v1.write(to: packs.appendingPathComponent("a.pack"))
        #expect(shelf.current().newest("a")?.body.data == v1)
        let body = try #require(shelf.current().newest("a")?.body)
        // Unchanged: the same bytes in memory, not read again.
        #expect(shelf.current().newest("a")?.body === body)
        let v2 = try TestPacks.encode(set: set, voice: "a", version: 2)
        try v2.write(to: packs.appendingPathComponent("a.pack"), options: .atomic)
        #expect(shelf.current().newest("a")?.header.version == 2)
        #expect(shelf.current().newest("a")?.body.data == v2)
        try FileManager.default.removeItem(at: packs.appendingPathComponent("a.pack"))
        #expect(shelf.current().packs.isEmpty)
    }

    @Test func withoutPacksThePacksPathsAre404() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output, prefix: "received")
        let service = AnnouncementService(ServeSettings(output: output, outputDisplay: "Output"))
        let response = service.respond(to: HTTPRequest(method: "GET", target: "/v1/packs"))
        #expect(response.status == 404)
        #expect(String(decoding: response.body.data, as: UTF8.self).contains("--packs DIR"))
        #expect(service.servedPacks() == nil)
    }
}
