import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// serve's one reading of the several-voice layout a build writes: `Output/voices.json`
/// (`{"defaultVoice": "<voice>", "schemaVersion": 1, "voices": [{"voice", "locale", "setId"}]}`) and
/// each voice's set in `Output/voices/<voice>/` (a set folder as a one-voice build writes it). An
/// output folder without `voices.json` holds one set, itself.
enum VoiceLayout {
    /// `voices.json`, the output folder's index of its voices.
    static let indexName = VoiceFolders.indexName

    /// `voices.json`, as the build writes it.
    typealias Index = VoiceFolders.Index

    /// The set folder of `voice` in `output`.
    static func setFolder(output: URL, voice: String) -> URL { VoiceFolders.setFolder(output: output, voice: voice) }

    /// The index of `output` (shown as `display`), or why it cannot be read: nil when there is none.
    static func index(output: URL, display: String) -> Result<Index, SetUnavailable>? {
        let url = output.appendingPathComponent(indexName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let fix = "run soundset build --output \(CommandSpelling.shellWord(display))"
        let data: Data
        do { data = try RegularFile.read(url, maxBytes: 1 << 20) } catch {
            return .failure(SetUnavailable(reason: "\(display)/\(indexName) \(error.reason) (\(fix))"))
        }
        guard let index = try? JSONDecoder().decode(Index.self, from: data) else {
            return .failure(SetUnavailable(reason: "\(display)/\(indexName) is not a voices index {defaultVoice, voices: [{voice, locale, setId}]} (\(fix))"))
        }
        let names = index.voices.map(\.voice)
        if let bad = names.first(where: { !VoiceName.isValid($0) }) {
            return .failure(SetUnavailable(reason: "\(display)/\(indexName) names the voice '\(ClipNameRules.printable(bad))' (\(fix))"))
        }
        guard Set(names).count == names.count, !names.isEmpty else {
            return .failure(SetUnavailable(reason: "\(display)/\(indexName) lists no voice, or one twice (\(fix))"))
        }
        if let named = index.defaultVoice, !names.contains(named) {
            return .failure(
                SetUnavailable(reason: "\(display)/\(indexName): its default voice '\(ClipNameRules.printable(named))' is not one of its voices (\(fix))"))
        }
        return .success(index)
    }
}

/// One voice the server answers for: its set's source and the last reason told it had none.
final class ServedVoice: Sendable {
    /// The voice's name; nil for the one set of an output folder without voices.
    let name: String?
    /// The locale and set id `voices.json` gives it (nil for an output folder without voices).
    let listed: VoiceLayout.Index.Voice?
    let source: SetSource
    /// The last reason told the voice had no set: kept with its source when a new index lists it
    /// again, so a reason is not told twice.
    let told: ToldReason

    init(name: String?, listed: VoiceLayout.Index.Voice?, source: SetSource, told: ToldReason = ToldReason()) {
        self.name = name
        self.listed = listed
        self.source = source
        self.told = told
    }

    /// How paths of this voice begin: `/v1/voices/<voice>`, or `/v1` for the one set.
    var pathPrefix: String { name.map { "/v1/voices/\($0)" } ?? "/v1" }
}

/// The voices of the output folder as they are now.
struct VoiceLineup {
    /// Every voice, sorted by name (one, unnamed, without `voices.json`).
    var voices: [ServedVoice]
    /// The voice the unversioned paths mean; nil when several voices name none.
    var defaultVoice: ServedVoice?
    /// Whether the folder holds several voices (`voices.json`).
    var several: Bool
    /// Why `voices.json` cannot be read, when it cannot (no voice is served then).
    var broken: SetUnavailable?

    func voice(named name: String) -> ServedVoice? { voices.first { $0.name == name } }
    var names: [String] { voices.compactMap(\.name) }
}

/// The output folder's voices, looked at again (one `stat` of `voices.json`) at most every
/// `recheckInterval` seconds: a build that adds or removes a voice is picked up as a new set is.
/// Each voice keeps its `SetSource` while it stays listed, so its set is loaded and reloaded
/// exactly as the one set of a one-voice folder.
final class VoiceSources: @unchecked Sendable {
    // @unchecked: `lineup`, `stamp` and `lookedAt` are only read and written holding `lock`.
    let output: URL
    let display: String
    private let recheckInterval: Double
    private let lock = NSLock()
    private var lineup: VoiceLineup?
    private var stamp: FileIdentity?
    private var lookedAt: UInt64 = 0
    private let makeSource: @Sendable (URL, String) -> SetSource

    /// `serve --voice`: the default voice over `voices.json`'s.
    private let chosen: String?

    init(
        output: URL, display: String, chosen: String? = nil, recheckInterval: Double = SetSource.defaultRecheckInterval,
        makeSource: @escaping @Sendable (URL, String) -> SetSource = { SetSource(output: $0, display: $1) }
    ) {
        self.chosen = chosen
        self.output = output
        self.display = display
        self.recheckInterval = recheckInterval
        self.makeSource = makeSource
    }

    /// The voices now.
    func current() -> VoiceLineup {
        let now = DispatchTime.now().uptimeNanoseconds
        return lock.withLock {
            if let lineup, now &- lookedAt < UInt64(recheckInterval * 1e9) { return lineup }
            lookedAt = now
            let seen = FileIdentity(of: output.appendingPathComponent(VoiceLayout.indexName))
            if let lineup, seen == stamp { return lineup }
            let made = makeLineup(previous: lineup)
            (lineup, stamp) = (made, seen)
            return made
        }
    }

    /// The lineup `voices.json` describes now, keeping `previous`'s sources of the voices still listed.
    private func makeLineup(previous: VoiceLineup?) -> VoiceLineup {
        guard let read = VoiceLayout.index(output: output, display: display) else {
            let single = previous.flatMap { $0.several ? nil : $0.voices.first } ?? ServedVoice(name: nil, listed: nil, source: makeSource(output, display))
            return VoiceLineup(voices: [single], defaultVoice: single, several: false)
        }
        switch read {
        case .failure(let reason):
            return VoiceLineup(voices: [], defaultVoice: nil, several: true, broken: reason)
        case .success(let index):
            let voices = index.voices.sorted { $0.voice < $1.voice }.map { listed in
                let kept = previous?.voice(named: listed.voice)
                if let kept, kept.listed == listed { return kept }
                let source = kept?.source ?? makeSource(VoiceLayout.setFolder(output: output, voice: listed.voice), "\(display)/voices/\(listed.voice)")
                return ServedVoice(name: listed.voice, listed: listed, source: source, told: kept?.told ?? ToldReason())
            }
            let named = chosen ?? index.defaultVoice ?? (voices.count == 1 ? voices[0].name : nil)
            return VoiceLineup(voices: voices, defaultVoice: voices.first { $0.name == named }, several: true)
        }
    }
}

/// The last reason told there was no set.
final class ToldReason: @unchecked Sendable {
    // @unchecked: `reason` is only read and written holding `lock`.
    private let lock = NSLock()
    private var reason: String?
    private var setsLoaded = 0

    /// Makes `new` the reason told: whether it is news (another reason, or the same once a set was
    /// served since).
    func replace(with new: SetUnavailable) -> Bool {
        lock.withLock {
            defer { (reason, setsLoaded) = (new.reason, new.setsLoaded) }
            return reason != new.reason || setsLoaded != new.setsLoaded
        }
    }
}
