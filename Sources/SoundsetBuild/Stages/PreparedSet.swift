import SoundsetSetFolder

/// Every recording prepared: decoded, trimmed, resampled and measured now, or its summary as the
/// memo keeps it. Between the stages a clip's samples wait on disk, not here: in the memo's entry,
/// or in the build's scratch folder (`BuildScratch`); they are read again, a few clips at a time,
/// by the stages that finish the clips (`ClipLoader`).
public struct PreparedSet: Sendable {
    /// One clip, with its samples or without.
    public enum Entry: Sendable {
        /// With its samples: a clip prepared without the memo while the build's budget has room
        /// (`PreparedBudget`), one whose samples could be kept nowhere else (the check, which
        /// writes nothing), or one the level search carries from one try to the next.
        case prepared(PreparedClip)
        /// Prepared by this build, its samples kept on disk (the memo's entry, or the scratch folder's).
        case stored(ClipSummary)
        /// The memo's, prepared by an earlier build.
        case remembered(ClipSummary)

        public var summary: ClipSummary {
            switch self {
            case .prepared(let clip): clip.summary
            case .stored(let summary), .remembered(let summary): summary
            }
        }
    }

    public var entries: [Entry]
    public var problems: [BuildProblem]

    /// How many came from the memo.
    public var remembered: Int { entries.filter { if case .remembered = $0 { true } else { false } }.count }
}
