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
        @PrintedTime public var at: Double
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

    /// The push's transaction id, or nil when it carried none (`id` is then the generated key).
    public var transactionID: String? { id == key ? nil : id }

    /// Writes every key, `id`, `sound` and `reason` as null when absent (`id` is the push's
    /// transaction id), so a reader sees the same keys in every decision; times printed to the
    /// millisecond.
    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(transactionID, forKey: .id)
        try values.encode(key, forKey: .key)
        try values.encode(outcome, forKey: .outcome)
        try values.encode(delivery, forKey: .delivery)
        try values.encode(sound, forKey: .sound)
        try values.encode(systemSound, forKey: .systemSound)
        try values.encode(JSONFormatting.time(start, in: encoder), forKey: .start)
        try values.encode(JSONFormatting.time(end, in: encoder), forKey: .end)
        try values.encode(JSONFormatting.time(wait, in: encoder), forKey: .wait)
        try values.encode(notifications, forKey: .notifications)
        try values.encode(clips, forKey: .clips)
        try values.encode(reason, forKey: .reason)
    }
}

// In an extension, so the memberwise initializer stays.
extension AnnouncementDecision {
    /// Reads what `encode` writes: a null `id` is the key's (the push carried no transaction id).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        key = try values.decode(String.self, forKey: .key)
        id = try values.decodeIfPresent(String.self, forKey: .id) ?? key
        outcome = try values.decode(Outcome.self, forKey: .outcome)
        delivery = try values.decode(Delivery.self, forKey: .delivery)
        sound = try values.decodeIfPresent(String.self, forKey: .sound)
        systemSound = try values.decode(Bool.self, forKey: .systemSound)
        start = try values.decode(Double.self, forKey: .start)
        end = try values.decode(Double.self, forKey: .end)
        wait = try values.decode(Double.self, forKey: .wait)
        notifications = try values.decode([Notification].self, forKey: .notifications)
        clips = try values.decode([String].self, forKey: .clips)
        reason = try values.decodeIfPresent(String.self, forKey: .reason)
    }
}
