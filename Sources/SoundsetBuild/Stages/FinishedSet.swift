/// A clip at the set's level: finished now, or the last build's file of it, placed again.
public enum FinishedEntry: Sendable {
    case made(FinishedClip)
    case reused(ReusedFile)

    public var summary: ClipSummary {
        switch self {
        case .made(let clip): clip.prepared.summary
        case .reused(let file): file.summary
        }
    }

    /// The limiting the level search goes by: the same whether the clip was finished now or before.
    public var limitingDb: Double {
        switch self {
        case .made(let clip): clip.limitingDb
        case .reused(let file): file.figures.limitingDb
        }
    }

    /// The clip as the next try at another level needs it: with the samples (and the envelope as
    /// refined) when it was finished now.
    var entry: PreparedSet.Entry {
        switch self {
        case .made(let clip): .prepared(clip.prepared)
        case .reused(let file): .remembered(file.summary)
        }
    }
}

/// Every clip finished at the set's level.
public struct FinishedSet: Sendable {
    public var level: SetLevel
    public var clips: [FinishedEntry]

    /// How many are the last build's files.
    public var reused: Int { clips.filter { if case .reused = $0 { true } else { false } }.count }
}

/// The clips finished at one level, kept so that the same clip at the same level is not finished twice.
struct FinishedRound: Sendable {
    var level: Double
    var clips: [String: FinishedEntry]
}
