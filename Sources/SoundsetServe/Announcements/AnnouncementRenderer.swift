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
/// and as MP3 from the clips held at a speech rate (`AnnouncementMP3`).
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
        guard let container = format.container else { return try mp3(played, amount: amount, set: served) }
        do {
            // Every clip is the set's, read and verified when the set was loaded, and held in the
            // container asked for: nothing is read from the folder, which a build may have
            // replaced since, and nothing is converted after composing.
            return try Composer.compose(
                played.plan, manifest: manifest, soundsFolder: served.set.soundsFolder, leadInFrames: played.leadInFrames,
                verified: served.clips(in: container))
        } catch {
            throw composeProblem(error, amount: amount)
        }
    }

    /// What plays as MP3: composed from the clips held at the speech rate, encoded by LAME
    /// (`AnnouncementMP3`, as `soundset render --out FILE.mp3` makes it).
    private static func mp3(_ played: PlayedAnnouncement, amount: Amount, set served: ServedSet) throws(RenderProblem) -> Data {
        let clips = try served.speechClips.get()
        do { return try clips.mp3(played) } catch {
            if let problem = error as? RenderProblem { throw problem }
            if let composing = error as? ComposeError { throw composeProblem(composing, amount: amount) }
            throw RenderProblem(500, "cannot encode \(amount) as mp3: \(error)", hint: "see soundset serve --help for the formats")
        }
    }

    private static func composeProblem(_ error: ComposeError, amount: Amount) -> RenderProblem {
        if case .tooLong = error { return RenderProblem(400, "\(amount): \(error)", hint: "ask for a shorter announcement, e.g. ?prefix=none&suffix=none") }
        return RenderProblem(500, "cannot compose \(amount): \(error)", hint: "run soundset check on the set, and soundset build")
    }

    /// A prefix or suffix the set has no clip for is the request's mistake (400), named as such.
    private static func requireClips(_ settings: AnnouncementSettings, set: SoundSet) throws(RenderProblem) {
        for (role, name) in [("prefix", settings.prefix), ("suffix", settings.suffix)] {
            guard let name, set.manifest.clip(named: name) == nil else { continue }
            throw RenderProblem(400, "the set has no clip '\(name)' for the \(role)", hint: "name a clip of the set (GET /v1/set lists them), or \(role)=none")
        }
    }
}

/// Why a request cannot be answered: its status, and the error and hint its JSON body carries.
struct RequestProblem: Error, Equatable {
    var status: Int
    var error: String
    var hint: String
    /// The current set's id, where the body says it (a pinned URL of another set).
    var set: String?
    /// The voices there are, where the body lists them (a voice not served here).
    var voices: [String]?

    init(_ status: Int, _ error: String, hint: String, set: String? = nil, voices: [String]? = nil) {
        self.status = status
        self.error = error
        self.hint = hint
        self.set = set
        self.voices = voices
    }
}

extension RequestProblem: CustomStringConvertible {
    var description: String { error }
}

typealias RenderProblem = RequestProblem

extension RequestProblem {
    /// A plan that cannot be made: the set lacks a clip the amount's reading needs (the set is
    /// incomplete, 500), or its manifest cannot be planned with.
    init(planError error: PlanError) {
        self.init(500, "\(error)", hint: "run soundset check on the set to see what it lacks")
    }
}
