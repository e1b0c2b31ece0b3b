/// The set's level, and what deciding it found.
public struct LevelDecision: Sendable {
    public var level: SetLevel
    /// The limiting each try found, by `BuildRecord.probeKey`, for the memo.
    public var probes: [String: Double]
    /// Tries the memo answered without finishing a clip.
    public var remembered: Int
    /// The clips finished at the last level tried: the finish stage need not finish them again.
    var lastRound: FinishedRound?
}
