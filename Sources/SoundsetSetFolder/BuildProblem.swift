/// One thing wrong with the input, naming the file or key it concerns and what to do.
public struct BuildProblem: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file or key the problem is about, e.g. `Assets/7.wav` or `Assets/soundset.json: loudness.target`.
    public var subject: String
    /// What is wrong and the fix, lower-case, one line.
    public var message: String

    /// A problem whose text is already said elsewhere (a clip's note, a check's problem, a
    /// failure's own reason): the text as it is. A site that says something of its own says it with
    /// a case of its module's problems (`init(_:_:)` with a `ProblemReason`).
    public init(_ subject: String, _ message: String) {
        self.subject = subject
        self.message = message
    }

    /// The problem `reason` names, about `subject`: its message is the reason's one description.
    public init(_ subject: String, _ reason: some ProblemReason) {
        self.init(subject, reason.message)
    }

    /// A problem said in one sentence that names its files itself (`Assets/7.wav and Assets/8.wav
    /// are the same recording`): its subject is the sentence, its message empty.
    public static func sentence(_ text: String) -> BuildProblem { BuildProblem(text, "") }

    public var description: String { message.isEmpty ? subject : "\(subject): \(message)" }
}

/// What is wrong with a subject, and the fix: one case of the problems a module raises (an enum with
/// an associated value for what varies), each with one message. `BuildProblem` stores the message,
/// so its stored form does not depend on the case.
public protocol ProblemReason: Sendable {
    /// What is wrong and the fix, lower-case, one line.
    var message: String { get }
}

/// Another failure's own text, as it is: for a site that only forwards what an error below it says.
public enum ForwardedProblem: ProblemReason {
    /// The failure's text.
    case failed(String)

    /// `error` as it describes itself.
    public static func error(_ error: any Error) -> ForwardedProblem { .failed("\(error)") }

    public var message: String {
        switch self {
        case .failed(let text): text
        }
    }
}

/// Every problem found in one run; nothing was written.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    public var problems: [BuildProblem]
    /// Things found on the good recordings that do not stop a build (clipping), still worth saying.
    public var warnings: [BuildProblem]
    public init(_ problems: [BuildProblem], warnings: [BuildProblem] = []) {
        self.problems = problems
        self.warnings = warnings
    }
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

extension Result {
    /// The error, for a failure; nil for a success.
    package var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
