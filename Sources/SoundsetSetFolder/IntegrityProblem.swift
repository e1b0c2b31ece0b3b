/// What the integrity check finds wrong with a set's files (`SetIntegrity`, and the check of a
/// set's folder), each case with its one message. `rebuild` is the command that builds the set
/// again, said as the fix when given (a build checking its staged set has none to give).
public enum IntegrityProblem: ProblemReason, Equatable {
    /// A file of the set that is a symbolic link (`problem`, as `SetLink` says it).
    case link(problem: String, rebuild: String?)
    case missing(rebuild: String?)
    /// A clip file that cannot be read, for `reason`.
    case unreadable(reason: String, rebuild: String?)
    /// A copy whose bytes are not those of `original` as built.
    case copyDiffers(original: String, rebuild: String?)
    case shaDiffers(rebuild: String?)
    case undecodable(rebuild: String?)
    /// The file's header and the manifest disagree: each difference in words.
    case disagrees(differences: [String], rebuild: String?)
    /// A file in `Sounds` the manifest does not list.
    case unlisted

    public var message: String {
        switch self {
        case .link(let problem, let rebuild): "\(problem)\(rebuild.map { ": run \($0), which replaces the link" } ?? "")"
        case .missing(let rebuild): "missing\(Self.fix(rebuild))"
        case .unreadable(let reason, let rebuild): "\(reason)\(Self.fix(rebuild))"
        case .copyDiffers(let original, let rebuild): "is not byte-identical to \(original) as built\(Self.fix(rebuild))"
        case .shaDiffers(let rebuild): "its sha256 differs from the manifest's (damaged or edited by hand)\(Self.fix(rebuild))"
        case .undecodable(let rebuild): "cannot be decoded\(Self.fix(rebuild))"
        case .disagrees(let differences, let rebuild): "the file and the manifest disagree (\(differences.joined(separator: "; ")))\(Self.fix(rebuild))"
        case .unlisted: "is not listed in the manifest, so soundset did not write it: move it out (the build replaces the folder whole)"
        }
    }

    private static func fix(_ rebuild: String?) -> String { rebuild.map { ": run \($0)" } ?? "" }
}
