/// Finds the set's level when limiting is what holds it down.
enum LevelSearch {
    /// How far over the allowed limiting a level may go and still count as within it, dB.
    static let over = 0.05
    /// How far under the allowed limiting the search may stop, dB.
    static let under = 0.1

    /// The highest level, at or below `start`, at which `limiting(level)` (the most limiting any clip
    /// needs there, and that clip) is at most `maxReductionDb`: nil when `start` already is; else the
    /// level, within `under` dB of limiting below the most allowed, and the clip that held it down.
    /// Limiting grows with the level, so the search keeps a level over and one under and closes in
    /// by false position (Illinois), which takes a few tries.
    static func highest(
        from start: Double, maxReductionDb: Double, tries: Int = 8,
        limiting: (Double) async throws -> (limitingDb: Double, clip: String)
    ) async throws -> (level: Double, clip: String)? {
        var level = start
        let first = try await limiting(level)
        guard first.limitingDb - maxReductionDb > over else { return nil }
        var clip = first.clip
        var high = (level: level, excess: first.limitingDb - maxReductionDb)
        var low: (level: Double, excess: Double)?
        var lastMoved: Bool?  // true when the last try replaced the high end
        // Limiting rises at least as fast as the level: stepping down by the excess lands at or under.
        level -= high.excess
        for _ in 0..<tries {
            let (measured, worst) = try await limiting(level)
            let excess = measured - maxReductionDb
            if excess > over {
                high = (level, excess)
                clip = worst
                // Illinois: when one end keeps moving, halve the other's weight so it moves too.
                if lastMoved == true, let current = low { low = (current.level, current.excess / 2) }
                lastMoved = true
            } else {
                low = (level, excess)
                if excess >= -under { break }
                if lastMoved == false { high.excess /= 2 }
                lastMoved = false
            }
            guard let low else {
                level -= excess
                continue
            }
            level = low.level + (high.level - low.level) * (0 - low.excess) / (high.excess - low.excess)
        }
        return (low?.level ?? level, clip)
    }
}
