/// The banner, delivery and pending-notification rules: which plan plays, and how. Pure: the
/// announcer asks it once it has the plans and the queue's pending count.
struct AnnouncementRules {
    let settings: AnnouncementSettings

    /// The announcement with its prefix and suffix, and without.
    struct Plans {
        var full: AnnouncementPlan
        var bare: AnnouncementPlan
    }

    /// What to play, or why nothing can be.
    enum Choice: Equatable {
        case composed(AnnouncementPlan, AnnouncementDecision.Outcome, reason: String?)
        case chain(AnnouncementPlan, reason: String?)
        case refuse(String)
    }

    /// Frames of silence before a composed file's first clip.
    func leadInFrames(rate: Int) -> Int { Int((settings.leadInMs * Double(rate) / 1000).rounded()) }

    /// The choice for `plans` when `pending` chain notifications are still to fire.
    func choose(_ plans: Plans, pending: Int) -> Choice {
        let rate = plans.full.sampleRate
        let composedSeconds = { (plan: AnnouncementPlan) in Double(leadInFrames(rate: rate) + plan.totalFrames) / Double(rate) }
        let banner = settings.bannerSeconds
        let phrases = plans.full.steps.count > plans.bare.steps.count
        let bareOutcome: AnnouncementDecision.Outcome = phrases ? .shortened : .announced
        let bareSeconds = composedSeconds(plans.bare)
        let overBanner = String(format: "the amount alone lasts %.2f s, over the %g s banner", bareSeconds, banner)

        func chain(_ reason: String?) -> Choice {
            let steps = plans.full.steps.count
            guard pending + steps > NotificationSchedule.maxSteps else { return .chain(plans.full, reason: reason) }
            let limit = "a chain of \(steps) would make \(pending + steps) notifications pending, more than iOS keeps (\(NotificationSchedule.maxSteps))"
            guard settings.delivery == .auto else { return .refuse(limit) }
            let cut = bareSeconds <= banner ? "" : "; \(overBanner): the banner will cut it"
            return .composed(plans.bare, bareOutcome, reason: "\(limit): composed instead\(cut)")
        }

        if settings.delivery == .chain { return chain(nil) }
        let fullSeconds = composedSeconds(plans.full)
        if fullSeconds <= banner { return .composed(plans.full, .announced, reason: nil) }
        if phrases && bareSeconds <= banner {
            return .composed(
                plans.bare, .shortened,
                reason: String(format: "without its prefix and suffix to fit the %g s banner (whole, it lasts %.2f s)", banner, fullSeconds))
        }
        if settings.delivery == .auto { return chain("\(overBanner): chained") }
        return .composed(plans.bare, bareOutcome, reason: "\(overBanner): the banner will cut it")
    }
}
