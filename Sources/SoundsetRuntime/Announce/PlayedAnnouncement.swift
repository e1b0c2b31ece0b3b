import Foundation

/// What the phone plays for one amount: the set's plans with the announcer's rules applied (the
/// banner drops the prefix and suffix, the lead-in, the delivery). The announcer decides with it,
/// and `soundset plan`, `render` and the report's samples show it, so what a designer previews is
/// what the phone plays. Pure: it reads no file.
public struct PlayedAnnouncement: Sendable, Equatable {
    /// The clips that play, with their timing (without the lead-in).
    public var plan: AnnouncementPlan
    /// The announcement as composed without the rules: with its prefix and suffix, no lead-in.
    public var whole: AnnouncementPlan
    /// `composed` (one file, the push's sound) or `chain` (one notification per clip).
    public var delivery: AnnouncementDecision.Delivery
    /// `announced`, or `shortened` when the prefix or suffix was dropped.
    public var outcome: AnnouncementDecision.Outcome
    /// Frames of silence before the first clip of a composed file (`announcement.leadInMs`); 0 for a chain.
    public var leadInFrames: Int
    /// The announcer's reason, as its decision carries it, or nil when the whole plays as composed.
    public var reason: String?
    /// One line for a person saying how what plays differs from the whole ("played without 收款到账:
    /// whole it lasts 5.93 s, over the 5 s banner"), or nil when it plays as composed.
    public var note: String?

    /// How long it plays, frames: a composed file's lead-in and clips; for a chain, its clips as
    /// composed (`NotificationSchedule` may start a clip later, after the previous one's speech).
    public var frames: Int { leadInFrames + plan.totalFrames }

    /// How long it plays, seconds.
    public var seconds: Double { Double(frames) / Double(max(1, plan.sampleRate)) }

    /// Why an amount plays nothing of its own.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The set cannot plan it (a clip it lacks, a manifest out of range).
        case plan(PlanError)
        /// No delivery is left: a chain would pass the 64 pending notifications and `delivery` is
        /// `chain` (the reason says so).
        case refused(String)

        public var description: String {
            switch self {
            case .plan(let error): error.description
            case .refused(let reason): reason
            }
        }
    }

    /// What plays for `amount` with `manifest`'s set: the one rule the announcer and every preview use.
    /// - Parameters:
    ///   - settings: the announcement's settings; defaults to the manifest's.
    ///   - locale, reading: default to the manifest's.
    ///   - whole: skip the rules: the whole announcement, composed, with no lead-in (`--whole`).
    ///   - pending: notifications of queued chains still to fire (the announcer's queue; 0 for a preview).
    /// - Throws: `Failure`.
    public static func of(
        _ amount: Amount, manifest: Manifest, settings: AnnouncementSettings? = nil, locale: SpeechLocale? = nil, reading: ReadingOptions? = nil,
        whole: Bool = false, pending: Int = 0
    ) throws(Failure) -> PlayedAnnouncement {
        let settings = settings ?? manifest.announcement ?? AnnouncementSettings()
        let plans = try Self.plans(amount, manifest: manifest, settings: settings, locale: locale, reading: reading, whole: whole)
        if whole {
            return PlayedAnnouncement(
                plan: plans.full, whole: plans.full, delivery: .composed, outcome: .announced, leadInFrames: 0, reason: nil, note: nil)
        }
        return try choosing(plans, settings: settings, pending: pending)
    }

    /// The plans the rules choose from: the announcement with its prefix and suffix, and without
    /// (made only when the rules may ask for it). The announcer makes them before it takes the
    /// group's lock, and chooses under it, when it knows the pending notifications.
    static func plans(
        _ amount: Amount, manifest: Manifest, settings: AnnouncementSettings, locale: SpeechLocale? = nil, reading: ReadingOptions? = nil,
        whole: Bool = false
    ) throws(Failure) -> AnnouncementRules.Plans {
        var bareSettings = settings
        bareSettings.prefix = nil
        bareSettings.suffix = nil
        let planner = Planner(manifest: manifest)
        do {
            let full = try planner.plan(amount, locale: locale, reading: reading, announcement: settings)
            let bare =
                whole || (settings.prefix == nil && settings.suffix == nil)
                ? full : try planner.plan(amount, locale: locale, reading: reading, announcement: bareSettings)
            return AnnouncementRules.Plans(full: full, bare: bare)
        } catch {
            throw .plan(error)
        }
    }

    /// What plays of `plans` under the banner, delivery and pending-notification rules.
    static func choosing(_ plans: AnnouncementRules.Plans, settings: AnnouncementSettings, pending: Int) throws(Failure) -> PlayedAnnouncement {
        let rules = AnnouncementRules(settings: settings)
        let leadIn = rules.leadInFrames(rate: plans.full.sampleRate)
        var played: PlayedAnnouncement
        switch rules.choose(plans, pending: pending) {
        case .refuse(let why): throw .refused(why)
        case .composed(let plan, let outcome, let reason):
            played = PlayedAnnouncement(
                plan: plan, whole: plans.full, delivery: .composed, outcome: outcome, leadInFrames: leadIn, reason: reason, note: nil)
        case .chain(let plan, let reason):
            played = PlayedAnnouncement(
                plan: plan, whole: plans.full, delivery: .chain, outcome: .announced, leadInFrames: 0, reason: reason, note: nil)
        }
        played.note = played.describe(plans, settings: settings)
        return played
    }

    /// This announcement as a push waiting behind another plays it (a rush): the amount alone,
    /// composed or chained as chosen, with no lead-in (what plays just before it has woken the
    /// speaker). Unchanged when it is already that.
    func rushed(_ plans: AnnouncementRules.Plans, settings: AnnouncementSettings) -> PlayedAnnouncement {
        guard plan.steps.count > plans.bare.steps.count || leadInFrames > 0 else { return self }
        var rushed = self
        rushed.plan = plans.bare
        rushed.leadInFrames = 0
        rushed.outcome = plans.full.steps.count > plans.bare.steps.count ? .shortened : .announced
        rushed.reason = "the amount alone, with no prefix, suffix or lead-in: a rush (it waits behind another announcement)"
        rushed.note = rushed.describe(plans, settings: settings)
        return rushed
    }

    /// The one line for a person: what was dropped, what the banner does, and the lead-in.
    private func describe(_ plans: AnnouncementRules.Plans, settings: AnnouncementSettings) -> String? {
        let rate = Double(max(1, whole.sampleRate))
        let banner = String(format: "the %g s banner", settings.bannerSeconds)
        var parts: [String] = []
        switch delivery {
        case .chain:
            let why =
                settings.delivery == .chain
                ? " (announcement.delivery is chain)"
                : String(format: ": the amount alone lasts %.2f s, over %@", Double(leadInFrames + plans.bare.totalFrames) / rate, banner)
            parts.append("played as a chain of \(plan.steps.count) notifications\(why)")
        case .composed, .none:
            let dropped = plan.steps.count < whole.steps.count
            let without = "played without \(ClipGuide.of(whole.locale).saying([settings.prefix, settings.suffix].compactMap { $0 }))"
            if seconds > settings.bannerSeconds {
                let cut = String(format: "%@ cuts it off: it lasts %.2f s", banner, seconds)
                parts.append(dropped ? "\(without), and \(cut)" : cut)
            } else if dropped {
                parts.append(without + String(format: ": whole it lasts %.2f s, over %@", Double(leadInFrames + whole.totalFrames) / rate, banner))
            }
            if leadInFrames > 0 {
                let silence = String(format: "%.0f ms of silence first (announcement.leadInMs)", Double(leadInFrames) / rate * 1000)
                parts.append(parts.isEmpty ? "played with \(silence)" : "with \(silence)")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The sound file of what plays: the lead-in and the clips, each read from `soundsFolder` and
    /// checked against `manifest` (`Composer`), in `container` (the set's own when nil; another is
    /// the same samples, `SoundData.convert`). A chain's clips are joined as its plan places them.
    /// - Throws: `ComposeError` naming the clip that is missing or stale.
    public func sound(manifest: Manifest, soundsFolder: URL, container: Container? = nil) throws(ComposeError) -> Data {
        let data = try Composer.compose(plan, manifest: manifest, soundsFolder: soundsFolder, leadInFrames: leadInFrames)
        guard let container, container != manifest.container else { return data }
        return try SoundData.convert(data, to: container, name: "the composed \(plan.amount)")
    }
}

/// As `soundset plan --format json` and `soundset serve`'s `/v1/plan` print it: the plan's keys,
/// then what the rules made of it: `delivery`, `outcome`, `leadInFrames`, `seconds` (what plays,
/// the lead-in included) and `note` (null when it plays as composed).
extension PlayedAnnouncement: Encodable {
    private enum Keys: String, CodingKey { case delivery, outcome, leadInFrames, seconds, note }

    public func encode(to encoder: any Encoder) throws {
        try plan.encode(to: encoder)
        var values = encoder.container(keyedBy: Keys.self)
        try values.encode(delivery.rawValue, forKey: .delivery)
        try values.encode(outcome.rawValue, forKey: .outcome)
        try values.encode(leadInFrames, forKey: .leadInFrames)
        try values.encode(JSONFormatting.time(seconds, in: encoder), forKey: .seconds)
        try values.encode(note, forKey: .note)
    }
}
