import SoundsetSetFolder

/// What the preparer and the stages find wrong with a take on its way to a clip file, each case
/// with its one message (what the catalog says of a take's header and audio is `CatalogProblem`).
public enum StageProblem: ProblemReason, Equatable {
    /// The recording's bytes are no longer the ones hashed.
    case changed
    case nonFinite
    /// The finisher failed (`reason`, its text).
    case unfinishable(reason: String)
    /// The encoder refused the clip: why, as a clause of the message.
    case unencodable(clause: String)
    case unmeasurable(reason: String)

    public var message: String {
        switch self {
        case .changed: "changed while the build ran (build again)"
        case .nonFinite: "holds NaN or infinite samples (re-export it as PCM)"
        case .unfinishable(let reason): "cannot be finished: \(reason)"
        case .unencodable(let clause): "cannot be encoded: \(clause)"
        case .unmeasurable(let reason): "cannot be measured after encoding: \(reason)"
        }
    }
}
