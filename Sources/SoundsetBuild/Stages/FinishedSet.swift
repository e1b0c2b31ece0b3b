import SoundsetSetFolder

/// A clip at the set's level: finished now, or finished and encoded now, or the last build's file of
/// it, placed again.
public enum FinishedEntry: Sendable {
    /// Finished, with its samples: a clip the level search tries (a few at each level).
    case made(FinishedClip)
    /// Finished and encoded at once (`ClipFileWriter`), its samples let go: every clip of a round
    /// over the whole set.
    case encoded(EncodedFile)
    case reused(ReusedFile)

    public var summary: ClipSummary {
        switch self {
        case .made(let clip): clip.prepared.summary
        case .encoded(let file): file.summary
        case .reused(let file): file.summary
        }
    }

    /// The limiting the level search goes by: the same whether the clip was finished now or before.
    public var limitingDb: Double {
        switch self {
        case .made(let clip): clip.limitingDb
        case .encoded(let file): file.figures.limitingDb
        case .reused(let file): file.figures.limitingDb
        }
    }

    /// The clip as the next try at another level needs it: with the samples (and the envelope as
    /// refined) when it was finished now and still has them.
    var entry: PreparedSet.Entry {
        switch self {
        case .made(let clip): .prepared(clip.prepared)
        case .encoded(let file): .stored(file.summary)
        case .reused(let file): .remembered(file.summary)
        }
    }
}

/// A clip's file, encoded as soon as the clip was finished: its figures, and where its bytes wait
/// for the commit (the build's scratch folder, or memory when there is none).
public struct EncodedFile: Sendable {
    public var summary: ClipSummary
    public var figures: ClipFigures
    public var content: SoundSetFiles.ClipFile.Content
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
