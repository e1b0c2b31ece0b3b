/// Two notifications in a row may not share a sound: a clip equal to the previously emitted name is
/// played from its byte-identical `<name>Copy`, so runs alternate `2, 2Copy, 2`.
public enum CopyRule {
    /// The suffix of a clip's duplicate.
    public static let suffix = "Copy"

    /// Applies the rule, comparing with the previously emitted name (not the previous token).
    public static func apply(_ names: [String]) -> [String] {
        var emitted: [String] = []
        emitted.reserveCapacity(names.count)
        for name in names {
            emitted.append(emitted.last == name ? name + suffix : name)
        }
        return emitted
    }
}
