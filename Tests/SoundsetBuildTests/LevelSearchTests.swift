import Testing

@testable import SoundsetBuild

@Suite struct LevelSearchTests {
    /// Limiting that grows faster than the level (as make-up gain makes it), with a knee.
    static func limiting(_ level: Double) -> Double { level < -22 ? 0 : 0.9 * (level + 22) + 0.08 * (level + 22) * (level + 22) }

    @Test func findsTheHighestLevelWithinTheAllowedLimiting() throws {
        var tried: [Double] = []
        let found = LevelSearch.highest(from: -14, maxReductionDb: 6) { level in
            tried.append(level)
            return (Self.limiting(level), "9")
        }
        let (level, clip) = try #require(found)
        #expect(clip == "9")
        #expect(Self.limiting(level) <= 6 + LevelSearch.allowedExcess)
        #expect(Self.limiting(level) >= 6 - LevelSearch.allowedShortfall)
        #expect(tried.count <= 6, "tries: \(tried)")
    }

    @Test func keepsAStartThatIsWithinTheLimit() throws {
        let found = LevelSearch.highest(from: -18, maxReductionDb: 6) { (Self.limiting($0), "9") }
        #expect(found == nil)
    }
}
