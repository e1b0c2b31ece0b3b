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

    /// A problem whose text is already said elsewhere (a build's problem, a configuration's): the
    /// text as it is. A check that says something of its own says it with a case of its module's
    /// problems (`init(_:_:_:)` with a `ProblemReason`).
    public init(_ check: Kind, _ subject: String, _ message: String) {
        self.check = check
        self.subject = subject
        self.message = message
    }

    /// The problem `reason` names, found by `check` about `subject`: its message is the reason's
    /// one description, so `check --format json` writes the same bytes whatever the case.
    public init(_ check: Kind, _ subject: String, _ reason: some ProblemReason) {
        self.init(check, subject, reason.message)
    }

    public var description: String { "[\(check.rawValue)] \(subject): \(message)" }
}
