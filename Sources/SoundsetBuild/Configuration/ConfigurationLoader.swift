import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Reads `soundset.json`, checking every key, type and range, and reporting every problem at once.
public enum ConfigurationLoader {
    /// The configuration file's name inside the assets folder.
    public static let fileName = "soundset.json"

    /// Loads the configuration from `assets/soundset.json`, or the defaults when there is none.
    /// - Parameter displayPath: how the file is named in problems, e.g. `Assets/soundset.json`.
    /// - Throws: `BuildFailure` listing every problem.
    public static func load(from url: URL, displayPath: String) throws -> Configuration {
        guard FileManager.default.fileExists(atPath: url.path) else { return Configuration() }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BuildFailure([BuildProblem(displayPath, "cannot be read (check its permissions)")])
        }
        return try parse(data, displayPath: displayPath)
    }

    /// Parses configuration bytes.
    /// - Throws: `BuildFailure` listing every problem.
    public static func parse(_ data: Data, displayPath: String) throws -> Configuration {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw BuildFailure([BuildProblem(displayPath, "is not valid JSON (\(jsonReason(error)))")])
        }
        let reader = Reader(displayPath: displayPath)
        var configuration = Configuration()
        reader.object(root, path: "") { key, value, path in
            switch key {
            case "locale":
                if let text = reader.choice(value, path: path, among: SpeechLocale.allCases.map(\.rawValue)) {
                    configuration.locale = SpeechLocale(rawValue: text)!
                }
            case "sampleRate":
                if let rate = reader.integer(
                    value, path: path, in: 8000...48000, unit: "Hz",
                    why: "iOS plays at most 48 kHz; speech needs at least 8 kHz")
                {
                    configuration.sampleRate = rate
                }
            case "container":
                if let text = reader.choice(
                    value, path: path, among: Container.allCases.map(\.rawValue),
                    refusals: [
                        "mp3": "mp3 is not a supported iOS notification sound format (it plays on some versions only)",
                        "m4a": "m4a is not a supported iOS notification sound container",
                    ])
                {
                    configuration.container = Container(rawValue: text)!
                }
            case "encoding":
                if let text = reader.choice(
                    value, path: path, among: Encoding.allCases.map(\.rawValue),
                    refusals: [
                        "mp3": "mp3 is not a supported iOS notification sound encoding",
                        "ima4": "ima4 is refused: iOS does not play IMA4 in WAV and libsndfile cannot write it in CAF",
                        "float": "float is not a supported iOS notification sound encoding",
                        "pcm24": "24-bit PCM is not useful for notification sounds",
                    ])
                {
                    configuration.encoding = Encoding(rawValue: text)!
                }
            case "loudness":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "target":
                        if let number = reader.number(value, path: path, in: -40...(-6), unit: "LUFS") { configuration.loudness.target = number }
                    case "truePeak":
                        if let number = reader.number(value, path: path, in: -12...0, unit: "dBTP") { configuration.loudness.truePeak = number }
                    default: reader.unknown(path, known: ["target", "truePeak"])
                    }
                }
            case "limiter":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "maxReductionDb":
                        if let number = reader.number(value, path: path, in: 0...20, unit: "dB") { configuration.limiter.maxReductionDb = number }
                    default: reader.unknown(path, known: ["maxReductionDb"])
                    }
                }
            case "trim":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "padMs":
                        if let number = reader.number(value, path: path, in: 0...500, unit: "ms") { configuration.trim.padMs = number }
                    case "fadeMs":
                        if let number = reader.number(value, path: path, in: 0...100, unit: "ms") { configuration.trim.fadeMs = number }
                    case "floorMarginDb":
                        if let number = reader.number(value, path: path, in: 1...40, unit: "dB") { configuration.trim.floorMarginDb = number }
                    case "rangeDb":
                        if let number = reader.number(value, path: path, in: 20...100, unit: "dB") { configuration.trim.rangeDb = number }
                    case "maxGapMs":
                        if let number = reader.number(value, path: path, in: 0...2000, unit: "ms") { configuration.trim.maxGapMs = number }
                    default: reader.unknown(path, known: ["padMs", "fadeMs", "floorMarginDb", "rangeDb", "maxGapMs"])
                    }
                }
            case "copies":
                guard case .array(let items) = value else {
                    reader.problem(path, "must be an array of clip names, not \(value.typeName)")
                    return
                }
                var names: [String] = []
                for (index, item) in items.enumerated() {
                    guard case .string(let name) = item else {
                        reader.problem("\(path)[\(index)]", "must be a clip name string, not \(item.typeName)")
                        continue
                    }
                    if let reason = ClipName.problem(with: name) {
                        reader.problem("\(path)[\(index)]", "'\(ClipName.printable(name))' is not a clip name: \(reason)")
                    } else {
                        names.append(name)
                    }
                }
                configuration.copies = names
            case "reading":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "style":
                        if let text = reader.choice(value, path: path, among: ReadingOptions.Style.allCases.map(\.rawValue)) {
                            configuration.reading.style = ReadingOptions.Style(rawValue: text)!
                        }
                    case "useLiang":
                        if let flag = reader.boolean(value, path: path) { configuration.reading.useLiang = flag }
                    case "keepTrailingZeros":
                        if let flag = reader.boolean(value, path: path) { configuration.reading.keepTrailingZeros = flag }
                    default: reader.unknown(path, known: ReadingOptions.keys)
                    }
                }
            case "announcement":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "prefix": configuration.announcement.prefix = reader.clipName(value, path: path)
                    case "suffix": configuration.announcement.suffix = reader.clipName(value, path: path)
                    case "fallback": configuration.announcement.fallback = reader.clipName(value, path: path)
                    case "delivery":
                        if let text = reader.choice(value, path: path, among: AnnouncementSettings.Delivery.allCases.map(\.rawValue)) {
                            configuration.announcement.delivery = AnnouncementSettings.Delivery(rawValue: text)!
                        }
                    default:
                        // The numeric keys, their ranges and units come from the runtime's one table.
                        guard let numeric = AnnouncementSettings.numericKeys.first(where: { $0.key == key }) else {
                            reader.unknown(path, known: AnnouncementSettings.keys)
                            return
                        }
                        if let number = reader.number(value, path: path, in: numeric.range, unit: numeric.unit) {
                            numeric.set(&configuration.announcement, number)
                        }
                    }
                }
            case "limits":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "maxSeconds":
                        var patterns: [String: Double] = [:]
                        reader.object(value, path: path) { pattern, value, path in
                            if pattern.isEmpty || pattern.unicodeScalars.contains(where: { !$0.isASCII || $0.properties.generalCategory == .control }) {
                                reader.problem(path, "is not a clip-name pattern (ASCII letters, digits, _, -, * and ?)")
                            } else if let seconds = reader.number(value, path: path, in: 0.01...29.99, unit: "s") {
                                patterns[pattern] = seconds
                            }
                        }
                        configuration.limits.maxSeconds = patterns
                    case "minSeconds":
                        if let number = reader.number(value, path: path, in: 0...10, unit: "s") { configuration.limits.minSeconds = number }
                    default: reader.unknown(path, known: ["maxSeconds", "minSeconds"])
                    }
                }
            case "maxAmount":
                // Money is never a binary float: a string is read exactly; a JSON number is read from
                // its shortest decimal form (99999999.99 stays 99999999.99) and must pass the same rules.
                let text: String?
                switch value {
                case .string(let string): text = string
                case .number(let number):
                    var shortest = "\(number)"
                    if shortest.hasSuffix(".0") { shortest.removeLast(2) }
                    text = shortest
                default:
                    reader.problem(path, "must be an amount like \"99999999.99\", not \(value.typeName)")
                    text = nil
                }
                if let text {
                    do { configuration.maxAmountMinorUnits = try Amount(text).minorUnits } catch {
                        reader.problem(path, "'\(ClipName.printable(text))' is not an amount: \(error)")
                    }
                }
            case "report":
                reader.object(value, path: path) { key, value, path in
                    switch key {
                    case "amounts":
                        guard case .array(let items) = value, items.count <= 20 else {
                            reader.problem(path, "must be an array of at most 20 amounts like \"123.45\"")
                            return
                        }
                        var amounts: [String] = []
                        for (index, item) in items.enumerated() {
                            guard case .string(let text) = item else {
                                reader.problem("\(path)[\(index)]", "must be an amount string like \"123.45\", not \(item.typeName)")
                                continue
                            }
                            do { _ = try Amount(text); amounts.append(text) } catch {
                                reader.problem("\(path)[\(index)]", "'\(ClipName.printable(text))' is not an amount: \(error)")
                            }
                        }
                        configuration.report.amounts = amounts
                    default: reader.unknown(path, known: ["amounts"])
                    }
                }
            case "maxAnnouncementSeconds":
                if let number = reader.number(value, path: path, in: 0.1...29.99, unit: "s") { configuration.maxAnnouncementSeconds = number }
            default:
                reader.unknown(
                    path,
                    known: [
                        "locale", "sampleRate", "container", "encoding", "loudness", "limiter", "trim", "copies",
                        "reading", "announcement", "limits", "maxAmount", "maxAnnouncementSeconds", "report",
                    ])
            }
        }
        if configuration.loudness.target >= configuration.loudness.truePeak {
            reader.problem("loudness.target", "must be below loudness.truePeak")
        }
        guard reader.problems.isEmpty else { throw BuildFailure(reader.problems) }
        return configuration
    }

    private static func jsonReason(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error, let underlying = context.underlyingError {
            let text = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return text.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "syntax error"
        }
        return "syntax error"
    }

    /// Walks the JSON tree, collecting problems named by key path (a class, so the nested closures share it).
    private final class Reader {
        let displayPath: String
        var problems: [BuildProblem] = []

        init(displayPath: String) { self.displayPath = displayPath }

        func problem(_ path: String, _ message: String) {
            problems.append(BuildProblem("\(displayPath): \(path)", message))
        }

        func unknown(_ path: String, known: [String]) {
            problem(path, "unknown key (known keys here: \(known.joined(separator: ", ")))")
        }

        func object(_ value: JSONValue, path: String, _ each: (String, JSONValue, String) -> Void) {
            guard case .object(let members) = value else {
                if path.isEmpty {
                    problems.append(BuildProblem(displayPath, "must hold a JSON object, not \(value.typeName)"))
                } else {
                    problem(path, "must be an object, not \(value.typeName)")
                }
                return
            }
            for key in members.keys.sorted() {
                each(key, members[key]!, path.isEmpty ? key : "\(path).\(key)")
            }
        }

        func number(_ value: JSONValue, path: String, in range: ClosedRange<Double>, unit: String) -> Double? {
            guard case .number(let number) = value else {
                problem(path, "must be a number (\(unit)), not \(value.typeName)")
                return nil
            }
            guard range.contains(number) else {
                problem(path, "\(format(number)) \(unit) is out of range (\(format(range.lowerBound)) to \(format(range.upperBound)))")
                return nil
            }
            return number
        }

        func integer(_ value: JSONValue, path: String, in range: ClosedRange<Int>, unit: String, why: String) -> Int? {
            guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e15 else {
                problem(path, "must be a whole number (\(unit)), not \(value.typeName == "a number" ? "a fraction" : value.typeName)")
                return nil
            }
            guard range.contains(Int(number)) else {
                problem(path, "\(Int(number)) \(unit) is out of range (\(range.lowerBound) to \(range.upperBound): \(why))")
                return nil
            }
            return Int(number)
        }

        func boolean(_ value: JSONValue, path: String) -> Bool? {
            guard case .bool(let flag) = value else {
                problem(path, "must be true or false, not \(value.typeName)")
                return nil
            }
            return flag
        }

        func clipName(_ value: JSONValue, path: String) -> String? {
            guard case .string(let name) = value else {
                problem(path, "must be a clip name string, not \(value.typeName)")
                return nil
            }
            if let reason = ClipName.problem(with: name) {
                problem(path, "'\(ClipName.printable(name))' is not a clip name: \(reason)")
                return nil
            }
            return name
        }

        func choice(_ value: JSONValue, path: String, among allowed: [String], refusals: [String: String] = [:]) -> String? {
            guard case .string(let text) = value else {
                problem(path, "must be a string (one of \(allowed.joined(separator: ", "))), not \(value.typeName)")
                return nil
            }
            if allowed.contains(text) { return text }
            if let refusal = refusals[text.lowercased()] {
                problem(path, "\(refusal); use one of \(allowed.joined(separator: ", "))")
            } else {
                problem(path, "'\(ClipName.printable(text))' is not one of \(allowed.joined(separator: ", "))")
            }
            return nil
        }

        private func format(_ number: Double) -> String {
            number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        }
    }
}
