import Foundation

/// The one loudness every clip of the set is brought to, and why.
public struct SetLevel: Sendable, Equatable {
    /// LUFS.
    public private(set) var level: Double
    /// The configured target, LUFS.
    public let target: Double
    /// The configured true-peak ceiling, dBTP.
    public let ceiling: Double
    /// The configured maximum limiter reduction, dB.
    public let maxReductionDb: Double
    /// The clip that held the level below the target, if one did.
    public private(set) var limitingClip: String?

    /// The target, unless a clip would then need more limiting than allowed: then the highest level
    /// at which every clip's true peak fits under the ceiling with at most `maxReductionDb` of limiting.
    /// - Parameter peakToLoudness: each clip's true peak minus its loudness, dB.
    public static func decide(
        peakToLoudness: [(name: String, value: Double)], target: Double, ceiling: Double, maxReductionDb: Double
    ) -> SetLevel {
        var result = SetLevel(level: target, target: target, ceiling: ceiling, maxReductionDb: maxReductionDb)
        // At level L a clip's true peak lands at L + PLR; the limiter may take up to maxReductionDb of it.
        if let worst = peakToLoudness.max(by: { $0.value < $1.value }), target + worst.value - ceiling > maxReductionDb {
            result.lower(to: ceiling + maxReductionDb - worst.value, because: worst.name)
        }
        return result
    }

    /// Lowers the level because `clip` needed more limiting than allowed at the current one.
    public mutating func lower(to newLevel: Double, because clip: String) {
        guard newLevel < level else { return }
        level = newLevel
        limitingClip = clip
    }

    /// Why the set got its level, for the build output and the manifest.
    public var reason: String {
        guard let clip = limitingClip else {
            return String(
                format: "the target %.1f LUFS: every clip fits under the %.1f dBTP ceiling with at most %.1f dB of limiting",
                target, ceiling, maxReductionDb)
        }
        return String(
            format: "lowered %.1f dB from the target %.1f LUFS: at the target, clip '%@' would need more than %.1f dB of limiting to stay under %.1f dBTP",
            target - level, target, clip, maxReductionDb, ceiling)
    }
}
