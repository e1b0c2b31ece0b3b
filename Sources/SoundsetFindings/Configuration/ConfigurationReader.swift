import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// Walks a parsed `soundset.json` by `ConfigurationKey.all`, setting each key's field and collecting
/// every problem, named by key path. Keys from the file are printed escaped (`ClipName.printable`),
/// like every value from it, so a problem stays on one line whatever the file holds: a key such as
/// `"x\n::error file=…"` cannot split a message or forge a GitHub annotation.
struct ConfigurationReader {
    let displayPath: String
    private(set) var problems: [BuildProblem] = []

    init(displayPath: String) { self.displayPath = displayPath }

    /// Reads the object `value` at `parent` (`[]` for the root) into `configuration`.
    mutating func read(_ value: JSONValue, at parent: [String], into configuration: inout Configuration) {
        guard let members = object(value, path: Self.name(parent)) else { return }
        let known = ConfigurationKey.names(under: parent)
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            let path = parent + [name]
            if let key = ConfigurationKey.key(at: path) {
                apply(key, member, into: &configuration)
            } else if known.contains(name) {
                read(member, at: path, into: &configuration)
            } else {
                let meant = known.filter { Self.editDistance(name.lowercased(), $0.lowercased()) <= 2 }
                problem(Self.name(path), .unknownKey(meant: meant.count == 1 ? meant[0] : nil, known: known))
            }
        }
    }

    /// How many characters must be inserted, removed, changed or swapped with a neighbour to make
    /// `a` into `b` (a typo's distance).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count]
    }

    /// Adds a problem about the key at `path` (as `name(_:)` writes it).
    mutating func problem(_ path: String, _ reason: ConfigurationProblem) {
        problems.append(BuildProblem("\(displayPath): \(path)", reason))
    }

    /// Adds a problem about the whole file, e.g. `line 2, column 5: key 'trim' appears twice ...`.
    mutating func fileProblem(_ reason: ConfigurationProblem) {
        problems.append(BuildProblem(displayPath, reason))
    }

    /// A key path as messages name it, e.g. `trim.padMs`, each key escaped.
    static func name(_ path: [String]) -> String {
        path.map(ClipName.printable).joined(separator: ".")
    }

    private mutating func apply(_ key: ConfigurationKey, _ value: JSONValue, into configuration: inout Configuration) {
        let path = key.path
        switch key.kind {
        case .number(let range, let unit, let field):
            if let number = number(value, path: path, in: range, unit: unit) { field.set(&configuration, number) }
        case .integer(let range, let unit, let why, let field):
            if let number = integer(value, path: path, in: range, unit: unit, why: why) { field.set(&configuration, number) }
        case .choice(let allowed, let refusals, let field):
            if let text = choice(value, path: path, among: allowed, refusals: refusals) { field.set(&configuration, text) }
        case .boolean(let field):
            guard case .bool(let flag) = value else { return problem(path, .notBoolean(type: value.typeName)) }
            field.set(&configuration, flag)
        case .clipName(let field):
            guard case .string(let name) = value else { return problem(path, .notClipNameString(type: value.typeName)) }
            if let name = clipName(name, path: path) { field.set(&configuration, name) }
        case .clipNames(let field):
            guard case .array(let items) = value else { return problem(path, .notClipNames(type: value.typeName)) }
            var names: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let name) = item else {
                    problem("\(path)[\(index)]", .notClipNameString(type: item.typeName))
                    continue
                }
                if let name = clipName(name, path: "\(path)[\(index)]") { names.append(name) }
            }
            field.set(&configuration, names)
        case .amount(let field):
            // Money is never a binary float: a string is read exactly; a JSON number is read from its
            // shortest decimal form (99999999.99 stays 99999999.99) and must pass the same rules.
            var text: String
            switch value {
            case .string(let string): text = string
            case .number(let number):
                text = "\(number)"
                if text.hasSuffix(".0") { text.removeLast(2) }
            default: return problem(path, .notAmount(type: value.typeName))
            }
            do { field.set(&configuration, try Amount(text).minorUnits) } catch {
                problem(path, .invalidAmount(text: text, explanation: error.explaining(text)))
            }
        case .amounts(let maxCount, let field):
            guard case .array(let items) = value, items.count <= maxCount else {
                return problem(path, .tooManyAmounts(maxCount: maxCount))
            }
            var amounts: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    problem("\(path)[\(index)]", .notAmountString(type: item.typeName))
                    continue
                }
                do {
                    _ = try Amount(text)
                    amounts.append(text)
                } catch { problem("\(path)[\(index)]", .invalidAmount(text: text, explanation: error.explaining(text))) }
            }
            field.set(&configuration, amounts)
        case .patternMap(let range, let unit, let field):
            guard let members = object(value, path: path) else { return }
            var patterns: [String: Double] = [:]
            for (pattern, member) in members.sorted(by: { $0.key < $1.key }) {
                let patternPath = Self.name(key.components + [pattern])
                if !Self.isPattern(pattern) {
                    problem(patternPath, .notPattern)
                } else if let seconds = number(member, path: patternPath, in: range, unit: unit) {
                    patterns[pattern] = seconds
                }
            }
            field.set(&configuration, patterns)
        }
    }

    /// Whether `pattern` can match a clip name: ASCII letters, digits, `_`, `-` and the wildcards.
    private static func isPattern(_ pattern: String) -> Bool {
        !pattern.isEmpty
            && pattern.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-*?".unicodeScalars.contains(scalar))
            }
    }

    private mutating func object(_ value: JSONValue, path: String) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            if path.isEmpty {
                fileProblem(.fileNotObject(type: value.typeName))
            } else {
                problem(path, .notObject(type: value.typeName))
            }
            return nil
        }
        return members
    }

    private mutating func number(_ value: JSONValue, path: String, in range: ClosedRange<Double>, unit: String) -> Double? {
        guard case .number(let number) = value else {
            problem(path, .notNumber(unit: unit, type: value.typeName))
            return nil
        }
        guard range.contains(number) else {
            problem(path, .numberOutOfRange(number: number, unit: unit, range: range))
            return nil
        }
        return number
    }

    private mutating func integer(_ value: JSONValue, path: String, in range: ClosedRange<Int>, unit: String, why: String) -> Int? {
        guard case .number(let number) = value, number == number.rounded() else {
            problem(path, .notWholeNumber(unit: unit, type: value.typeName))
            return nil
        }
        guard Double(range.lowerBound) <= number && number <= Double(range.upperBound) else {
            problem(path, .integerOutOfRange(number: number, unit: unit, range: range, why: why))
            return nil
        }
        return Int(number)
    }

    private mutating func clipName(_ name: String, path: String) -> String? {
        if let reason = ClipName.problem(with: name) {
            problem(path, .invalidClipName(name: name, reason: reason))
            return nil
        }
        return name
    }

    private mutating func choice(_ value: JSONValue, path: String, among allowed: [String], refusals: [String: String]) -> String? {
        guard case .string(let text) = value else {
            problem(path, .notChoiceString(allowed: allowed, type: value.typeName))
            return nil
        }
        if allowed.contains(text) { return text }
        if let refusal = refusals[text.lowercased()] {
            problem(path, .refusedChoice(refusal: refusal, allowed: allowed))
        } else {
            problem(path, .notAChoice(text: text, allowed: allowed))
        }
        return nil
    }
}
