import Foundation
import SoundsetAudio
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

    /// Each variant's part of the entity tags (see `entityTag`), made once.
    private let variantTags = VariantTags()

    /// The strong entity tag of `amount` with `options` as `kind` (a format's extension, or
    /// `plan`): `"<set id>-<variant>-<amount>"`, where the variant is a digest of the kind, the
    /// resolved options (`options.key(of:)`) and how the kind is encoded (`recipe(of:)`), made once
    /// per set, options and kind, so the same announcement has the same tag however its URL spells
    /// it, a request makes no digest, and bytes encoded otherwise have another tag.
    func entityTag(_ amount: Amount, options: AnnouncementOptions, kind: String) -> String {
        var start = variantTags.tag(for: VariantTags.Key(options: options, kind: kind)) {
            Self.tagStart(id: id, kind: kind, options: options.key(of: set.manifest), recipe: recipe(of: kind))
        }
        // `"<start><amount>"`, the amount as `Amount.description` writes it (`12.00`), in one go.
        return start.withUTF8 { start in
            String(unsafeUninitializedCapacity: start.count + 24) { out in
                var at = start.count
                out.baseAddress!.update(from: start.baseAddress!, count: start.count)
                var whole = amount.integerPart
                var length = 1
                var probe = whole
                while probe >= 10 {
                    probe /= 10
                    length += 1
                }
                var position = at + length - 1
                repeat {
                    out[position] = UInt8(ascii: "0") + UInt8(whole % 10)
                    whole /= 10
                    position -= 1
                } while whole > 0
                at += length
                out[at] = UInt8(ascii: ".")
                out[at + 1] = UInt8(ascii: "0") + UInt8(amount.fraction / 10)
                out[at + 2] = UInt8(ascii: "0") + UInt8(amount.fraction % 10)
                out[at + 3] = UInt8(ascii: "\"")
                return at + 4
            }
        }
    }

    /// A tag's start: `"<set id>-<variant>-`, the variant a digest of `kind`, `options` (resolved)
    /// and `recipe`.
    static func tagStart(id: String, kind: String, options: String, recipe: String) -> String {
        "\"\(id)-\(SHA256Digest.hex(Data("\(kind);\(options);\(recipe)".utf8)).prefix(12))-"
    }

    /// How the WAV, CAF and AIFF writers encode (the set's own container and encoding, or the same
    /// samples in another container: `SoundData.converted(to:)`): a number to raise whenever a
    /// change to them changes the bytes of any announcement.
    static let pcmRecipe = "pcm-1"

    /// What decides an MP3's bytes beyond the set's samples: the rate it is made at, LAME's
    /// settings (bitrate mode and level, algorithm quality: all of `MP3Encoder.Settings`), and the
    /// versions of libmp3lame and of libsamplerate (which resamples the clips to that rate). Any
    /// change to these gives the MP3s other tags.
    static func mp3Recipe(setRate: Int) -> String {
        "rate=\(AnnouncementMP3.rate(forSetRate: setRate));settings=\(AnnouncementMP3.settings);lame=\(SoundLibrary.lame);samplerate=\(SoundLibrary.samplerate)"
    }

    /// How `kind` is encoded: `mp3Recipe` for `mp3`, `pcmRecipe` for the other formats, nothing for
    /// a plan (JSON).
    func recipe(of kind: String) -> String {
        switch kind {
        case AudioFormat.mp3.rawValue: Self.mp3Recipe(setRate: set.manifest.sampleRate)
        case "plan": ""
        default: Self.pcmRecipe
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

/// The variant parts of a set's entity tags, by options and kind: at most `limit` kept (a query may
/// name any clip name, in the set or not; past the limit each is made again).
private final class VariantTags: @unchecked Sendable {
    // @unchecked: `tags` is only read and written holding `lock`.
    struct Key: Hashable {
        var options: AnnouncementOptions
        var kind: String
    }

    static let limit = 256
    private let lock = NSLock()
    private var tags: [Key: String] = [:]

    func tag(for key: Key, make: () -> String) -> String {
        if let known = lock.withLock({ tags[key] }) { return known }
        let made = make()
        lock.withLock {
            if tags.count < Self.limit { tags[key] = made }
        }
        return made
    }
}
