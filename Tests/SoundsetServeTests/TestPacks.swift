import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport

/// Voice packs framed as the shared spec has them (issue 31, format 1), made here for the server's
/// tests: `soundset pack` (and the runtime's `VoicePack`) are another branch's. Every integer
/// big-endian: `SSPACK01`, the header's length, the header (JSON, keys sorted), manifest.json and
/// each clip's file in the manifest's order, the signature's length, the signature.
enum TestPacks {
    struct Header: Codable {
        struct File: Codable {
            var bytes: Int
            var name: String
        }
        var files: [File]
        var format = 1
        var locale: String
        var setId: String
        var version: Int
        var voice: String
    }

    /// The pack of the set in `folder` as `voice`'s `version`: its unsigned part and what `sign`
    /// makes of it (64 zero bytes by default: the server does not check signatures).
    static func encode(
        set folder: URL, voice: String, version: Int, edit: (inout Header) -> Void = { _ in }, sign: (Data) throws -> Data = { _ in Data(count: 64) }
    ) throws -> Data {
        let manifestData = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        let manifest = try Manifest.load(from: folder.appendingPathComponent("manifest.json"))
        let set = SoundSet(manifest: manifest, folder: folder)
        var files = [("manifest.json", manifestData)]
        for clip in manifest.clips {
            files.append(("Sounds/\(clip.file)", try Data(contentsOf: folder.appendingPathComponent("Sounds").appendingPathComponent(clip.file))))
        }
        var header = Header(
            files: files.map { Header.File(bytes: $0.1.count, name: $0.0) }, locale: manifest.locale.rawValue, setId: set.id, version: version, voice: voice)
        edit(&header)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let headerData = try encoder.encode(header)
        var pack = Data("SSPACK01".utf8)
        pack.append(bigEndian: UInt32(headerData.count))
        pack.append(headerData)
        for file in files { pack.append(file.1) }
        let signature = try sign(pack)
        pack.append(bigEndian: UInt32(signature.count))
        pack.append(signature)
        return pack
    }

    /// The set id of the set in `folder`.
    static func setId(_ folder: URL) throws -> String {
        SoundSet(manifest: try Manifest.load(from: folder.appendingPathComponent("manifest.json")), folder: folder).id
    }
}

extension Data {
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
