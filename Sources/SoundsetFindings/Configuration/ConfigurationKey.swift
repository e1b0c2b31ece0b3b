import Foundation
import SoundsetRuntime

/// One key of `soundset.json`: its path, what it holds (type, range, unit), what it means, and the
/// `Configuration` field it sets. `ConfigurationKey.all` is the one table that the loader reads by,
/// that names the known keys in its messages, and that docs/configuration.md's two tables are
/// tested against (`readmeRows(checkOnly:)`).
struct ConfigurationKey: Sendable {
    /// The key's path from the root, e.g. `trim.padMs`.
    let path: String
    /// What the key holds and the field it sets.
    let kind: Kind
    /// What the key changes.
    let section: Section
    /// The meaning line as README shows it, without the range (generated from `kind`).
    let meaning: String
    /// How README shows the default when the field's default is nil, e.g. `none`.
    let unsetDefault: String?

    /// What a key changes, and so which README table lists it.
    enum Section: Sendable {
        /// Shapes Output: part of the configuration hash.
        case build
        /// Only what `soundset report` shows: listed with the build's keys, left out of the hash.
        case report
        /// Only what `soundset check` holds the set to: listed under `soundset check`, left out of the hash.
        case check
    }

    /// What a key holds; each case carries the field it sets.
    enum Kind: Sendable {
        /// A number in `range`, in `unit`.
        case number(ClosedRange<Double>, unit: String, Field<Double>)
        /// A whole number in `range`, in `unit`; `why` explains the range.
        case integer(ClosedRange<Int>, unit: String, why: String, Field<Int>)
        /// One of `allowed`; `refusals` explain values that people try (lower-cased) and that are refused.
        case choice(allowed: [String], refusals: [String: String], Field<String>)
        /// `true` or `false`.
        case boolean(Field<Bool>)
        /// A clip name.
        case clipName(Field<String?>)
        /// An array of clip names.
        case clipNames(Field<[String]?>)
        /// An amount (a string, or a number read from its decimal form), as minor units.
        case amount(Field<Int64>)
        /// An array of at most `maxCount` amount strings.
        case amounts(maxCount: Int, Field<[String]?>)
        /// An object from clip-name patterns (`*`, `?`) to a number in `range`, in `unit`.
        case patternMap(ClosedRange<Double>, unit: String, Field<[String: Double]?>)

        /// One of a string-backed enumeration's cases.
        static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
            _ keyPath: WritableKeyPath<Configuration, Value> & Sendable, refusals: [String: String] = [:]
        ) -> Kind where Value.RawValue == String {
            .choice(
                allowed: Value.allCases.map(\.rawValue), refusals: refusals,
                Field(get: { $0[keyPath: keyPath].rawValue }, set: { $0[keyPath: keyPath] = Value(rawValue: $1)! }))
        }
    }

    /// How a key reads and sets its `Configuration` field.
    struct Field<Value>: Sendable {
        let get: @Sendable (Configuration) -> Value
        let set: @Sendable (inout Configuration, Value) -> Void

        init(get: @escaping @Sendable (Configuration) -> Value, set: @escaping @Sendable (inout Configuration, Value) -> Void) {
            self.get = get
            self.set = set
        }

        init(_ keyPath: WritableKeyPath<Configuration, Value> & Sendable) {
            self.init(get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
        }
    }

    init(_ path: String, _ kind: Kind, _ section: Section, _ meaning: String, unsetDefault: String? = nil) {
        self.path = path
        self.kind = kind
        self.section = section
        self.meaning = meaning
        self.unsetDefault = unsetDefault
    }

    /// The path's parts, e.g. `["trim", "padMs"]`.
    var components: [String] { path.split(separator: ".").map(String.init) }

    /// The keys an object at `parent` accepts, in the table's order: keys and groups of keys.
    static func names(under parent: [String]) -> [String] {
        var names: [String] = []
        for key in all {
            let components = key.components
            guard components.count > parent.count, Array(components.prefix(parent.count)) == parent else { continue }
            let name = components[parent.count]
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The key at exactly `path`, or nil when there is none (an unknown key, or a group of keys).
    static func key(at path: [String]) -> ConfigurationKey? {
        all.first { $0.components == path }
    }

    /// The default as README shows it: the value `Configuration()` holds, in JSON, in backticks.
    var defaultText: String {
        let defaults = Configuration()
        func code(_ text: String) -> String { "`\(text)`" }
        switch kind {
        case .number(_, _, let field): return code(Self.format(field.get(defaults)))
        case .integer(_, _, _, let field): return code(String(field.get(defaults)))
        case .choice(_, _, let field): return code("\"\(field.get(defaults))\"")
        case .boolean(let field): return code(String(field.get(defaults)))
        case .clipName(let field): return field.get(defaults).map { code("\"\($0)\"") } ?? unsetDefault ?? "none"
        case .clipNames(let field):
            return field.get(defaults).map { code("[" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]") } ?? unsetDefault ?? "none"
        case .amount(let field):
            let units = field.get(defaults)
            return code("\"\((try? Amount(minorUnits: units))?.description ?? String(units))\"")
        case .amounts(_, let field):
            return field.get(defaults).map { code("[" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]") } ?? unsetDefault ?? "none"
        case .patternMap(_, _, let field):
            guard let patterns = field.get(defaults) else { return unsetDefault ?? "none" }
            return code("{" + patterns.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \(Self.format($0.value))" }.joined(separator: ", ") + "}")
        }
    }

    /// The range as README shows it after the meaning, e.g. `0 to 500 ms`, or nil for a key without one.
    var rangeText: String? {
        switch kind {
        case .number(let range, let unit, _), .patternMap(let range, let unit, _):
            "\(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))\(unit.isEmpty ? "" : " \(unit)")"
        case .integer(let range, let unit, _, _): "\(range.lowerBound) to \(range.upperBound) \(unit)"
        case .amounts(let maxCount, _): "at most \(maxCount)"
        case .choice, .boolean, .clipName, .clipNames, .amount: nil
        }
    }

    /// The key's row in README: `| key | default | meaning |`.
    var readmeRow: String {
        "| `\(path)` | \(defaultText) | \(meaning)\(rangeText.map { ", \($0)" } ?? "") |"
    }

    /// The rows of docs/configuration.md's configuration table (`checkOnly` false: the build's and the report's
    /// keys) or of its check-only settings table (`checkOnly` true), in the table's order.
    static func readmeRows(checkOnly: Bool) -> [String] {
        all.filter { ($0.section == .check) == checkOnly }.map(\.readmeRow)
    }

    /// A number as messages and README write it: `500`, `-16`, `0.05`, `1e+300` (Swift's shortest
    /// form, without `.0` on whole numbers below 10^16, where it switches to an exponent).
    static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e16 ? String(Int64(number)) : String(number)
    }
}
