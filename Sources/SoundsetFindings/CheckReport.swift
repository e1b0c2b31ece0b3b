import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// The worst-case announcement the check computed.
public struct CheckBudget: Codable, Sendable, Equatable {
    /// The amount whose announcement lasts longest.
    public var worstAmount: String
    /// How long it lasts, seconds.
    @PrintedTime public var seconds: Double
    /// How many clips it has.
    public var steps: Int
    /// The configured budget, seconds.
    public var limitSeconds: Double
    /// The amount whose announcement has the most clips, and how many.
    public var mostStepsAmount: String
    public var maxSteps: Int
    /// The most notifications iOS keeps pending.
    public var limitSteps: Int
    /// The largest amount searched (the configuration's maxAmount).
    public var maxAmount: String
    /// The longest composed sound, held against the banner.
    public var composed: ComposedBudget

    package init(
        worstAmount: String, seconds: Double, steps: Int, limitSeconds: Double, mostStepsAmount: String, maxSteps: Int, limitSteps: Int,
        maxAmount: String, composed: ComposedBudget
    ) {
        self.worstAmount = worstAmount
        self.seconds = seconds
        self.steps = steps
        self.limitSeconds = limitSeconds
        self.mostStepsAmount = mostStepsAmount
        self.maxSteps = maxSteps
        self.limitSteps = limitSteps
        self.maxAmount = maxAmount
        self.composed = composed
    }
}

/// The longest composed announcement, by the announcer's rules: an announcement longer than the
/// banner plays without its prefix and suffix.
public struct ComposedBudget: Codable, Sendable, Equatable {
    /// How long the longest composed sound lasts, seconds (the lead-in included): the amount's whole
    /// announcement when every amount fits whole, else the longest bare amount's.
    @PrintedTime public var seconds: Double
    /// The amount that plays it.
    public var amount: String
    /// The banner, seconds (`announcement.bannerSeconds`).
    public var limitSeconds: Double
    /// The smallest amount that loses its prefix and suffix to fit, or nil when none does (or the
    /// set has neither).
    public var prefixDroppedFrom: String?
    /// What the prefix and suffix left out say (收款到账), when `prefixDroppedFrom` is set.
    public var dropped: String?

    public init(seconds: Double, amount: String, limitSeconds: Double, prefixDroppedFrom: String?, dropped: String? = nil) {
        self.seconds = seconds
        self.amount = amount
        self.limitSeconds = limitSeconds
        self.prefixDroppedFrom = prefixDroppedFrom
        self.dropped = prefixDroppedFrom == nil ? nil : dropped
    }

}

extension ComposedBudget {
    /// Which amounts lose the prefix and suffix, in words a designer reads once.
    public static func droppedWords(_ smallest: CustomStringConvertible, said: String, banner: Double) -> String {
        String(
            format: "%@ is left out only where the whole announcement would outlast the %g s banner: from %@ up, and not for every amount above it",
            said, banner, smallest.description)
    }
}

/// Everything one run of `soundset check` found.
public struct CheckReport: Codable, Sendable, Equatable {
    /// True when nothing failed.
    public var ok: Bool
    public var problems: [CheckProblem]
    /// The worst case, when the set was complete enough to compute it.
    public var budget: CheckBudget?
    /// Clips checked.
    public var clips: Int
    /// What a designer should know that does not fail the check (two names of one recording).
    public var warnings: [String] = []

    package init(ok: Bool, problems: [CheckProblem], budget: CheckBudget?, clips: Int, warnings: [String] = []) {
        self.ok = ok
        self.problems = problems
        self.budget = budget
        self.clips = clips
        self.warnings = warnings
    }
}
