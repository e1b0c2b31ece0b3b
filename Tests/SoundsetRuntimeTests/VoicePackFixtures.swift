import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport

/// A stand-in for Ed25519: the signature of a message is the SHA-256 (64 hex digits) of the key's
/// bytes and the message, so a different key string is another key, and any changed byte of the
/// message or the signature fails.
struct FakeKey: PackSignatureVerifier {
    let key: String

    init(_ key: String = "publisher") { self.key = key }

    func sign(_ message: Data) -> Data {
        var digest = SHA256Digest()
        digest.update(Data(key.utf8))
        digest.update(message)
        return Data(digest.finalHex().utf8)
    }

    func isValidSignature(_ signature: Data, for message: Data) -> Bool { signature == sign(message) }
}

/// Sets to pack (made by `FakeSets`, joined by file with no gap, so a composed announcement is its
/// clips' samples end to end) and an App Group folder to install them in.
struct VoiceFixture {
    let folder: TemporaryDirectory
    let group: GroupFolder
    let key = FakeKey()

    init() throws {
        folder = try TemporaryDirectory("voices")
        group = GroupFolder(folder.url.appendingPathComponent("Group"))
    }

    /// A set in `name/` whose words last `word` frames and `received` `phrase` (8 kHz): sets with
    /// other frames have other clips and another id.
    func set(_ name: String, word: Int = 3200, phrase: Int = 12000) throws -> SoundSet {
        let output = folder.url.appendingPathComponent(name)
        try FakeSets.write(
            in: output, rate: 8000, prefix: "received", gapMs: 0, announcement: AnnouncementSettings(join: .file),
            frames: { $0 == "received" ? phrase : word })
        return try SoundSet(folder: output)
    }

    func pack(_ set: SoundSet, voice: String = "woman", version: Int = 1, key: FakeKey? = nil) throws -> Data {
        try VoicePack.encode(set, voice: voice, version: version, sign: (key ?? self.key).sign)
    }

    /// The header and files of a good pack of `set`, for a test to change and `assemble`.
    func parts(_ set: SoundSet, voice: String = "woman", version: Int = 1) throws -> (header: VoicePack.Header, contents: [Data]) {
        let pack = try VoicePack.open(try self.pack(set, voice: voice, version: version), verifier: key)
        return (pack.header, pack.contents)
    }

    /// A pack of `header` and `contents`, signed with the publisher's key.
    func assemble(_ header: VoicePack.Header, _ contents: [Data]) throws -> Data { try VoicePack.assemble(header, contents, sign: key.sign) }

    func install(_ data: Data, now: Double = 1000) throws -> InstalledVoice {
        try VoicePackInstaller.install(data, into: group, verifier: key, now: now)
    }

    /// `soundset/Voices/<voice>`.
    func voiceFolder(_ voice: String = "woman") -> URL { group.state.appendingPathComponent("Voices/\(voice)") }

    /// The names in the voice's folder, sorted.
    func entries(_ voice: String = "woman") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: voiceFolder(voice).path)) ?? []).sorted()
    }
}

/// Where a pack's parts lie, read from its own bytes.
struct PackLayout {
    let headerEnd: Int
    let payloadEnd: Int
    let count: Int

    init(_ data: Data, header: VoicePack.Header) {
        let length = data.prefix(12).suffix(4).reduce(0) { ($0 << 8) | Int($1) }
        headerEnd = 12 + length
        payloadEnd = headerEnd + header.files.reduce(0) { $0 + $1.bytes }
        count = data.count
    }

    /// Where each file begins.
    func fileStarts(_ header: VoicePack.Header) -> [Int] {
        var offset = headerEnd
        return header.files.map { file in
            defer { offset += file.bytes }
            return offset
        }
    }
}

extension Data {
    /// The bytes with the one at `offset` inverted.
    func flipping(_ offset: Int) -> Data {
        var copy = self
        copy[copy.startIndex + offset] ^= 0xFF
        return copy
    }
}
