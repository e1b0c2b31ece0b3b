/// What the extension does with one push: the announcer's answer, tested here and carried out by
/// the extension's few lines (see `ExtensionFlow`).
public struct AnnouncementDecision: Codable, Sendable, Equatable {
    /// What became of the push.
    public enum Outcome: String, Codable, Sendable {
        /// Announced whole.
        case announced
        /// Announced without its prefix and suffix, to fit the banner.
        case shortened
        /// Not announced; `sound` (or the system's sound, or none) says what plays instead, `reason` why.
        case fallback
        /// The same transaction was announced within `dedupeSeconds`; nothing plays.
        case duplicate
    }

    /// How the announcement plays.
    public enum Delivery: String, Codable, Sendable {
        /// One composed file, `sound`, set as the push's sound.
        case composed
        /// A chain of local notifications, `notifications`.
        case chain
        /// Nothing is announced.
        case none
    }

    /// One local notification of a chain.
    public struct Notification: Codable, Sendable, Equatable {
        /// Unique to the announcement and the step: `<announcement key>.<step>`.
        public var identifier: String
        /// The installed sound file it plays.
        public var sound: String
        /// When it fires, on the announcer's clock (seconds).
        public var at: Double
    }

    /// The transaction id, or a generated one when the push carried none.
    public var id: String
    /// Unique to this announcement, whatever the push: its composed file and its notifications'
    /// identifiers carry it.
    public var key: String
    public var outcome: Outcome
    public var delivery: Delivery
    /// The file in the group's `Library/Sounds` that the push plays (`UNNotificationSound(named:)`),
    /// or nil: then `systemSound` says whether to play the system's default sound, and otherwise the
    /// push keeps the sound it came with (composed and fallback pushes) or plays none (chain,
    /// duplicate).
    public var sound: String?
    /// Play the system's default sound (a failure in a set with no fallback clip).
    public var systemSound: Bool
    /// When the announcement starts and ends playing, on the announcer's clock (seconds).
    public var start: Double
    public var end: Double
    /// How long the extension waits before it hands over the content: `start` minus the arrival.
    public var wait: Double
    /// The chain's notifications (empty for other deliveries).
    public var notifications: [Notification]
    /// The clips the announcement plays, in order (after the Copy rule).
    public var clips: [String]
    /// Why the outcome is not `announced`, or what else happened (a replaced queue state).
    public var reason: String?
    /// `reason` with the amount and the transaction id masked (`<amount>`, `<transaction id>`): what
    /// the extension logs as public. Not part of the decision's JSON.
    public var maskedReason: String? = nil

    private enum CodingKeys: String, CodingKey {
        case id, key, outcome, delivery, sound, systemSound, start, end, wait, notifications, clips, reason
    }

    /// Writes every key, `sound` and `reason` as null when absent, so a reader sees the same keys
    /// in every decision.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(key, forKey: .key)
        try values.encode(outcome, forKey: .outcome)
        try values.encode(delivery, forKey: .delivery)
        try values.encode(sound, forKey: .sound)
        try values.encode(systemSound, forKey: .systemSound)
        try values.encode(start, forKey: .start)
        try values.encode(end, forKey: .end)
        try values.encode(wait, forKey: .wait)
        try values.encode(notifications, forKey: .notifications)
        try values.encode(clips, forKey: .clips)
        try values.encode(reason, forKey: .reason)
    }
}
