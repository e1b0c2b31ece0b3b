import Foundation
import SoundsetRuntime

/// A set as the server holds it: the manifest and a private copy of its clip files, taken whole
/// under the output folder's shared swap lock. A request keeps the `ServedSet` it started with to
/// its end, so a build that swaps a new set in meanwhile changes nothing under it; the copy is
/// removed when the last request holding it ends.
public final class ServedSet: Sendable {
    /// The set, its folder being the private copy.
    public let set: SoundSet
    /// The id URLs pin: the set's own id (its clips and format) with its locale, reading and
    /// announcement settings, so a pinned URL never changes meaning.
    public let id: String

    init(set: SoundSet) {
        self.set = set
        id = Self.servedID(set)
    }

    deinit { try? FileManager.default.removeItem(at: set.folder) }

    /// The set's id with what else decides what an announcement of it sounds like.
    static func servedID(_ set: SoundSet) -> String {
        let manifest = set.manifest
        var digest = SHA256Digest()
        digest.update(Data(set.id.utf8))
        digest.update(Data(manifest.locale.rawValue.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        digest.update((try? encoder.encode(manifest.reading)) ?? Data())
        digest.update((try? encoder.encode(manifest.announcement)) ?? Data())
        return String(digest.finalHex().prefix(10))
    }
}
