import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The one place the server makes an announcement's plan and sound. Everything else (routing, the
/// cache, the ETag) asks it and never composes itself.
///
/// What plays is the runtime's `PlayedAnnouncement` (the announcer's rules for a push with nothing
/// pending: the banner drops the prefix and suffix, the lead-in, delivery), as `soundset plan` and
/// `render` show it; it is composed from the set's clips held in memory (verified once, when the set
/// was loaded, and held in each container: `SoundData.converted(to:)`, as `render --out` converts),
/// and encoded as MP3 by libsndfile.
enum AnnouncementRenderer {
    /// What plays for these options, as `soundset plan AMOUNT --format json` prints it.
    static func plan(_ amount: Amount, options: AnnouncementOptions, set served: ServedSet) throws(RenderProblem) -> PlayedAnnouncement {
        let set = served.set
        let settings = options.settings(of: set.manifest)
        try requireClips(settings, set: set)
        do { return try PlayedAnnouncement.of(amount, manifest: set.manifest, settings: settings, whole: options.whole) } catch {
            switch error {
            case .plan(.missingClips(let names)) where options.prefix != nil || options.suffix != nil:
                // The set plays its own phrases; a prefix or suffix the request names may need a
                // copy the set was not built with: the request's to change.
                throw RenderProblem(
                    400, PlanError.missing(names, build: "soundset build"), hint: "ask with the set's own prefix and suffix (leave them out), or none")
            case .plan(let planError): throw RenderProblem(planError: planError)
            case .refused(let reason): throw RenderProblem(500, "\(amount): \(reason)", hint: "see soundset check on the set")
            }
        }
    }

    /// The announcement of `amount` as the phone would play it, in `format`: the same samples as
    /// `soundset render` composes for these options.
    static func render(amount: Amount, options: AnnouncementOptions, format: AudioFormat, set served: ServedSet) throws(RenderProblem) -> Data {
        let manifest = served.set.manifest
        let played = try plan(amount, options: options, set: served)
        let composed: Data
        do {
            // Every clip is the set's, read and verified when the set was loaded, and held in the
            // container asked for (the set's own for MP3): nothing is read from the folder, which a
            // build may have replaced since, and nothing is converted after composing.
            composed = try Composer.compose(
                played.plan, manifest: manifest, soundsFolder: served.set.soundsFolder, leadInFrames: played.leadInFrames,
                verified: served.clips(in: format.container))
        } catch {
            if case .tooLong = error { throw RenderProblem(400, "\(amount): \(error)", hint: "ask for a shorter announcement, e.g. ?prefix=none&suffix=none") }
            throw RenderProblem(500, "cannot compose \(amount): \(error)", hint: "run soundset check on the set, and soundset build")
        }
        guard format.container == nil else { return composed }
        do { return try mp3(composed, set: manifest) } catch {
            if let problem = error as? RenderProblem { throw problem }
            throw RenderProblem(500, "cannot encode \(amount) as \(format.rawValue): \(error)", hint: "see soundset serve --help for the formats")
        }
    }

    /// A prefix or suffix the set has no clip for is the request's mistake (400), named as such.
    private static func requireClips(_ settings: AnnouncementSettings, set: SoundSet) throws(RenderProblem) {
        for (role, name) in [("prefix", settings.prefix), ("suffix", settings.suffix)] {
            guard let name, set.manifest.clip(named: name) == nil else { continue }
            throw RenderProblem(400, "the set has no clip '\(name)' for the \(role)", hint: "name a clip of the set (GET /v1/set lists them), or \(role)=none")
        }
    }

    /// `composed` (the set's container and encoding) as MP3 at the set's rate, by libsndfile.
    private static func mp3(_ composed: Data, set manifest: Manifest) throws -> Data {
        let name = "announcement.\(manifest.container.fileExtension)"
        let sound = try SoundData(parsing: composed, name: name)
        guard sound.format.channels == 1 else { throw RenderProblem(500, "MP3 is made of mono sets only", hint: "build the set in mono") }
        let pcm: [Int16]
        if sound.format.encoding == .pcm16 {
            let little = sound.format.littleEndian
            pcm = sound.samples.withUnsafeBytes { bytes in
                stride(from: 0, to: bytes.count - 1, by: 2).map { index in
                    let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
                    return Int16(bitPattern: little ? first | second << 8 : first << 8 | second)
                }
            }
        } else {
            // µ-law and a-law decode to 16-bit values, which libsndfile gives as value / 32768.
            pcm = try SoundFile.open(bytes: composed, path: name).readAll().map { Int16(clamping: Int(($0 * 32768).rounded())) }
        }
        return try SoundFile.encodeMP3(pcm, sampleRate: manifest.sampleRate, path: "announcement.mp3")
    }
}

/// Why a request cannot be answered: its status, and the error and hint its JSON body carries.
struct RequestProblem: Error, Equatable {
    var status: Int
    var error: String
    var hint: String
    /// The current set's id, where the body says it (a pinned URL of another set).
    var set: String?

    init(_ status: Int, _ error: String, hint: String, set: String? = nil) {
        self.status = status
        self.error = error
        self.hint = hint
        self.set = set
    }
}

typealias RenderProblem = RequestProblem

extension RequestProblem {
    /// A plan that cannot be made: the set lacks a clip the amount's reading needs (the set is
    /// incomplete, 500), or its manifest cannot be planned with.
    init(planError error: PlanError) {
        self.init(500, "\(error)", hint: "run soundset check on the set to see what it lacks")
    }
}
