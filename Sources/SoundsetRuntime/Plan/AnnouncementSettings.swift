import Foundation

/// How announcements are made: `announcement` in `soundset.json`, recorded in the manifest so the
/// app's extension decides with the same values the check held the set to.
public struct AnnouncementSettings: Codable, Sendable, Equatable {
    /// How an announcement reaches the speaker.
    public enum Delivery: String, Codable, Sendable, CaseIterable {
        /// One composed file, set as the push's own sound (iOS 15 and later show one banner).
        case composed
        /// A chain of local notifications, one clip each.
        case chain
        /// Composed when the bare amount fits the banner, otherwise a chain.
        case auto
    }

    /// How one clip follows the next.
    public enum Join: String, Codable, Sendable, CaseIterable {
        /// Each word's speech starts `gapMs` after the previous word's speech ends; the pads overlap,
        /// mixed with a short equal-power crossfade.
        case speech
        /// Clip after clip, whole, with `gapMs` of silence between them.
        case file

        /// The gap when `gapMs` is not given: 25 ms between words' speech, none between files.
        public var defaultGapMs: Double { self == .speech ? 25 : 0 }
    }

    /// Clip played before the amount, e.g. `received` (收款到账); nil for none.
    public var prefix: String?
    /// Clip played after the amount; nil for none.
    public var suffix: String?
    /// How clips are joined: by their speech (the default) or whole files.
    public var join: Join
    /// Silence between two words' speech (`join` speech) or two files (`join` file), milliseconds.
    public var gapMs: Double
    /// Composed (the default), chain or auto.
    public var delivery: Delivery
    /// How long a push's banner shows, and so how long its sound may play, seconds.
    public var bannerSeconds: Double
    /// Silence between two queued announcements, seconds.
    public var spacingSeconds: Double
    /// The longest a push may wait for the announcements queued before it, seconds.
    public var maxWaitSeconds: Double
    /// How long a transaction id is remembered, so a retried push is announced once, seconds.
    public var dedupeSeconds: Double
    /// Silence before the first clip of a composed file (some Bluetooth speakers swallow the start), ms.
    public var leadInMs: Double
    /// The clip played when an announcement fails; nil means the prefix when the set has it, else
    /// the system's default sound.
    public var fallback: String?
    /// The short sound a push plays in a rush, when the queue has no room left within
    /// `maxWaitSeconds` for its amount; nil means the prefix clip alone.
    public var rushSound: String?

    /// - Parameter gapMs: nil for the join's default.
    public init(
        prefix: String? = nil, suffix: String? = nil, join: Join = .speech, gapMs: Double? = nil, delivery: Delivery = .composed,
        bannerSeconds: Double = 5, spacingSeconds: Double = 0.3, maxWaitSeconds: Double = 20, dedupeSeconds: Double = 600, leadInMs: Double = 0,
        fallback: String? = nil, rushSound: String? = nil
    ) {
        self.prefix = prefix
        self.suffix = suffix
        self.join = join
        self.gapMs = gapMs ?? join.defaultGapMs
        self.delivery = delivery
        self.bannerSeconds = bannerSeconds
        self.spacingSeconds = spacingSeconds
        self.maxWaitSeconds = maxWaitSeconds
        self.dedupeSeconds = dedupeSeconds
        self.leadInMs = leadInMs
        self.fallback = fallback
        self.rushSound = rushSound
    }

    /// A numeric setting: its key, range and unit, in one place for the configuration's reader, the
    /// manifest's validation and the help.
    public struct NumericKey: Sendable {
        public var key: String
        public var range: ClosedRange<Double>
        public var unit: String
        public var meaning: String
        /// The setting's value in `settings`.
        public let value: @Sendable (AnnouncementSettings) -> Double
        /// Sets the setting in `settings`.
        public let set: @Sendable (inout AnnouncementSettings, Double) -> Void
    }

    /// Every numeric key, in the order the documentation lists them.
    public static let numericKeys: [NumericKey] = [
        NumericKey(
            key: "gapMs", range: 0...2000, unit: "ms", meaning: "silence between two words' speech (join speech) or two files (join file, where the default is 0)",
            value: { $0.gapMs }, set: { $0.gapMs = $1 }),
        NumericKey(
            key: "bannerSeconds", range: 1...30, unit: "s", meaning: "how long the banner, and a composed sound, lasts",
            value: { $0.bannerSeconds }, set: { $0.bannerSeconds = $1 }),
        NumericKey(
            key: "spacingSeconds", range: 0...10, unit: "s", meaning: "silence between two queued announcements",
            value: { $0.spacingSeconds }, set: { $0.spacingSeconds = $1 }),
        NumericKey(
            key: "maxWaitSeconds", range: 0...25, unit: "s", meaning: "longest wait in the queue before a push falls back",
            value: { $0.maxWaitSeconds }, set: { $0.maxWaitSeconds = $1 }),
        NumericKey(
            key: "dedupeSeconds", range: 0...86_400, unit: "s", meaning: "how long a transaction id is remembered",
            value: { $0.dedupeSeconds }, set: { $0.dedupeSeconds = $1 }),
        NumericKey(
            key: "leadInMs", range: 0...2000, unit: "ms", meaning: "silence before the first clip of a composed file",
            value: { $0.leadInMs }, set: { $0.leadInMs = $1 }),
    ]

    /// Every key `announcement` accepts.
    public static let keys = ["prefix", "suffix", "join", "delivery", "fallback", "rushSound"] + numericKeys.map(\.key)

    /// The first setting out of its range, as `key: reason`, or nil when all are in range.
    public var problem: String? {
        for key in Self.numericKeys {
            let value = key.value(self)
            if !value.isFinite || !key.range.contains(value) {
                return String(
                    format: "announcement.%@ %g %@ is out of range (%g to %g)", key.key, value, key.unit, key.range.lowerBound, key.range.upperBound)
            }
        }
        for (key, name) in [("prefix", prefix), ("suffix", suffix), ("fallback", fallback), ("rushSound", rushSound)] {
            if let name, let reason = ClipNameRules.problem(with: name) {
                return "announcement.\(key) '\(ClipNameRules.printable(name))' is not a clip name: \(reason)"
            }
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case prefix, suffix, join, gapMs, delivery, bannerSeconds, spacingSeconds, maxWaitSeconds, dedupeSeconds, leadInMs, fallback, rushSound
    }

    /// Keys an older manifest lacks take their defaults, except `join`: a manifest without it was
    /// built before speech joins (and without speech bounds), so its clips join as files.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AnnouncementSettings()
        prefix = try values.decodeIfPresent(String.self, forKey: .prefix)
        suffix = try values.decodeIfPresent(String.self, forKey: .suffix)
        join = try values.decodeIfPresent(Join.self, forKey: .join) ?? .file
        gapMs = try values.decodeIfPresent(Double.self, forKey: .gapMs) ?? join.defaultGapMs
        delivery = try values.decodeIfPresent(Delivery.self, forKey: .delivery) ?? defaults.delivery
        bannerSeconds = try values.decodeIfPresent(Double.self, forKey: .bannerSeconds) ?? defaults.bannerSeconds
        spacingSeconds = try values.decodeIfPresent(Double.self, forKey: .spacingSeconds) ?? defaults.spacingSeconds
        maxWaitSeconds = try values.decodeIfPresent(Double.self, forKey: .maxWaitSeconds) ?? defaults.maxWaitSeconds
        dedupeSeconds = try values.decodeIfPresent(Double.self, forKey: .dedupeSeconds) ?? defaults.dedupeSeconds
        leadInMs = try values.decodeIfPresent(Double.self, forKey: .leadInMs) ?? defaults.leadInMs
        fallback = try values.decodeIfPresent(String.self, forKey: .fallback)
        rushSound = try values.decodeIfPresent(String.self, forKey: .rushSound)
    }
}
