import Foundation
import SoundsetRuntime
import Testing

@testable import SoundsetBuild

/// The configuration's one table of keys, the loader that reads by it, and README's tables.
@Suite struct ConfigurationTests {
    static let path = "Assets/soundset.json"

    /// The problems `json` gives, as printed; empty when it loads.
    static func problems(_ json: String) -> [String] {
        do {
            _ = try ConfigurationLoader.parse(Data(json.utf8), displayPath: path)
            return []
        } catch let failure as BuildFailure {
            return failure.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    /// A value for `key` that differs from its default, as JSON, and the field's check that it was set.
    static func sample(_ key: ConfigurationKey) -> (json: String, isSet: (Configuration) -> Bool) {
        let defaults = Configuration()
        switch key.kind {
        case .number(let range, _, let field):
            let value = field.get(defaults) == range.upperBound ? range.lowerBound : range.upperBound
            return (ConfigurationKey.format(value), { field.get($0) == value })
        case .integer(let range, _, _, let field):
            let value = field.get(defaults) == range.upperBound ? range.lowerBound : range.upperBound
            return (String(value), { field.get($0) == value })
        case .choice(let allowed, _, let field):
            let value = allowed.first { $0 != field.get(defaults) }!
            return ("\"\(value)\"", { field.get($0) == value })
        case .boolean(let field):
            let value = !field.get(defaults)
            return (String(value), { field.get($0) == value })
        case .clipName(let field): return ("\"shou\"", { field.get($0) == "shou" })
        case .clipNames(let field): return (#"["shou", "yuan"]"#, { field.get($0) == ["shou", "yuan"] })
        case .amount(let field): return (#""1234.5""#, { field.get($0) == 123_450 })
        case .amounts(_, let field): return (#"["1", "0.5"]"#, { field.get($0) == ["1", "0.5"] })
        case .patternMap(_, _, let field): return (#"{"yuan*": 2}"#, { field.get($0) == ["yuan*": 2] })
        }
    }

    /// `value` at `key`'s path, nested in objects: `{"trim": {"padMs": 30}}`.
    static func json(_ key: ConfigurationKey, _ value: String) -> String {
        key.components.reversed().reduce(value) { inner, name in "{\"\(name)\": \(inner)}" }
    }

    @Test(arguments: ConfigurationKey.all.map(\.path))
    func everyKeyInTheTableIsReadIntoItsField(path: String) throws {
        let key = try #require(ConfigurationKey.all.first { $0.path == path })
        let (value, isSet) = Self.sample(key)
        var json = Self.json(key, value)
        // loudness.target must stay below loudness.truePeak.
        if path == "loudness.target" { json = #"{"loudness": {"target": -6, "truePeak": 0}}"# }
        let configuration = try ConfigurationLoader.parse(Data(json.utf8), displayPath: Self.path)
        #expect(isSet(configuration), "\(json)")
        #expect(!isSet(Configuration()), "the sample should differ from the default")
    }

    @Test(arguments: ConfigurationKey.all.map(\.path))
    func onlyTheBuildsKeysChangeTheHash(path: String) throws {
        let key = try #require(ConfigurationKey.all.first { $0.path == path })
        let json = Self.json(key, Self.sample(key).json)
        let configuration = try ConfigurationLoader.parse(Data(json.utf8), displayPath: Self.path)
        #expect((configuration.hash != Configuration().hash) == (key.section == .build), "\(json)")
    }

    @Test func theKnownKeysOfEachLevelComeFromTheTable() {
        #expect(
            ConfigurationKey.names(under: []) == [
                "locale", "sampleRate", "container", "encoding", "loudness", "limiter", "trim", "copies", "reading", "announcement", "limits",
                "maxAmount", "maxAnnouncementSeconds", "report",
            ])
        #expect(ConfigurationKey.names(under: ["announcement"]) == AnnouncementSettings.keys)
        #expect(ConfigurationKey.names(under: ["reading"]) == ReadingOptions.keys)
        #expect(ConfigurationKey.names(under: ["trim"]) == ["padMs", "fadeMs", "floorMarginDb", "rangeDb", "maxGapMs"])
        #expect(Set(ConfigurationKey.all.map(\.path)).count == ConfigurationKey.all.count)
        #expect(
            Self.problems(#"{"trim": {"pad": 1}}"#) == [
                "Assets/soundset.json: trim.pad: unknown key (known keys here: padMs, fadeMs, floorMarginDb, rangeDb, maxGapMs)"
            ])
    }

    @Test func theAnnouncementsNumericKeysHaveTheRuntimesRangesAndUnits() throws {
        for numeric in AnnouncementSettings.numericKeys {
            let key = try #require(ConfigurationKey.key(at: ["announcement", numeric.key]))
            guard case .number(let range, let unit, _) = key.kind else {
                Issue.record("\(key.path) is not a number")
                continue
            }
            #expect(range == numeric.range && unit == numeric.unit, "\(key.path)")
            #expect(key.meaning.hasPrefix(numeric.meaning))
        }
    }

    @Test func everyChoiceIsNamedInItsMeaning() {
        for key in ConfigurationKey.all {
            guard case .choice(let allowed, _, _) = key.kind else { continue }
            for value in allowed { #expect(key.meaning.contains("`\(value)`"), "\(key.path): \(value)") }
        }
    }

    @Test(arguments: [
        (#"{"sampleRate": 44100.5}"#, "sampleRate: must be a whole number (Hz), not a fraction"),
        (#"{"locale": 1}"#, "locale: must be a string (one of zh-CN, en-US), not a number"),
        (#"{"container": "M4A"}"#, "container: m4a is not a supported iOS notification sound container; use one of caf, wav, aiff"),
        (#"{"encoding": "pcm24"}"#, "encoding: 24-bit PCM is not useful for notification sounds; use one of pcm16, ulaw, alaw"),
        (#"{"reading": {"useLiang": "yes"}}"#, "reading.useLiang: must be true or false, not a string"),
        (#"{"reading": []}"#, "reading: must be an object, not an array"),
        (#"{"copies": ["0", 1, "a b"]}"#, "copies[1]: must be a clip name string, not a number"),
        (#"{"announcement": {"suffix": null}}"#, "announcement.suffix: must be a clip name string, not null"),
        (#"{"maxAmount": 99999999.999}"#, "maxAmount: '99999999.999' is not an amount: the amount has 3 decimals; at most 2 are allowed (it is never rounded)"),
        (#"{"maxAmount": true}"#, "maxAmount: must be an amount like \"99999999.99\", not a boolean"),
        (#"{"report": {"amounts": [1]}}"#, "report.amounts[0]: must be an amount string like \"123.45\", not a number"),
        (#"{"limits": {"maxSeconds": {"yuan": 30}}}"#, "limits.maxSeconds.yuan: 30 s is out of range (0.01 to 29.99)"),
        (#"{"limits": {"maxSeconds": {"": 1}}}"#, "limits.maxSeconds.: is not a clip-name pattern (ASCII letters, digits, _, -, * and ?)"),
        (#"{"limits": {"maxSeconds": {"yuan.caf": 1}}}"#, "limits.maxSeconds.yuan.caf: is not a clip-name pattern (ASCII letters, digits, _, -, * and ?)"),
        (#"{"limits": {"maxSeconds": {"a b": 1}}}"#, "limits.maxSeconds.a b: is not a clip-name pattern (ASCII letters, digits, _, -, * and ?)"),
        (
            #"{"sampleRate": 1e20}"#,
            "sampleRate: 1e+20 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)"
        ),
        (
            #"{"sampleRate": -1e15}"#,
            "sampleRate: -1000000000000000 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)"
        ),
        (#"{"loudness": {"target": -10, "truePeak": -10}}"#, "loudness.target: must be below loudness.truePeak"),
    ])
    func eachKindSaysWhatIsWrong(json: String, message: String) {
        #expect(Self.problems(json).first == "\(Self.path): \(message)")
    }

    @Test func everyProblemIsReportedInOneRun() {
        #expect(
            Self.problems(#"{"copies": ["0", 1, "a b"], "sampleRate": 1, "trim": {"padMs": "x", "fadeMs": 1000}}"#) == [
                "Assets/soundset.json: copies[1]: must be a clip name string, not a number",
                "Assets/soundset.json: copies[2]: 'a b' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed",
                "Assets/soundset.json: sampleRate: 1 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)",
                "Assets/soundset.json: trim.fadeMs: 1000 ms is out of range (0 to 100)",
                "Assets/soundset.json: trim.padMs: must be a number (ms), not a string",
            ])
    }
}
