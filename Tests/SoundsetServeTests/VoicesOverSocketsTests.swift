import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

/// `soundset serve` with two voices and a pack, through the built executable over real sockets.
@Suite struct VoicesOverSocketsTests {
    @Test func twoVoicesAndASignedPackOverTheWire() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        // Voice a: the committed demo's zh-CN set (44.1 kHz); voice b: FakeSets' clips (8 kHz).
        try FileManager.default.createDirectory(at: output.appendingPathComponent("voices"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: SoundsetExecutable.packageRoot.appendingPathComponent("Output/voices/zh-CN"), to: output.appendingPathComponent("voices/a"))
        try? FileManager.default.removeItem(at: output.appendingPathComponent("voices/a/report.html"))
        try FakeSets.write(in: output.appendingPathComponent("voices/b"), prefix: "received")
        try VoicesServiceTests.writeIndex(output, voices: ["a", "b"], defaultVoice: "a")
        // A pack of voice a, signed with RFC 8032's first key, framed as soundset pack frames it.
        let keys = try TestKeyPair.rfc1.write(to: folder.url, name: "signer")
        let signer = try Ed25519PrivateKey(contentsOf: keys.privateKey, display: "signer.key")
        let pack = try TestPacks.encode(set: output.appendingPathComponent("voices/a"), voice: "a", version: 3, sign: signer.sign)
        let packs = try folder.folder("Packs")
        try pack.write(to: packs.appendingPathComponent("a.pack"))
        try Data("SSPACK01 but nothing more".utf8).write(to: packs.appendingPathComponent("broken.pack"))

        let server = try ServingSoundset(["--packs", "Packs"], in: folder.url)
        let ids = try ["a", "b"].map { voice in try #require(try server.get("/v1/voices/\(voice)/set").json()["id"] as? String) }
        #expect(ids[0] != ids[1])
        #expect(server.banner == "listening on http://127.0.0.1:\(server.port) (voices a: set \(ids[0]), b: set \(ids[1]); default a)")

        // Each voice's MP3 is byte for byte what soundset render writes from that voice's set alone.
        for (index, voice) in ["a", "b"].enumerated() {
            let served = try server.get("/v1/voices/\(voice)/announcements/123.45.mp3")
            #expect(served.status == 200)
            #expect(served.headers["etag"]?.hasPrefix("\"\(ids[index])-") == true)
            let rendered = try SoundsetExecutable.run(["render", "123.45", "--output", "Output/voices/\(voice)", "--out", "\(voice).mp3"], in: folder.url)
            #expect(rendered.status == 0, "\(rendered.stderr)")
            #expect(served.body == (try Data(contentsOf: folder.url.appendingPathComponent("\(voice).mp3"))), "\(voice)")
        }
        let unversioned = try server.get("/v1/announcements/123.45.mp3")
        #expect(unversioned.body == (try Data(contentsOf: folder.url.appendingPathComponent("a.mp3"))))
        let list = try server.get("/v1/voices").json()
        #expect((list["voices"] as? [[String: Any]])?.map { $0["voice"] as? String } == ["a", "b"])
        #expect(try server.get("/v1/voices/c/set").status == 404)
        #expect(try server.get("/healthz").json()["voices"] as? [String: String] == ["a": ids[0], "b": ids[1]])

        // The pack: its bytes, which the app's key verifies; a 304 while it is the newest; the pinned URL for a year.
        let newest = try server.get("/v1/packs/a.pack")
        #expect(newest.status == 200)
        #expect(newest.body == pack)
        let setId = try TestPacks.setId(output.appendingPathComponent("voices/a"))
        #expect(newest.headers["etag"] == "\"3-\(setId)\"")
        #expect(newest.headers["cache-control"] == "no-cache")
        let verifier = try Ed25519PublicKey(contentsOf: keys.publicKey, display: "signer.pub")
        #expect(verifier.isValidSignature(newest.body.suffix(64), for: newest.body.prefix(newest.body.count - 68)))
        #expect(try server.get("/v1/packs/a.pack", headers: ["If-None-Match": "\"3-\(setId)\""]).status == 304)
        let head = try server.get("/v1/packs/a/3-\(setId).pack", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(pack.count))
        #expect(head.headers["cache-control"] == "public, max-age=31536000, immutable")
        #expect(head.body.isEmpty)
        #expect(try server.get("/v1/packs/..%2Fa.pack").status == 404)
        #expect(try server.get("/v1/packs/broken.pack").status == 404)

        let stopped = server.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stdout.split(separator: "\n").dropFirst().first == "packs from Packs: a version 3")
        #expect(stopped.stderr.contains("soundset: packs: skipped Packs/broken.pack: "))
    }

    @Test func packsMustNameAFolder() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try SoundsetExecutable.run(["serve", "--packs", "Nowhere"], in: folder.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--packs Nowhere is not a folder"))
    }
}
