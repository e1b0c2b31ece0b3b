import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The one place the server makes an announcement's plan and sound. Everything else (routing, the
/// cache, the ETag) asks it and never composes itself.
///
/// For now its body is the runtime's `Planner` and `Composer` (with the set's clips held in memory,
/// verified once when the set was loaded), the announcer's rules for what plays (`whatPlays`, as
/// `AnnouncementRules` applies them to a push with nothing pending: the banner drops the prefix and
/// suffix, the lead-in, delivery), the runtime's writer for the other containers and libsndfile for
/// MP3. When the runtime has one public function for what plays and one for writing another
/// container, they replace `whatPlays` and `reencode`; the callers stay as they are.
enum AnnouncementRenderer {
    /// The plan `soundset plan AMOUNT --format json` prints for these options.
    static func plan(_ amount: Amount, options: AnnouncementOptions, set served: ServedSet) throws(RenderProblem) -> AnnouncementPlan {
        let set = served.set
        let settings = options.settings(of: set.manifest)
        try requireClips(settings, set: set)
        do { return try Planner(manifest: set.manifest).plan(amount, announcement: settings) } catch {
            throw RenderProblem(planError: error)
        }
    }

    /// The announcement of `amount` as the phone would play it, in `format`: the same samples as
    /// `soundset render` composes for these options.
    static func render(amount: Amount, options: AnnouncementOptions, format: AudioFormat, set served: ServedSet) throws(RenderProblem) -> Data {
        let set = served.set
        let manifest = set.manifest
        let settings = options.settings(of: manifest)
        try requireClips(settings, set: set)
        let planner = Planner(manifest: manifest)
        let played: AnnouncementPlan
        var leadIn = 0
        do {
            let full = try planner.plan(amount, announcement: settings)
            if options.whole {
                played = full
            } else {
                var bareSettings = settings
                bareSettings.prefix = nil
                bareSettings.suffix = nil
                let bare = try planner.plan(amount, announcement: bareSettings)
                (played, leadIn) = whatPlays(full: full, bare: bare, settings: settings)
            }
        } catch {
            throw RenderProblem(planError: error)
        }
        let composed: Data
        do {
            // Every clip is the set's, read and verified when the set was loaded: nothing is read
            // from the folder, which a build may have replaced since.
            composed = try Composer.compose(played, manifest: manifest, soundsFolder: set.soundsFolder, leadInFrames: leadIn, verified: served.clips)
        } catch {
            if case .tooLong = error { throw RenderProblem(400, "\(amount): \(error)", hint: "ask for a shorter announcement, e.g. ?prefix=none&suffix=none") }
            throw RenderProblem(500, "cannot compose \(amount): \(error)", hint: "run soundset check on the set, and soundset build")
        }
        if format.container == manifest.container { return composed }
        do { return try reencode(composed, as: format, set: manifest) } catch {
            if let problem = error as? RenderProblem { throw problem }
            throw RenderProblem(500, "cannot encode \(amount) as \(format.rawValue): \(error)", hint: "see soundset serve --help for the formats")
        }
    }

    /// The announcer's choice for a push with nothing pending (`AnnouncementRules.choose`): the
    /// plan that plays and the lead-in before it. A chain plays the whole plan, clip after clip,
    /// with no lead-in; a composed file has the lead-in, and loses its prefix and suffix when whole
    /// it would outlast the banner.
    private static func whatPlays(full: AnnouncementPlan, bare: AnnouncementPlan, settings: AnnouncementSettings) -> (AnnouncementPlan, Int) {
        let rate = full.sampleRate
        let leadIn = Int((settings.leadInMs * Double(rate) / 1000).rounded())
        let banner = settings.bannerSeconds
        let seconds = { (plan: AnnouncementPlan) in Double(leadIn + plan.totalFrames) / Double(rate) }
        if settings.delivery == .chain { return (full, 0) }
        if seconds(full) <= banner { return (full, leadIn) }
        if full.steps.count > bare.steps.count && seconds(bare) <= banner { return (bare, leadIn) }
        if settings.delivery == .auto { return (full, 0) }
        return (bare, leadIn)
    }

    /// A prefix or suffix the set has no clip for is the request's mistake (400), named as such.
    private static func requireClips(_ settings: AnnouncementSettings, set: SoundSet) throws(RenderProblem) {
        for (role, name) in [("prefix", settings.prefix), ("suffix", settings.suffix)] {
            guard let name, set.manifest.clip(named: name) == nil else { continue }
            throw RenderProblem(400, "the set has no clip '\(name)' for the \(role)", hint: "name a clip of the set (GET /v1/set lists them), or \(role)=none")
        }
    }

    /// `composed` (the set's container and encoding) in `format`: the same samples in another
    /// container (the runtime's own writer, 16-bit samples byte-swapped where the order differs),
    /// or MP3 at the set's rate.
    private static func reencode(_ composed: Data, as format: AudioFormat, set manifest: Manifest) throws -> Data {
        let name = "announcement.\(manifest.container.fileExtension)"
        let sound = try SoundData(parsing: composed, name: name)
        if let container = format.container {
            let target = SoundFormat(
                container: container, encoding: sound.format.encoding, sampleRate: sound.format.sampleRate, channels: sound.format.channels)
            var samples = sound.samples
            if sound.format.encoding == .pcm16 && target.littleEndian != sound.format.littleEndian {
                samples.withUnsafeMutableBytes { bytes in
                    for index in stride(from: 0, to: bytes.count - 1, by: 2) { bytes.swapAt(index, index + 1) }
                }
            }
            return SoundData(format: target, samples: samples).encoded()
        }
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
