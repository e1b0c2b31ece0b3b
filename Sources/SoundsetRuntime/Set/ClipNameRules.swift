/// What a clip name and a clip's file name may be. Clip names become iOS sound names, and a
/// manifest's file names are joined to a folder, so both are checked wherever they are read.
public enum ClipNameRules {
    /// Longest clip name accepted.
    public static let maxLength = 64

    /// Why `name` cannot be a clip name, or nil when it can: ASCII letters, digits, `_` and `-`,
    /// not starting with `-`, at most 64 characters.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maxLength { return "longer than \(maxLength) characters" }
        if name.hasPrefix("-") { return "it starts with '-' (a name must start with a letter, digit or '_')" }
        let allowed = name.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        if !allowed { return "only ASCII letters, digits, '_' and '-' are allowed" }
        return nil
    }

    /// Whether `name` names a file directly inside a folder: not empty, no `/` or `\`, not `.` or
    /// `..`, not hidden, no NUL, control or invisible formatting character (such as U+202E, which
    /// prints the rest of a line reversed), at most 255 bytes.
    public static func isPlainFileName(_ name: String) -> Bool {
        // Bytes, not `contains("/")`: Foundation's substring search costs more than the rest (a
        // manifest of a thousand clips is checked by every reader, the app's extension included).
        !name.isEmpty && name.utf8.count <= 255 && !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(UInt8(ascii: "\\"))
            && !name.hasPrefix(".") && !name.unicodeScalars.contains(where: isUnprintable)
    }

    /// `text` with control and formatting characters escaped and cut to 200 characters, safe to
    /// print on one line.
    public static func printable(_ text: String) -> String {
        // Nearly every name: short and printable, itself.
        if text.utf8.count <= 200, !text.unicodeScalars.contains(where: isUnprintable) { return text }
        return String(text.unicodeScalars.map { isUnprintable($0) ? $0.escaped(asASCII: true) : String($0) }.joined().prefix(200))
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII, as nearly every name is, without the Unicode tables: its controls are C0 and DEL.
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        return switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
