import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport

/// Voice packs for the server's tests, made by the runtime's own writer (`VoicePack.assemble`), with
/// any header (`edit`: the ones a pack must not have) and any signature (64 zero bytes by default:
/// the server does not check signatures).
enum TestPacks {
    static func encode(
        set folder: URL, voice: String, version: Int, edit: (inout VoicePack.Header) -> Void = { _ in },
        sign: (Data) throws -> Data = { _ in Data(count: 64) }
    ) throws -> Data {
        let set = try SoundSet(folder: folder)
        var contents = [try Data(contentsOf: folder.appendingPathComponent("manifest.json"))]
        for clip in set.manifest.clips { contents.append(try Data(contentsOf: set.soundsFolder.appendingPathComponent(clip.file))) }
        let names = ["manifest.json"] + set.manifest.clips.map { VoicePack.packedName($0.file) }
        var header = VoicePack.Header(
            voice: voice, locale: set.manifest.locale.rawValue, version: version, setId: set.id,
            files: zip(names, contents).map { VoicePack.File(name: $0, bytes: $1.count) })
        edit(&header)
        return try VoicePack.assemble(header, contents, sign: sign)
    }

    /// The set id of the set in `folder`.
    static func setId(_ folder: URL) throws -> String {
        SoundSet(manifest: try Manifest.load(from: folder.appendingPathComponent("manifest.json")), folder: folder).id
    }
}
