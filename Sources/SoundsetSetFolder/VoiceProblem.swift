/// What is wrong with the voices of an assets or output folder (`VoiceFolders`), each case with its
/// one message.
public enum VoiceProblem: ProblemReason, Equatable {
    /// A folder of `voices/` whose name cannot be a voice's.
    case badFolderName(reason: String)
    /// A name given as a voice (`--voice`) that cannot be one.
    case badName(reason: String)
    /// A file in `voices/`, where each voice is a folder.
    case notAFolder(voices: String)
    /// `voices/` holds no voice.
    case noVoices(voices: String)
    /// A take (or any file) beside `voices/`.
    case besideVoices(voices: String)
    /// A key of the assets folder's `soundset.json` other than `defaultVoice` and `sameLevel`.
    case keyBesideVoices(voices: String)
    case configurationNotObject
    /// `sameLevel` is not a level in `range`, LUFS.
    case badSameLevel(text: String, range: ClosedRange<Double>)
    /// A voice's set is below the level `sameLevel` holds every voice to: its peaks need more
    /// limiting than allowed there; `reached` is the lowest voice's level, which every voice reaches.
    case belowSameLevel(voice: String, setLevel: Double, sameLevel: Double, reached: Double, assets: String)
    /// `sameLevel` is not the target a voice's set was built to.
    case sameLevelChanged(voice: String, built: Double, sameLevel: Double, rebuild: String)
    case configurationUnreadable(reason: String)
    /// `defaultVoice` names no voice of `voices`.
    case defaultNotAVoice(name: String, voices: [String])
    /// Several voices and no default, and the command needs one.
    case noDefault(voices: [String], settings: String = "Assets/soundset.json")
    /// A voice asked of an output folder that holds one voice's set.
    case oneVoice(output: String)
    /// A voice asked of an assets folder that holds one voice (no `voices/`).
    case oneVoiceAssets(assets: String)
    /// A voice that the output folder does not hold.
    case unknownVoice(output: String, voices: [String])
    case noIndex(reason: String, rebuild: String)
    case badIndex(rebuild: String)
    /// An output folder of several voices holds this, which the build did not write.
    case strangerInVoicesOutput(output: String)
    /// A one-voice build of an output folder that holds several voices' sets.
    case severalInOutput(output: String, assets: String)
    /// A set the several-voice build removes (a voice gone, the one-voice set) that cannot be removed.
    case cannotRemove(reason: String)
    /// `voices.json` does not list a voice's set as it is built (`setId`, or the voice at all).
    case indexStale(voice: String, rebuild: String)

    /// A level as written: -18, -15.45 (the messages of `sameLevel`, here and in the voices' own
    /// configuration problems, name it so).
    package static func level(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e6 ? String(Int(value)) : String(value)
    }

    public var message: String {
        switch self {
        case .badFolderName(let reason): "cannot name a voice (\(reason)): rename the folder"
        case .badName(let reason): "is not a voice's name (\(reason))"
        case .notAFolder(let voices): "is not a folder: each voice is a folder of \(voices) holding its takes and soundset.json"
        case .noVoices(let voices): "holds no voice: make \(voices)/<voice>/ with the voice's takes and its soundset.json"
        case .besideVoices(let voices):
            "is beside \(voices): with several voices each take belongs to its voice, so move it into \(voices)/<voice>/ (or remove \(voices) for one voice)"
        case .keyBesideVoices(let voices):
            "with several voices this file holds only \"defaultVoice\" and \"sameLevel\": move this setting into each voice's \(voices)/<voice>/soundset.json"
        case .configurationNotObject: "must be a JSON object, e.g. {\"defaultVoice\": \"zh-CN\", \"sameLevel\": -18}"
        case .badSameLevel(let text, let range):
            "'\(ClipName.printable(text))' is not a level: give the one loudness of every voice in LUFS, a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), e.g. -18"
        case .belowSameLevel(let voice, let setLevel, let sameLevel, let reached, let assets):
            String(
                format:
                    "voice %@ is at %.2f LUFS, below the %@ LUFS that sameLevel in %@/soundset.json holds every voice to (its peaks would need more limiting than "
                    + "limiter.maxReductionDb allows there): set sameLevel to %.1f or lower (every voice reaches it), or allow that voice more limiting",
                voice, setLevel, Self.level(sameLevel), assets, (reached * 10).rounded(.down) / 10)
        case .sameLevelChanged(let voice, let built, let sameLevel, let rebuild):
            "holds voice \(voice) to \(Self.level(sameLevel)) LUFS, but its set was built to \(Self.level(built)) LUFS: run \(rebuild)"
        case .configurationUnreadable(let reason):
            "cannot be read (\(reason)): write it as {\"defaultVoice\": \"<voice>\", \"sameLevel\": <LUFS>} (either key optional) or remove it"
        case .defaultNotAVoice(let name, let voices):
            "'\(name)' is not one of the voices (\(voices.joined(separator: ", "))): name a folder of voices/, or remove the key"
        case .noDefault(let voices, let settings):
            "several voices (\(voices.joined(separator: ", "))): pass --voice NAME or set defaultVoice in \(settings)"
        case .oneVoiceAssets(let assets):
            "\(assets) holds one voice (no \(assets)/voices/): leave out --voice, or put each voice's takes in \(assets)/voices/<voice>/"
        case .oneVoice(let output):
            "\(output) holds one voice's set, not several: leave out --voice (or put each voice's takes in Assets/voices/<voice>/ and build)"
        case .unknownVoice(let output, let voices): "is not a voice of \(output) (its voices: \(voices.joined(separator: ", ")))"
        case .noIndex(let reason, let rebuild): "cannot be read (\(reason)): run \(rebuild)"
        case .badIndex(let rebuild): "is not a voices index soundset wrote: run \(rebuild)"
        case .strangerInVoicesOutput(let output):
            "soundset did not write it, and \(output) holds only voices/ and voices.json when Assets holds several voices: move it out"
        case .severalInOutput(let output, let assets):
            "holds several voices' sets (voices/, voices.json) but \(assets) holds one voice: remove \(output)/voices and \(output)/voices.json, "
                + "or put the takes in \(assets)/voices/<voice>/"
        case .indexStale(let voice, let rebuild): "does not list the set of voice \(voice) that is built: run \(rebuild)"
        case .cannotRemove(let reason): "cannot be removed (\(reason)): check that it is writable, then build again"
        }
    }
}
