import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetFindings

/// The configuration's one table of keys, the loader that reads by it, and README's tables.
@Suite struct ConfigurationTests {
    static let path = "Assets/soundset.json"

    /// The problems `json` gives, as printed; empty when it loads.
    static func problems(_ json: String) -> [String] {
        do {
            _ = try ConfigurationLoader.parse(Data(json.utf8), displayPath: path)
            return []
        } catch {
            return error.problems.map(\.description)
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

    /// Freshness has one definition: the digest of the output settings that differ from their
    /// defaults, as a canonical, versioned text. The demo's is pinned: it changes only when the
    /// text's form or one of the demo's settings does.
    @Test func theSettingsDigestIsCanonicalAndPinned() throws {
        let demo = try ConfigurationLoader.load(
            from: SoundsetExecutable.packageRoot.appendingPathComponent("Assets/voices/zh-CN/soundset.json"), displayPath: "Assets/voices/zh-CN/soundset.json")
        #expect(
            SettingsDigest.text(of: demo, sections: [.build])
                == "soundset-settings 1\nannouncement.maxWaitSeconds=25\nannouncement.prefix=\"received\"\ntempo=0.85\n")
        #expect(demo.hash == "65999ecca1bd148e3066e0c4571e36b8e02e644e61363a2f2ff585b01ac421d1")
        // Every setting at its default: the version line alone.
        #expect(SettingsDigest.text(of: Configuration(), sections: [.build, .check, .report]) == "soundset-settings 1\n")
        #expect(Configuration().hash == "f2be87b82856bbc4f91d80aff4e9a2bfb819d0c39c55bbff9084f1cadc548fbe")
        func parsed(_ json: String) throws -> Configuration { try ConfigurationLoader.parse(Data(json.utf8), displayPath: Self.path) }
        // Keys written at their defaults change nothing, so a key added later never makes an old set stale.
        let written = try parsed(
            #"{"tempo": 1, "sampleRate": 44100, "trim": {"fadeMs": 5, "padMs": 20}, "announcement": {"gapMs": 25, "join": "speech"}, "reading": {"useLiang": false}}"#
        )
        #expect(written.hash == Configuration().hash)
        // The gap's default follows the join: file joins' own default gap is no setting of its own.
        let file = try parsed(#"{"announcement": {"join": "file"}}"#)
        #expect(try parsed(#"{"announcement": {"join": "file", "gapMs": 0}}"#).hash == file.hash)
        #expect(SettingsDigest.text(of: file, sections: [.build]) == "soundset-settings 1\nannouncement.join=\"file\"\n")
        // Numbers in their shortest form, names sorted: the same settings give the same text.
        #expect(try parsed(#"{"copies": ["2", "1"], "tempo": 0.850}"#).hash == (try parsed(#"{"tempo": 0.85, "copies": ["1", "2"]}"#)).hash)
    }

    @Test func theKnownKeysOfEachLevelComeFromTheTable() {
        #expect(
            ConfigurationKey.names(under: []) == [
                "locale", "sampleRate", "container", "encoding", "loudness", "limiter", "trim", "tempo", "copies", "reading", "announcement", "limits",
                "maxAmount", "maxAnnouncementSeconds", "report",
            ])
        #expect(ConfigurationKey.names(under: ["announcement"]) == AnnouncementSettings.keys)
        #expect(ConfigurationKey.names(under: ["reading"]) == ReadingOptions.keys)
        #expect(ConfigurationKey.names(under: ["trim"]) == ["padMs", "fadeMs", "floorMarginDb", "rangeDb", "maxGapMs"])
        #expect(Set(ConfigurationKey.all.map(\.path)).count == ConfigurationKey.all.count)
        #expect(
            Self.problems(#"{"trim": {"pad": 1}}"#) == [
                "Assets/soundset.json: trim.pad: unknown key: did you mean padMs? (known keys here: padMs, fadeMs, floorMarginDb, rangeDb, maxGapMs)"
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

    @Test func syntaxErrorsNameTheLineAndColumn() {
        #expect(
            Self.problems("{ sampleRate: 44100 }") == [
                "Assets/soundset.json: is not valid JSON: line 1, column 3: expected a string key in double quotes"
            ])
        #expect(
            Self.problems("{\n  \"trim\": {\"padMs\": 30\n}") == [
                "Assets/soundset.json: is not valid JSON: line 3, column 2: expected ',' or '}' before the end of the file"
            ])
    }

    @Test func duplicateKeysAreRefusedWithTheirLines() {
        #expect(
            Self.problems("{\"trim\": {},\n    \"trim\": {\"padMs\": 3}, \"sampleRate\": 1}") == [
                "Assets/soundset.json: line 2, column 5: key 'trim' appears twice (first on line 1); keep one",
                "Assets/soundset.json: sampleRate: 1 Hz is out of range (8000 to 48000: iOS plays at most 48 kHz; speech needs at least 8 kHz)",
            ])
        #expect(
            Self.problems("{\"loudness\": {\"target\": -20,\n\"target\": -10}}") == [
                "Assets/soundset.json: line 2, column 1: key 'loudness.target' appears twice (first on line 1); keep one"
            ])
    }

    @Test func trailingCommasAreRefusedWithTheirPlace() {
        #expect(
            Self.problems("{\n  \"trim\": {\n    \"padMs\": 30,\n  },\n  \"copies\": [\"0\",]\n}") == [
                "Assets/soundset.json: line 3, column 16: trailing comma before '}' (remove it)",
                "Assets/soundset.json: line 5, column 17: trailing comma before ']' (remove it)",
            ])
    }

    @Test func keysAndValuesFromTheFileArePrintedEscaped() {
        #expect(
            Self.problems(#"{"x\n::error file=Assets/7.wav::forged": 1}"#) == [
                #"Assets/soundset.json: x\n::error file=Assets/7.wav::forged: unknown key (known keys here: locale, sampleRate, container, encoding, loudness, limiter, trim, tempo, copies, reading, announcement, limits, maxAmount, maxAnnouncementSeconds, report)"#
            ])
        #expect(
            Self.problems(#"{"trim": {"\u202Epad\r": 1}, "limits": {"maxSeconds": {"a\u0007": 1}}}"#) == [
                #"Assets/soundset.json: limits.maxSeconds.a\u{07}: is not a clip-name pattern (ASCII letters, digits, _, -, * and ?)"#,
                #"Assets/soundset.json: trim.\u{202E}pad\r: unknown key (known keys here: padMs, fadeMs, floorMarginDb, rangeDb, maxGapMs)"#,
            ])
        #expect(
            Self.problems(#"{"locale": "x\n::error", "copies": ["a\tb"], "maxAmount": "1\n"}"#) == [
                #"Assets/soundset.json: copies[0]: 'a\tb' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed"#,
                #"Assets/soundset.json: locale: 'x\n::error' is not one of zh-CN, en-US"#,
                #"Assets/soundset.json: maxAmount: '1\n' is not an amount: the amount contains spaces: write 1"#,
            ])
        #expect(
            Self.problems(#"{"a\n": 1, "a\n": 2}"#).first == #"Assets/soundset.json: line 1, column 12: key 'a\n' appears twice (first on line 1); keep one"#)
        for problem in Self.problems(#"{"\n": {"\r": 1}, "\u2028": 1, "\u0085": 2, "copies": ["\n"]}"#) {
            #expect(!problem.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .lineSeparator })
        }
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

/// The docs' two configuration tables (the build's in docs/configuration.md, the check-only
/// settings in docs/check.md) hold exactly the table's keys, defaults, meanings and ranges;
/// `--help` names no key that the table lacks.
@Suite struct ConfigurationDocumentationTests {
    /// The rows of the first `| key | default | meaning |` table after the line of `document` that
    /// starts with `marker`.
    static func rows(after marker: String, in document: String) throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(document)
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix(marker) }, "\(document) has no '\(marker)'")
        let header = try #require(lines[start...].firstIndex { $0.hasPrefix("| key | default | meaning |") }, "no table after '\(marker)'")
        return Array(lines[(header + 2)...].prefix { $0.hasPrefix("|") })
    }

    /// The key of a README row: `| `trim.padMs` | ...` gives `trim.padMs`.
    static func key(_ row: String) -> String {
        row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) } ?? row
    }

    @Test(arguments: [
        ("docs/configuration.md", "## Configuration: `Assets/soundset.json`", false),
        ("docs/check.md", "Check-only settings in `soundset.json`", true),
    ])
    func readmeHoldsTheTablesRows(document: String, marker: String, checkOnly: Bool) throws {
        let readme = try Self.rows(after: marker, in: document)
        let table = ConfigurationKey.readmeRows(checkOnly: checkOnly)
        let readmeKeys = readme.map(Self.key)
        let tableKeys = table.map(Self.key)
        #expect(tableKeys.filter { !readmeKeys.contains($0) } == [], "keys missing from \(document)")
        #expect(readmeKeys.filter { !tableKeys.contains($0) } == [], "\(document)'s keys that the loader does not know")
        for row in table {
            if let readmeRow = readme.first(where: { Self.key($0) == Self.key(row) }) { #expect(readmeRow == row) }
        }
        #expect(readme == table, "\(document) should list, in this order:\n\(table.joined(separator: "\n"))")
    }

    /// The help does not list the keys (it points to README), but names some in passing: each
    /// dotted name like `limits.maxSeconds` (not a file name like `manifest.json`) must be a key of the table.
    @Test func theHelpNamesOnlyKeysOfTheTable() throws {
        var named: Set<String> = []
        for command in ["build", "plan", "render", "announce", "check", "measure", "report"] {
            let result = try SoundsetExecutable.run(["help", command])
            #expect(result.status == 0)
            let words = result.stdout.split { !$0.isLetter && !$0.isNumber && $0 != "." }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
            named.formUnion(
                words.filter { word in
                    word.contains(".") && word.first?.isLowercase == true && word.allSatisfy { $0.isLetter || $0 == "." } && word != "e.g"
                        && ![".json", ".html", ".md"].contains { word.hasSuffix($0) }
                })
        }
        #expect(named.subtracting(ConfigurationKey.all.map(\.path)) == [])
        #expect(named.contains("limits.maxSeconds") && named.contains("announcement.prefix"), "\(named)")
    }

    @Test func theDefaultDurationLimitsAreTheOnesReadmeGives() throws {
        let key = try #require(ConfigurationKey.key(at: ["limits", "maxSeconds"]))
        var configuration = Configuration()
        configuration.announcement.prefix = "received"
        let clip = configuration.maxSeconds(for: "7")
        let phrase = configuration.maxSeconds(for: "received")
        #expect(
            key.defaultText == "`{\"\(clip.pattern)\": \(clip.seconds)}`, and \(ConfigurationKey.format(phrase.seconds)) s for the announcement prefix/suffix")
    }

    /// Written patterns add to the defaults instead of dropping them: the most specific written
    /// pattern that matches wins, and a name none matches keeps its default.
    @Test func durationLimitsAddToTheDefaults() throws {
        func limits(_ json: String, _ names: [String]) throws -> [String] {
            var configuration = try ConfigurationLoader.parse(Data(json.utf8), displayPath: "soundset.json")
            configuration.announcement.prefix = "received"
            return names.map { name in
                let limit = configuration.maxSeconds(for: name)
                return "\(name) \(limit.seconds) \(limit.pattern)"
            }
        }
        #expect(
            try limits(#"{"limits": {"maxSeconds": {"hundred": 0.1}}}"#, ["hundred", "7", "received"]) == [
                "hundred 0.1 hundred", "7 1.2 *", "received 4.0 received",
            ])
        #expect(try limits(#"{"limits": {"maxSeconds": {"*": 2}}}"#, ["7", "received"]) == ["7 2.0 *", "received 2.0 *"])
        #expect(
            try limits(#"{"limits": {"maxSeconds": {"rec*": 3, "received": 5, "hun*": 0.9}}}"#, ["received", "hundred", "thousand"])
                == ["received 5.0 received", "hundred 0.9 hun*", "thousand 1.2 *"])
    }
}

/// The strict JSON parser that the configuration is read with.
@Suite struct JSONParserTests {
    static func parse(_ text: String) throws(JSONParser.SyntaxError) -> JSONParser.Parsed {
        try JSONParser.parse(Array(text.utf8))
    }

    /// `line:column: reason` of the syntax error `text` gives, or "no error".
    static func syntaxError(_ bytes: [UInt8]) -> String {
        do {
            _ = try JSONParser.parse(bytes)
            return "no error"
        } catch {
            return "\(error.position.line):\(error.position.column): \(error.reason)"
        }
    }

    @Test func readsEveryKindOfValue() throws {
        let parsed = try Self.parse(#" {"a": [true, false, null, "s", -0.5e2, {}, []], "b": {"c": 0}} "#)
        #expect(
            parsed.value
                == .object([
                    "a": .array([.bool(true), .bool(false), .null, .string("s"), .number(-50), .object([:]), .array([])]),
                    "b": .object(["c": .number(0)]),
                ]))
        #expect(parsed.problems.isEmpty)
        #expect(try Self.parse("\u{FEFF}\n\t\r 7 ").value == .number(7))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("0.1", 0.1), ("99999999.99", 99_999_999.99), ("1E2", 100), ("1e+2", 100), ("25e-1", 2.5),
        ("0.30000000000000004", 0.30000000000000004), ("123456789012345678901234567890", 1.2345678901234568e29),
        ("1.7976931348623157e308", .greatestFiniteMagnitude), ("1.7976931348623158e308", .greatestFiniteMagnitude),
        ("4.9e-324", .leastNonzeroMagnitude), ("2.4703282292062328e-324", .leastNonzeroMagnitude), ("1e-400", 0),
        ("2.2250738585072014e-308", .leastNormalMagnitude), ("2.2250738585072011e-308", Double.leastNormalMagnitude.nextDown),
    ])
    func numbersAreRoundedToTheNearestDouble(text: String, value: Double) throws {
        guard case .number(let number) = try Self.parse(text).value else {
            Issue.record("not a number")
            return
        }
        #expect(number == value && number.sign == value.sign, "\(text)")
    }

    @Test func stringsTakeEveryEscapeAndSurrogatePairs() throws {
        let parsed = try Self.parse(#"["\"\\\/\b\f\n\r\t", "\u00e9\u4E2D\ud83d\ude00\u0000", "é中😀"]"#)
        #expect(parsed.value == .array([.string("\"\\/\u{8}\u{C}\n\r\t"), .string("é中😀\u{0}"), .string("é中😀")]))
    }

    @Test(arguments: [
        ("", "1:1: the file is empty (write {} for the defaults)"),
        (" \n ", "2:2: the file is empty (write {} for the defaults)"),
        ("{ sampleRate: 1 }", "1:3: expected a string key in double quotes"),
        (#"{"a" 1}"#, "1:6: expected ':' after the key"),
        (#"{"a": 1 "b": 2}"#, "1:9: expected ',' or '}'"),
        ("[1 2]", "1:4: expected ',' or ']'"),
        (#"{"a": "#, "1:7: expected a value before the end of the file"),
        (#"{"a": 1"#, "1:8: expected ',' or '}' before the end of the file"),
        (#"{"a": tru}"#, "1:7: expected a value"),
        (#"{"a": 1}}"#, "1:9: text after the end of the JSON value (remove it)"),
        (#"{"a": 1} // why"#, "1:10: JSON has no comments (remove it)"),
        ("{\n  // why\n}", "2:3: JSON has no comments (remove it)"),
        ("{'a': 1}", "1:2: JSON strings are in double quotes, not single quotes"),
        ("[NaN]", "1:2: NaN is not a JSON number"),
        ("[Infinity]", "1:2: Infinity is not a JSON number"),
        ("[-Infinity]", "1:2: -Infinity is not a JSON number"),
        ("[01]", "1:2: a number cannot start with 0 (write 7, not 07)"),
        ("[-01]", "1:2: a number cannot start with 0 (write 7, not 07)"),
        ("[+1]", "1:2: a JSON number has no '+' sign (remove it)"),
        ("[.5]", "1:2: a JSON number starts with a digit (write 0.5, not .5)"),
        ("[-]", "1:3: expected a digit after '-'"),
        ("[1.]", "1:4: expected a digit after '.'"),
        ("[1e]", "1:4: expected a digit in the exponent"),
        ("[1e400]", "1:2: 1e400 is too large for a number"),
        ("[-1.7976931348623159e308]", "1:2: -1.7976931348623159e308 is too large for a number"),
        (#"["abc"#, "1:2: a string is not closed (add its closing \")"),
        ("[\"a\nb\"]", "1:4: a string cannot hold control character U+000A (write it as \\n)"),
        ("[\"a\tb\"]", "1:4: a string cannot hold control character U+0009 (write it as \\t)"),
        ("[\"a\u{1}b\"]", "1:4: a string cannot hold control character U+0001 (write it as \\u0001)"),
        (#"["\x"]"#, #"1:3: unknown escape in a string (use \", \\, \/, \b, \f, \n, \r, \t or \u and four hex digits)"#),
        (#"["\u12G4"]"#, #"1:3: \u must be followed by four hex digits"#),
        (#"["\ud83d"]"#, #"1:3: \uD83D is half of a surrogate pair (a \uDC00-\uDFFF escape must follow it)"#),
        (#"["\ud83d\u0041"]"#, #"1:3: \uD83D is half of a surrogate pair (a \uDC00-\uDFFF escape must follow it)"#),
        (#"["\ude00"]"#, #"1:3: \uDE00 is the second half of a surrogate pair without its first"#),
        ("{\"é中😀\": x}", "1:9: expected a value"),
        ("\u{FEFF}{x}", "1:2: expected a string key in double quotes"),
    ])
    func syntaxErrorsSayWhereAndWhat(text: String, error: String) {
        #expect(Self.syntaxError(Array(text.utf8)) == error)
    }

    @Test func invalidUTF8IsRefusedWhereItIs() {
        #expect(Self.syntaxError([0x7B, 0x0A, 0x22, 0xC3, 0x28, 0x22]) == "2:2: the file is not UTF-8 text (save it as UTF-8)")
        #expect(Self.syntaxError([0x22, 0xED, 0xA0, 0x80, 0x22]) == "1:2: the file is not UTF-8 text (save it as UTF-8)")
    }

    @Test func nestingIsLimited() throws {
        let deepest = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(throws: Never.self) { try Self.parse(deepest) }
        let tooDeep = String(repeating: "[", count: 100_000)
        #expect(Self.syntaxError(Array(tooDeep.utf8)) == "1:65: objects and arrays nest more than 64 deep")
        #expect(Self.syntaxError(Array((String(repeating: #"{"a":"#, count: 65) + "1").utf8)) == "1:321: objects and arrays nest more than 64 deep")
    }

    @Test func duplicateKeysAndTrailingCommasAreNotedAndReadPast() throws {
        let parsed = try Self.parse(
            """
            {
              "trim": {"padMs": 1, "padMs": 2,},
              "trim": 3,
              "copies": ["0", "1",],
              "x\\n::error": 1, "x\\n::error": 2
            }
            """)
        #expect(
            parsed.problems.map { "\($0.position.line):\($0.position.column): \($0.message)" } == [
                "2:24: key 'trim.padMs' appears twice (first on line 2); keep one",
                "2:34: trailing comma before '}' (remove it)",
                "3:3: key 'trim' appears twice (first on line 2); keep one",
                "4:22: trailing comma before ']' (remove it)",
                #"5:20: key 'x\n::error' appears twice (first on line 5); keep one"#,
            ])
        #expect(
            parsed.value
                == .object(["trim": .object(["padMs": .number(1)]), "copies": .array([.string("0"), .string("1")]), "x\n::error": .number(1)]))
    }
}
