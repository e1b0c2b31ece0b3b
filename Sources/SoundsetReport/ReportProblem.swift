import SoundsetSetFolder

/// What keeps the report from being drawn, each case with its one message.
public enum ReportProblem: ProblemReason, Equatable {
    /// The page cannot be drawn (`reason`, the failure's text).
    case undrawable(reason: String)
    /// A clip's file cannot be read or decoded for its drawing and its player.
    case unreadable(reason: String)
    /// A clip whose drawing the build did not keep, and whose recording's envelope it did not hand over.
    case noDrawing
    /// A clip the findings do not know.
    case noFindings

    public var message: String {
        switch self {
        case .undrawable(let reason): "cannot be drawn for the report (\(reason))"
        case .unreadable(let reason): "cannot be read for the report (\(reason))"
        case .noDrawing: "has no drawing and no recording's envelope to draw it from"
        case .noFindings: "has no findings (build again)"
        }
    }
}
