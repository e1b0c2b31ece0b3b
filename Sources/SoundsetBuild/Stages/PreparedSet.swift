/// Every recording prepared: decoded, trimmed, resampled and measured now, or its summary as the
/// memo keeps it (the samples are read again only for the clips that must be finished again).
public struct PreparedSet: Sendable {
    /// One clip, with its samples or without.
    public enum Entry: Sendable {
        case prepared(PreparedClip)
        case remembered(ClipSummary)

        public var summary: ClipSummary {
            switch self {
            case .prepared(let clip): clip.summary
            case .remembered(let summary): summary
            }
        }
    }

    public var entries: [Entry]
    public var problems: [BuildProblem]

    /// How many came from the memo.
    public var remembered: Int { entries.filter { if case .remembered = $0 { true } else { false } }.count }
}
