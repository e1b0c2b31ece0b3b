import Foundation
import SoundsetRuntime

/// A set as the server holds it: the manifest and every clip file it lists, read whole under the
/// output folder's shared swap lock and checked against the manifest (sha256, frames, format). A
/// request keeps the `ServedSet` it started with to its end, so a build that swaps a new set in
/// meanwhile changes nothing under it; composing never reads the folder again.
public final class ServedSet: Sendable {
    /// The set as it was read (its folder is the output folder, not read again).
    public let set: SoundSet
    /// Every clip file the manifest lists, by file name (copies too), verified, in each container:
    /// the set's own, and the same samples in the others (`SoundData.converted(to:)`), so an
    /// announcement is composed in the container a client asks for with nothing converted per request.
    private let clipsByContainer: [Container: [String: SoundData]]
    /// The id URLs pin: the set's own id (its clips and format) with its locale, reading and
    /// announcement settings, so a pinned URL never changes meaning.
    public let id: String
    /// The clips at the MP3's speech rate, resampled once here (or why MP3 cannot be made of the set).
    let speechClips: Result<SpeechRateClips, RequestProblem>

    init(set: SoundSet, clips: [String: SoundData]) {
        self.set = set
        var byContainer = [set.manifest.container: clips]
        for container in Container.allCases where container != set.manifest.container {
            byContainer[container] = clips.mapValues { $0.converted(to: container) }
        }
        clipsByContainer = byContainer
        id = Self.servedID(set)
        do { speechClips = .success(try SpeechRateClips(manifest: set.manifest, clips: clips)) } catch {
            speechClips = .failure(
                error as? RequestProblem ?? RequestProblem(500, "cannot hold the set's clips for MP3: \(error)", hint: "run soundset check on the set"))
        }
    }

    /// The set's clips, verified, by file name, in `container` (the set's own when nil).
    func clips(in container: Container? = nil) -> [String: SoundData] {
        clipsByContainer[container ?? set.manifest.container] ?? [:]
    }

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
