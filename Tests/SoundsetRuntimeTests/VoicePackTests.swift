import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct VoicePackTests {
    @Test func aPackHoldsTheManifestAndEveryClipInTheManifestsOrderAndReadsBack() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let set = try fixture.set("Woman")
        let data = try fixture.pack(set, version: 3)
        #expect(data.prefix(8) == Data("SSPACK01".utf8))
        // The same set gives the same bytes.
        #expect(try fixture.pack(set, version: 3) == data)
        let pack = try VoicePack.open(data, verifier: fixture.key)
        #expect(pack.header.format == 1 && pack.header.voice == "woman" && pack.header.version == 3)
        #expect(pack.header.locale == "zh-CN" && pack.header.setId == set.id)
        #expect(pack.header.files.map(\.name) == ["manifest.json"] + set.manifest.clips.map { "Sounds/\($0.file)" })
        #expect(pack.header.files.map(\.bytes) == pack.contents.map(\.count))
        #expect(pack.manifest == set.manifest)
        for (clip, content) in zip(set.manifest.clips, pack.contents.dropFirst()) {
            #expect(content == (try Data(contentsOf: set.soundsFolder.appendingPathComponent(clip.file))))
        }
        // The header is JSON with sorted keys and no whitespace; the signature is the last 64 bytes.
        let layout = PackLayout(data, header: pack.header)
        let header = String(decoding: data[12..<layout.headerEnd], as: UTF8.self)
        #expect(header.hasPrefix("{\"files\":[{\"bytes\":") && header.contains("\"name\":\"Sounds/0.caf\"") && !header.contains(" "))
        #expect(data[layout.payloadEnd..<(layout.payloadEnd + 4)] == Data([0, 0, 0, 64]))
        #expect(data.suffix(64) == fixture.key.sign(data.prefix(layout.payloadEnd)))
        #expect(layout.payloadEnd + 68 == data.count)
    }

    /// What a server may read without the key: the header and the frame, the signature not checked.
    @Test func theUnverifiedHeaderChecksTheFrameButNotTheSignature() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let set = try fixture.set("Woman")
        let data = try fixture.pack(set, version: 4)
        let header = try VoicePack.unverifiedHeader(of: data)
        #expect(header == (try VoicePack.open(data, verifier: fixture.key)).header)
        // Another key's signature, or a flipped clip byte: the frame holds, so the header reads.
        let otherKey = try VoicePack.assemble(header, try fixture.parts(set, version: 4).contents, sign: FakeKey("other").sign)
        #expect(try VoicePack.unverifiedHeader(of: otherKey) == header)
        func refusal(_ bytes: Data, maxBytes: Int = VoicePack.defaultMaxBytes) -> PackError? {
            do { _ = try VoicePack.unverifiedHeader(of: bytes, maxBytes: maxBytes) } catch { return error }
            return nil
        }
        #expect(refusal(data.prefix(data.count - 1)) == .truncated(bytes: data.count - 1))
        #expect(refusal(data.prefix(100)) == .truncated(bytes: 100))
        #expect(refusal(data + Data([1, 2])) == .trailingBytes(2))
        #expect(refusal(Data("SSPACK02".utf8) + data.dropFirst(8)) == .notAPack)
        #expect(refusal(data, maxBytes: data.count - 1) == .tooLarge(bytes: data.count, limit: data.count - 1))
        var renamed = header
        renamed.files[1].name = "Sounds/../x.caf"
        #expect(refusal(try fixture.assemble(renamed, try fixture.parts(set, version: 4).contents)) == .badFileName("Sounds/../x.caf"))
    }

    @Test func aFlippedByteAnywhereButALengthOrAnotherKeyIsABadSignature() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let set = try fixture.set("Woman")
        let data = try fixture.pack(set)
        let pack = try VoicePack.open(data, verifier: fixture.key)
        let layout = PackLayout(data, header: pack.header)
        let starts = layout.fileStarts(pack.header)
        // The manifest, a clip's header and samples, the last clip's last byte, the signature.
        var offsets = [starts[0], starts[0] + 100, starts[1], starts[5] + 4000, layout.payloadEnd - 1]
        offsets += [layout.payloadEnd + 4, data.count - 1]
        // Every header byte that is not a digit of a file's length.
        let header = Array(data[12..<layout.headerEnd])
        offsets += header.indices.filter { !(48...57).contains(header[$0]) }.map { 12 + $0 }
        for offset in offsets {
            #expect(throws: PackError.badSignature, "byte \(offset)") { try VoicePack.open(data.flipping(offset), verifier: fixture.key) }
        }
        #expect(throws: PackError.badSignature) { try VoicePack.open(data, verifier: FakeKey("another publisher")) }
        #expect(throws: PackError.badSignature) { try VoicePack.open(try fixture.pack(set, key: FakeKey("another publisher")), verifier: fixture.key) }
        #expect(PackError.badSignature.description.contains("signed by another key or was altered: download it again from the server"))
    }

    @Test func aPackCutShortAnywhereIsRefusedAsCutShort() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let data = try fixture.pack(try fixture.set("Woman"))
        let pack = try VoicePack.open(data, verifier: fixture.key)
        let layout = PackLayout(data, header: pack.header)
        #expect(layout.headerEnd > 200)
        var lengths = Array(0...200) + [layout.headerEnd - 1, layout.headerEnd, layout.headerEnd + 1]
        lengths += layout.fileStarts(pack.header).flatMap { [$0, $0 + 1, $0 + 100] }
        lengths += [layout.payloadEnd - 1, layout.payloadEnd, layout.payloadEnd + 3, layout.payloadEnd + 4, layout.payloadEnd + 5, data.count - 1]
        for length in lengths {
            #expect(throws: PackError.truncated(bytes: length), "\(length)") { try VoicePack.open(data.prefix(length), verifier: fixture.key) }
        }
    }

    @Test func bytesAfterTheSignatureAreRefused() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let data = try fixture.pack(try fixture.set("Woman"))
        #expect(throws: PackError.trailingBytes(1)) { try VoicePack.open(data + Data([0]), verifier: fixture.key) }
        #expect(throws: PackError.trailingBytes(100)) { try VoicePack.open(data + Data(repeating: 7, count: 100), verifier: fixture.key) }
        // Trailing bytes that look like a signature's length and a 1-byte signature.
        #expect(throws: PackError.trailingBytes(5)) { try VoicePack.open(data + Data([0, 0, 0, 1, 9]), verifier: fixture.key) }
    }

    @Test func aPackOverTheLimitIsRefusedBeforeAnyOfItIsRead() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let data = try fixture.pack(try fixture.set("Woman"))
        #expect(throws: PackError.tooLarge(bytes: data.count, limit: data.count - 1)) {
            try VoicePack.open(data, verifier: fixture.key, maxBytes: data.count - 1)
        }
        #expect(try VoicePack.open(data, verifier: fixture.key, maxBytes: data.count).header.voice == "woman")
        let huge = Data(count: VoicePack.defaultMaxBytes + 1)
        #expect(VoicePack.defaultMaxBytes == 32 << 20)
        #expect(throws: PackError.tooLarge(bytes: huge.count, limit: 32 << 20)) { try VoicePack.open(huge, verifier: fixture.key) }
    }

    @Test func aBadMagicOrHeaderLengthIsRefusedBeforeTheHeaderIsRead() throws {
        let key = FakeKey()
        func pack(_ magic: String, _ length: [UInt8], _ rest: Int) -> Data { Data(magic.utf8) + Data(length) + Data(repeating: 0x7B, count: rest) }
        #expect(throws: PackError.notAPack) { try VoicePack.open(pack("SSPACK02", [0, 0, 0, 2], 100), verifier: key) }
        #expect(throws: PackError.notAPack) { try VoicePack.open(Data("PK\u{3}\u{4}".utf8), verifier: key) }
        #expect(throws: PackError.headerLength(0)) { try VoicePack.open(pack("SSPACK01", [0, 0, 0, 0], 100), verifier: key) }
        #expect(throws: PackError.headerLength(4_294_967_295)) { try VoicePack.open(pack("SSPACK01", [255, 255, 255, 255], 100), verifier: key) }
        #expect(throws: PackError.headerLength((1 << 20) + 1)) { try VoicePack.open(pack("SSPACK01", [0, 16, 0, 1], 100), verifier: key) }
        // A header longer than the pack.
        #expect(throws: PackError.truncated(bytes: 112)) { try VoicePack.open(pack("SSPACK01", [0, 0, 0, 101], 100), verifier: key) }
        // A header that fits, followed by nothing signed.
        #expect(throws: PackError.badSignature) { try VoicePack.open(pack("SSPACK01", [0, 0, 0, 2], 100), verifier: key) }
    }

    @Test func aSignedHeaderThatIsNotTheFormatsIsRefused() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let key = fixture.key
        func signed(_ header: String, payload: Data = Data()) -> Data {
            var data = Data("SSPACK01".utf8) + Data([0, 0, UInt8(header.utf8.count >> 8), UInt8(header.utf8.count & 0xFF)]) + Data(header.utf8) + payload
            let signature = key.sign(data)
            data += Data([0, 0, 0, UInt8(signature.count)]) + signature
            return data
        }
        #expect(throws: PackError.badHeader(reason: "not valid JSON")) { try VoicePack.open(signed("{not json"), verifier: key) }
        // The signature comes first: the same header signed by another key is only that.
        #expect(throws: PackError.badSignature) { try VoicePack.open(signed("{not json"), verifier: FakeKey("another")) }
        #expect(throws: PackError.badSignature) { try VoicePack.open(signed("{\"format\":2}"), verifier: FakeKey("another")) }
        #expect(throws: PackError.badHeader(reason: "missing key files")) {
            try VoicePack.open(signed("{\"format\":1,\"locale\":\"zh-CN\",\"setId\":\"0123456789\",\"version\":1,\"voice\":\"w\"}"), verifier: key)
        }
        #expect(throws: PackError.unknownFormat(2)) { try VoicePack.open(signed("{\"format\":2}"), verifier: key) }
        var (header, contents) = try fixture.parts(try fixture.set("Woman"))
        header.format = 7
        #expect(throws: PackError.unknownFormat(7)) { try VoicePack.open(try fixture.assemble(header, contents), verifier: key) }
        header.format = 1
        header.version = 0
        #expect(throws: PackError.badVersion(0)) { try VoicePack.open(try fixture.assemble(header, contents), verifier: key) }
        header.version = 1
        contents[0] = Data("{\"schemaVersion\":1}".utf8)
        header.files[0].bytes = contents[0].count
        #expect(throws: PackError.badManifest(reason: "missing key toolVersion")) { try VoicePack.open(try fixture.assemble(header, contents), verifier: key) }
    }

    @Test(arguments: ["a/b", "..", ".hidden", "-x", "", String(repeating: "v", count: 65), "voix é", "a\u{0}b"])
    func aVoiceNameOutsideItsFolderIsRefused(name: String) throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        var (header, contents) = try fixture.parts(try fixture.set("Woman"))
        header.voice = name
        #expect(!VoiceName.isValid(name))
        #expect(throws: PackError.badVoiceName(name)) { try VoicePack.open(try fixture.assemble(header, contents), verifier: fixture.key) }
        #expect(throws: PackError.badVoiceName(name)) { try VoicePack.encode(try fixture.set("Other"), voice: name, version: 1, sign: fixture.key.sign) }
        #expect(VoiceName.isValid("woman_2-zh") && VoiceName.isValid(String(repeating: "v", count: 64)))
    }

    @Test(arguments: [
        "Sounds/../0.caf", "Sounds/x/0.caf", "Sounds/.0.caf", "Sounds/..", "Sounds/", "/etc/passwd", "", "Sounds/0\u{0}.caf", "manifest.json/..", "0.caf",
    ])
    func aFileNameOutsideTheSetsFolderIsRefused(name: String) throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        var (header, contents) = try fixture.parts(try fixture.set("Woman"))
        header.files[1].name = name
        #expect(throws: PackError.badFileName(name)) { try VoicePack.open(try fixture.assemble(header, contents), verifier: fixture.key) }
    }

    @Test func theFilesMustBeTheManifestsOnceEachInItsOrder() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let (header, contents) = try fixture.parts(try fixture.set("Woman"))
        let all = Array(zip(header.files, contents))
        func refusal(_ files: [(VoicePack.File, Data)]) -> PackError? {
            var changed = header
            changed.files = files.map(\.0)
            do {
                _ = try VoicePack.open(try fixture.assemble(changed, files.map(\.1)), verifier: fixture.key)
                return nil
            } catch { return error as? PackError }
        }
        func without(_ index: Int) -> [(VoicePack.File, Data)] { all.enumerated().filter { $0.offset != index }.map(\.element) }
        func swapped(_ first: Int, _ second: Int) -> [(VoicePack.File, Data)] {
            var files = all
            files.swapAt(first, second)
            return files
        }
        #expect(refusal(all) == nil)
        #expect(refusal(without(3)) == .missingFile(header.files[3].name))
        #expect(refusal(without(0)) == .missingFile("manifest.json"))
        #expect(refusal(all + [(.init(name: "Sounds/0Copy.caf", bytes: 4), Data("copy".utf8))]) == .extraFile("Sounds/0Copy.caf"))
        #expect(refusal(all + [all[2]]) == .duplicateFile(header.files[2].name))
        #expect(refusal(swapped(2, 3)) == .fileOutOfOrder(header.files[3].name))
        #expect(refusal(swapped(0, 1)) == .fileOutOfOrder("manifest.json"))
    }

    @Test func fileLengthsMustLieInsideThePayloadAndAddUpToIt() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let (header, contents) = try fixture.parts(try fixture.set("Woman"))
        let payload = contents.reduce(0) { $0 + $1.count }
        for bytes in [-1, Int.min, Int.max, 1 << 40, payload + 1] {
            var changed = header
            changed.files[4].bytes = bytes
            #expect(throws: PackError.fileLength(name: header.files[4].name, bytes: bytes), "\(bytes)") {
                try VoicePack.open(try fixture.assemble(changed, contents), verifier: fixture.key)
            }
        }
        var longer = header
        longer.files[4].bytes += 1
        #expect(throws: PackError.payloadSize(declared: payload + 1, actual: payload)) {
            try VoicePack.open(try fixture.assemble(longer, contents), verifier: fixture.key)
        }
        var shorter = header
        shorter.files[4].bytes -= 1
        #expect(throws: PackError.payloadSize(declared: payload - 1, actual: payload)) {
            try VoicePack.open(try fixture.assemble(shorter, contents), verifier: fixture.key)
        }
    }

    @Test func theHeaderAndEveryClipMustBeTheManifests() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let set = try fixture.set("Woman")
        let (header, contents) = try fixture.parts(set)
        var clip = contents
        clip[6] = clip[6].flipping(clip[6].count - 1)
        let name = set.manifest.clips[5].name
        #expect(throws: PackError.clipMismatch(clip: name, file: "Sounds/\(name).caf")) {
            try VoicePack.open(try fixture.assemble(header, clip), verifier: fixture.key)
        }
        var locale = header
        locale.locale = "en-US"
        #expect(throws: PackError.localeMismatch(header: "en-US", manifest: "zh-CN")) {
            try VoicePack.open(try fixture.assemble(locale, contents), verifier: fixture.key)
        }
        var id = header
        id.setId = "0123456789"
        #expect(throws: PackError.setIdMismatch(header: "0123456789", manifest: set.id)) {
            try VoicePack.open(try fixture.assemble(id, contents), verifier: fixture.key)
        }
        // A clip on disk that is not the manifest's is never packed.
        try Data("not the take".utf8).write(to: set.soundsFolder.appendingPathComponent("7.caf"))
        #expect(throws: PackError.source(file: "Sounds/7.caf", reason: "differs from the manifest's sha256")) { try fixture.pack(set) }
    }

    @Test func randomDamageIsAlwaysRefusedNeverAccepted() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let data = try fixture.pack(try fixture.set("Woman"))
        var random = SplitMix64(seed: 31)
        var refusals: [String: Int] = [:]
        for round in 0..<300 {
            var damaged = data
            switch round % 4 {
            case 0: damaged[Int.random(in: 0..<data.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            case 1: damaged = damaged.prefix(Int.random(in: 0..<data.count, using: &random))
            case 2: damaged.insert(random.nextByte(), at: Int.random(in: 0...data.count, using: &random))
            default:
                // A length field set to anything: the header's, a file's digits, the signature's.
                let offset = [8, 9, 10, 11, data.count - 68, data.count - 67, data.count - 66, data.count - 65].randomElement(using: &random)!
                damaged[offset] = random.nextByte()
                if damaged == data { continue }
            }
            do {
                _ = try VoicePack.open(damaged, verifier: fixture.key)
                Issue.record("round \(round): a damaged pack was accepted")
            } catch {
                let kind: String =
                    switch error {
                    case .truncated: "truncated"
                    case .badSignature: "badSignature"
                    case .trailingBytes: "trailingBytes"
                    case .headerLength: "headerLength"
                    case .notAPack: "notAPack"
                    default: "\(error)"
                    }
                refusals[kind, default: 0] += 1
            }
        }
        // A damaged pack is refused by its framing or its signature: no header field is read.
        #expect(Set(refusals.keys).isSubset(of: ["truncated", "badSignature", "trailingBytes", "headerLength", "notAPack"]), "\(refusals)")
        #expect(Set(refusals.keys).isSuperset(of: ["truncated", "badSignature", "headerLength"]), "\(refusals)")
    }

    @Test func everyRefusalNamesItsItemAndWhatToDo() {
        let refusals: [PackError] = [
            .tooLarge(bytes: 5, limit: 4), .notAPack, .truncated(bytes: 3), .headerLength(0), .trailingBytes(2), .badSignature, .signatureSize(0),
            .badHeader(reason: "r"), .unknownFormat(2), .badVoiceName("a/b"), .badVersion(0), .badFileName("../x"),
            .fileLength(name: "Sounds/0.caf", bytes: -1), .payloadSize(declared: 1, actual: 2), .missingFile("Sounds/0.caf"),
            .extraFile("Sounds/0Copy.caf"), .duplicateFile("Sounds/1.caf"), .fileOutOfOrder("Sounds/2.caf"),
            .fileTooLarge(name: "manifest.json", bytes: 9, limit: 8), .badManifest(reason: "r"), .clipMismatch(clip: "7", file: "Sounds/7.caf"),
            .localeMismatch(header: "en-US", manifest: "zh-CN"), .setIdMismatch(header: "a", manifest: "b"),
            .olderVersion(voice: "woman", version: 1, installed: 2), .sameVersionOtherSet(voice: "woman", version: 1, installed: "a", pack: "b"),
            .source(file: "Sounds/7.caf", reason: "r"), .group(reason: "r"),
        ]
        #expect(Set(refusals.map(\.description)).count == refusals.count)
        for refusal in refusals {
            #expect(refusal.description.contains(": "), "\(refusal)")
            #expect(
                ["again", "publish", "update", "build", "limit", "sign with", "download", "cannot install"].contains { refusal.description.contains($0) },
                "\(refusal)")
        }
        #expect(PackError.badFileName("a\u{0}b").description.contains("a\\0b"))
    }
}
