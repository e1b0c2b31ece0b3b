/// One thing wrong with the input, naming the file or key it concerns and what to do.
public struct BuildProblem: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file or key the problem is about, e.g. `Assets/7.wav` or `Assets/soundset.json: loudness.target`.
    public var subject: String
    /// What is wrong and the fix, lower-case, one line.
    public var message: String

    public init(_ subject: String, _ message: String) {
        self.subject = subject
        self.message = message
    }

    /// A problem said in one sentence that names its files itself (`Assets/7.wav and Assets/8.wav
    /// are the same recording`): its subject is the sentence, its message empty.
    public static func sentence(_ text: String) -> BuildProblem { BuildProblem(text, "") }

    public var description: String { message.isEmpty ? subject : "\(subject): \(message)" }
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
