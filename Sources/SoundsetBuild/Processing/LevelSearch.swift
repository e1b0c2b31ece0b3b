/// Finds the set's level when limiting is what holds it down: a search over levels, one try at a
/// time. The caller tries the level `next` names (finishing the peakiest clips there) and reports the
/// most limiting a clip needed there with `found`, until `next` is nil; `outcome` then holds the level.
///
/// Limiting grows with the level, and faster than it. The first try is the start; if it needs more
/// than `maxReductionDb`, the search steps down by the excess (which lands at or under, since
/// limiting rises at least as fast as the level), then keeps a level over and one under and closes
/// in by false position (Illinois): a few tries.
struct LevelSearch {
    /// How far over the allowed limiting a level may go and still count as within it, dB.
    static let allowedExcess = 0.05
    /// How far under the allowed limiting the search may stop, dB.
    static let allowedShortfall = 0.1

    let maxReductionDb: Double
    /// The level to try now, or nil when the search is over.
    private(set) var next: Double?
    /// Nil while searching, or when the start needed no more than the allowed limiting; else the
    /// level, within `allowedShortfall` dB of limiting below the most allowed, and the clip that held
    /// it down.
    private(set) var outcome: (level: Double, clip: String)?
    private var triesLeft: Int
    private var isFirst = true
    private var clip = ""
    private var high: (level: Double, excess: Double) = (0, 0)
    private var low: (level: Double, excess: Double)?
    /// True when the last try replaced the high end, false when it replaced the low one.
    private var lastMovedHigh: Bool?

    /// A search from `start`, with at most `tries` tries after the first.
    init(from start: Double, maxReductionDb: Double, tries: Int = 8) {
        self.maxReductionDb = maxReductionDb
        next = start
        triesLeft = tries
    }

    /// Reports the try at `next`: the most limiting a clip needed there, and that clip.
    mutating func found(limitingDb: Double, clip worst: String) {
        guard let level = next else { return }
        let excess = limitingDb - maxReductionDb
        if isFirst {
            isFirst = false
            guard excess > Self.allowedExcess else {
                next = nil
                return
            }
            clip = worst
            high = (level, excess)
            next = level - excess
            return
        }
        if excess > Self.allowedExcess {
            high = (level, excess)
            clip = worst
            // Illinois: when one end keeps moving, halve the other's weight so it moves too.
            if lastMovedHigh == true, let current = low { low = (current.level, current.excess / 2) }
            lastMovedHigh = true
        } else {
            low = (level, excess)
            if excess >= -Self.allowedShortfall { return finish(at: level) }
            if lastMovedHigh == false { high.excess /= 2 }
            lastMovedHigh = false
        }
        let step = low.map { $0.level + (high.level - $0.level) * (0 - $0.excess) / (high.excess - $0.excess) } ?? level - excess
        triesLeft -= 1
        // With the tries spent, the last level under stands, or else the one the last step reached.
        if triesLeft == 0 { return finish(at: low?.level ?? step) }
        next = step
    }

    private mutating func finish(at level: Double) {
        outcome = (level, clip)
        next = nil
    }

    /// The whole search, with `limiting(level)` giving the most limiting a clip needs at a level and
    /// that clip.
    static func highest(
        from start: Double, maxReductionDb: Double, tries: Int = 8, limiting: (Double) throws -> (limitingDb: Double, clip: String)
    ) rethrows -> (level: Double, clip: String)? {
        var search = LevelSearch(from: start, maxReductionDb: maxReductionDb, tries: tries)
        while let level = search.next {
            let (limitingDb, clip) = try limiting(level)
            search.found(limitingDb: limitingDb, clip: clip)
        }
        return search.outcome
    }
}
