/// One thing `soundset check` found wrong.
public struct CheckProblem: Codable, Sendable, Equatable, CustomStringConvertible {
    /// Which check found a problem. Its raw value is what `check --format json` writes as `check`
    /// and what the text output shows in brackets: a public contract, so the strings never change.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case configuration, integrity, freshness, durations, format, completeness, budget
        /// The report beside the set (`Output.report.html`) is another set's.
        case report
    }

    /// Which check.
    public var check: Kind
    /// The file (or key) it is about, e.g. `Assets/7.wav`.
    public var subject: String
    /// What is wrong and the fix.
    public var message: String

    public init(_ check: Kind, _ subject: String, _ message: String) {
        self.check = check
        self.subject = subject
        self.message = message
    }

    public var description: String { "[\(check.rawValue)] \(subject): \(message)" }
}
