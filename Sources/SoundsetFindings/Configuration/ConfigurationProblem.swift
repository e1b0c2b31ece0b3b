import SoundsetRuntime
import SoundsetSetFolder

/// What `soundset.json` gets wrong, each case with its one message: about the whole file, or about
/// the key a problem names. `type` is how a JSON value's kind is said (`JSONValue.typeName`: `a
/// string`, `a number`, ...); texts from the file are printed escaped (`ClipName.printable`).
public enum ConfigurationProblem: ProblemReason, Equatable {
    /// The file's text is not JSON: where the parser stopped, and why.
    case invalidJSON(position: String, reason: String)
    /// A problem the parser found and read on (a key twice, a trailing comma), at `position`.
    case parsed(position: String, message: String)
    case fileNotObject(type: String)
    /// A key no configuration has here; `meant`, the one known key it is a typo of.
    case unknownKey(meant: String?, known: [String])
    case notObject(type: String)
    case notBoolean(type: String)
    case notClipNameString(type: String)
    case notClipNames(type: String)
    case invalidClipName(name: String, reason: String)
    case notAmount(type: String)
    case notAmountString(type: String)
    case invalidAmount(text: String, explanation: String)
    case tooManyAmounts(maxCount: Int)
    case notPattern
    case notNumber(unit: String, type: String)
    case numberOutOfRange(number: Double, unit: String, range: ClosedRange<Double>)
    case notWholeNumber(unit: String, type: String)
    case integerOutOfRange(number: Double, unit: String, range: ClosedRange<Int>, why: String)
    case notChoiceString(allowed: [String], type: String)
    /// A value the key names a reason to refuse (`refusal`), with the values it takes.
    case refusedChoice(refusal: String, allowed: [String])
    case notAChoice(text: String, allowed: [String])
    case targetNotBelowPeak
    /// A voice's own target when `sameLevel` holds every voice to one level.
    case heldBySameLevel(level: Double)
    /// `sameLevel`, this voice's target, is not below the voice's true-peak ceiling.
    case sameLevelNotBelowPeak(level: Double)

    public var message: String {
        switch self {
        case .invalidJSON(let position, let reason): "is not valid JSON: \(position): \(reason)"
        case .parsed(let position, let message): "\(position): \(message)"
        case .fileNotObject(let type): "must hold a JSON object, not \(type)"
        case .unknownKey(let meant, let known):
            "unknown key\(meant.map { ": did you mean \($0)?" } ?? "") (known keys here: \(known.joined(separator: ", ")))"
        case .notObject(let type): "must be an object, not \(type)"
        case .notBoolean(let type): "must be true or false, not \(type)"
        case .notClipNameString(let type): "must be a clip name string, not \(type)"
        case .notClipNames(let type): "must be an array of clip names, not \(type)"
        case .invalidClipName(let name, let reason): "'\(ClipName.printable(name))' is not a clip name: \(reason)"
        case .notAmount(let type): "must be an amount like \"99999999.99\", not \(type)"
        case .notAmountString(let type): "must be an amount string like \"123.45\", not \(type)"
        case .invalidAmount(let text, let explanation): "'\(ClipName.printable(text))' is not an amount: \(explanation)"
        case .tooManyAmounts(let maxCount): "must be an array of at most \(maxCount) amounts like \"123.45\""
        case .notPattern: "is not a clip-name pattern (ASCII letters, digits, _, -, * and ?)"
        case .notNumber(let unit, let type): "must be a number\(unit.isEmpty ? "" : " (\(unit))"), not \(type)"
        case .numberOutOfRange(let number, let unit, let range):
            "\(ConfigurationKey.format(number))\(unit.isEmpty ? "" : " \(unit)") is out of range (\(ConfigurationKey.format(range.lowerBound)) to \(ConfigurationKey.format(range.upperBound)))"
        case .notWholeNumber(let unit, let type): "must be a whole number (\(unit)), not \(type == "a number" ? "a fraction" : type)"
        case .integerOutOfRange(let number, let unit, let range, let why):
            "\(ConfigurationKey.format(number)) \(unit) is out of range (\(range.lowerBound) to \(range.upperBound): \(why))"
        case .notChoiceString(let allowed, let type): "must be a string (one of \(allowed.joined(separator: ", "))), not \(type)"
        case .refusedChoice(let refusal, let allowed): "\(refusal); use one of \(allowed.joined(separator: ", "))"
        case .notAChoice(let text, let allowed): "'\(ClipName.printable(text))' is not one of \(allowed.joined(separator: ", "))"
        case .targetNotBelowPeak: "must be below loudness.truePeak"
        case .heldBySameLevel(let level):
            "every voice is held to one level, \(VoiceProblem.level(level)) LUFS, by sameLevel in the assets folder's soundset.json: remove this target (or sameLevel)"
        case .sameLevelNotBelowPeak(let level):
            "must be above the \(VoiceProblem.level(level)) LUFS every voice is held to by sameLevel in the assets folder's soundset.json: raise it, or lower sameLevel"
        }
    }
}
