import SoundsetRuntime

/// Rules for clip names, which become iOS sound file names.
public enum ClipName {
    /// The suffix of a clip's byte-identical duplicate: the runtime's Copy rule decides it.
    public static let copySuffix = CopyRule.suffix
    /// Longest clip name accepted.
    public static let maxLength = ClipNameRules.maxLength

    /// Why `name` cannot be a clip name, or nil when it can (the runtime's rule, which the manifest's
    /// reader applies too).
    public static func problem(with name: String) -> String? { ClipNameRules.problem(with: name) }

    /// The name with control and non-printable characters escaped, safe to print in one line.
    public static func printable(_ name: String) -> String { ClipNameRules.printable(name) }
}

/// Clip-name patterns for limits: `*` matches any run of characters, `?` one character.
public enum ClipPattern {
    public static func matches(_ pattern: String, _ name: String) -> Bool {
        let p = Array(pattern), n = Array(name)
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (n.count + 1) + j
            if let known = memo[key] { return known }
            let result: Bool
            if i == p.count {
                result = j == n.count
            } else if p[i] == "*" {
                result = match(i + 1, j) || (j < n.count && match(i, j + 1))
            } else {
                result = j < n.count && (p[i] == "?" || p[i] == n[j]) && match(i + 1, j + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }

    /// Characters that are not wildcards: how specific the pattern is.
    public static func literalCount(_ pattern: String) -> Int { pattern.filter { $0 != "*" && $0 != "?" }.count }
}
