/// The set's level, and what deciding it found.
public struct LevelDecision: Sendable {
    public var level: SetLevel
    /// The true peak every clip is limited to, dBTP: the ceiling less the headroom the set's
    /// encoding needs (`QuantizationHeadroom`), so that no file needs finishing again once encoded.
    public var limiterCeilingDb: Double
    /// The limiting each try found, by `BuildRecord.probeKey`, for the memo.
    public var probes: [String: Double]
    /// Tries the memo answered without finishing a clip.
    public var remembered: Int
    /// Every clip finished at `level` (the finish stage takes them as they are), or, while deciding,
    /// the clips finished at the last level tried.
    var lastRound: FinishedRound?
}
