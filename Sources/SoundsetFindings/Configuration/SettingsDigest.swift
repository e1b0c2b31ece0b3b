import Foundation
import SoundsetAudio

/// A canonical, versioned digest of settings: the sha256 of a text that names, one per line and
/// sorted by key, every setting of the sections asked for that is not at its default, after a
/// version line:
///
/// ```
/// soundset-settings 1
/// announcement.prefix="received"
/// tempo=0.85
/// ```
///
/// A key at its default is not part of it, so a setting written out at its default, a new key
/// added to soundset later, or a field added to a settings type never changes the digest: an old
/// set stays fresh. The keys and their values are `ConfigurationKey.all`'s, the table the loader
/// reads by. The version changes only when this text's form does.
enum SettingsDigest {
    static let version = 1

    /// The digest of `configuration`'s settings in `sections`.
    static func of(_ configuration: Configuration, sections: Set<ConfigurationKey.Section>) -> String {
        SHA256.hex(Data(text(of: configuration, sections: sections).utf8))
    }

    /// The canonical text whose sha256 is the digest.
    static func text(of configuration: Configuration, sections: Set<ConfigurationKey.Section>) -> String {
        // The gap's default is its join's (25 ms between words' speech, none between files).
        var defaults = Configuration()
        defaults.announcement.gapMs = configuration.announcement.join.defaultGapMs
        var lines: [String] = []
        for key in ConfigurationKey.all where sections.contains(key.section) {
            let value = key.canonicalValue(of: configuration)
            if value != key.canonicalValue(of: defaults) { lines.append("\(key.path)=\(value)") }
        }
        return (["soundset-settings \(version)"] + lines.sorted()).joined(separator: "\n") + "\n"
    }
}

extension ConfigurationKey {
    /// The key's value in `configuration`, in one canonical form: numbers in their shortest form
    /// (`0.85`, `-16`), strings and names in JSON quotes, lists of names sorted, pattern maps
    /// sorted by pattern, amounts in minor units.
    func canonicalValue(of configuration: Configuration) -> String {
        func quoted(_ text: String) -> String {
            var escaped = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        }
        switch kind {
        case .number(_, _, let field): return Self.format(field.get(configuration))
        case .integer(_, _, _, let field): return String(field.get(configuration))
        case .choice(_, _, let field): return quoted(field.get(configuration))
        case .boolean(let field): return String(field.get(configuration))
        case .clipName(let field): return field.get(configuration).map(quoted) ?? "null"
        case .clipNames(let field): return field.get(configuration).map { "[" + $0.sorted().map(quoted).joined(separator: ",") + "]" } ?? "null"
        case .amount(let field): return String(field.get(configuration))
        case .amounts(_, let field): return field.get(configuration).map { "[" + $0.map(quoted).joined(separator: ",") + "]" } ?? "null"
        case .patternMap(_, _, let field):
            guard let patterns = field.get(configuration) else { return "null" }
            return "{" + patterns.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(Self.format($0.value))" }.joined(separator: ",") + "}"
        }
    }
}
