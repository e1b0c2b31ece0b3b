/// Rules for clip names, which become iOS sound file names.
public enum ClipName {
    /// The suffix of a clip's byte-identical duplicate.
    public static let copySuffix = "Copy"
    /// Longest clip name accepted.
    public static let maxLength = 64

    /// Why `name` cannot be a clip name, or nil when it can.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.utf8.count > maxLength { return "longer than \(maxLength) characters" }
        if name.hasPrefix("-") { return "it starts with '-' (a name must start with a letter, digit or '_')" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        if !allowed { return "only ASCII letters, digits, '_' and '-' are allowed" }
        return nil
    }

    /// The name with control and non-printable characters escaped, safe to print in one line.
    public static func printable(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar -> String in
            scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined().prefix(200))
    }
}
