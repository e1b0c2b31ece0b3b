import Foundation
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// What the freshness check finds stale (`Checker.freshness`), each case with its one message.
/// `rebuild` is the command that builds the set again.
public enum FreshnessProblem: ProblemReason, Equatable {
    /// The set was built by soundset `version`, not this one.
    case tool(version: String, rebuild: String)
    /// `soundset.json`, or a recording, changed since the last build.
    case changed(rebuild: String)
    case added(rebuild: String)
    case removed(rebuild: String)
    /// A recording that cannot be read, for `reason` when known.
    case unreadable(reason: String?)

    public var message: String {
        switch self {
        case .tool(let version, let rebuild): "built by soundset \(ClipName.printable(version)), this is \(ToolVersion.current): run \(rebuild)"
        case .changed(let rebuild): "changed since the last build: run \(rebuild)"
        case .added(let rebuild): "was added since the last build: run \(rebuild)"
        case .removed(let rebuild): "was removed since the last build: run \(rebuild)"
        case .unreadable(let reason): reason ?? "cannot be read"
        }
    }
}

/// What the checks of a manifest and its settings find (`Checker.setCheck`: durations, format,
/// completeness, the manifest's size), each case with its one message.
public enum SetCheckProblem: ProblemReason, Equatable {
    /// A `limits.maxSeconds` pattern that names no clip; `clips` is the command that lists them.
    case patternMatchesNothing(pattern: String, clips: String)
    /// A clip of `seconds`, which iOS does not play as a notification sound.
    case tooLongForIOS(seconds: Double)
    /// A clip over the limit of `limit` seconds the pattern `pattern` sets.
    case overLimit(seconds: Double, limit: Double, pattern: String)
    case underMinimum(seconds: Double, minimum: Double)
    /// A manifest of `size` bytes for `clips` clips, more than an extension reads.
    case manifestTooLarge(size: Int, clips: Int)
    case notMono(channels: Int, rebuild: String)
    case sampleRateOutOfRange(sampleRate: Int, rebuild: String)
    /// Clips the locale's reading needs; `record` says how to record them, `nearMisses` the takes
    /// that look like them (each after "; ").
    case missingClips(locale: String, missing: [String], record: String, rebuild: String, nearMisses: String)
    case missingCopies(clips: [String], rebuild: String)

    public var message: String {
        switch self {
        case .patternMatchesNothing(let pattern, let clips):
            "limits.maxSeconds: '\(ClipName.printable(pattern))' matches no clip of the set: correct it (\(clips) lists the names)"
        case .tooLongForIOS(let seconds): String(format: "lasts %.3f s; iOS plays the default sound for 30 s or more", seconds)
        case .overLimit(let seconds, let limit, let pattern):
            String(
                format: "lasts %.3f s, over the %g s limit for %@: re-record it as one word or raise limits.maxSeconds", seconds, limit, "'\(pattern)'")
        case .underMinimum(let seconds, let minimum):
            String(format: "lasts %.3f s, under the %g s minimum: re-record it or lower limits.minSeconds", seconds, minimum)
        case .manifestTooLarge(let size, let clips):
            "is \(size) bytes for \(clips) clips, more than the \(Manifest.maxBytes) an app's extension can afford to read:"
                + " split the set into sets of fewer clips (about 450 fit)"
        case .notMono(let channels, let rebuild): "\(channels) channels; notification sounds are built mono: run \(rebuild)"
        case .sampleRateOutOfRange(let sampleRate, let rebuild): "\(sampleRate) Hz is outside 8000-48000 Hz: set sampleRate and run \(rebuild)"
        case .missingClips(let locale, let missing, let record, let rebuild, let nearMisses):
            "the \(locale) reading needs clips the set lacks: \(missing.joined(separator: ", ")) (\(record) and run \(rebuild))" + nearMisses
        case .missingCopies(let clips, let rebuild):
            "these clips can follow themselves but have no copy: \(clips.joined(separator: ", ")) (add them to copies in soundset.json and run \(rebuild))"
        }
    }
}

/// What the budget check finds (`Checker.worstCase`, `Checker.composedBudget`), each case with its
/// one message.
public enum BudgetProblem: ProblemReason, Equatable {
    /// The longest announcement (`amount`, `seconds` in `steps` steps) is over the `limit` s budget.
    case overBudget(amount: String, seconds: Double, steps: Int, limit: Double)
    /// The announcement of `amount` needs `steps` notifications, more than iOS keeps (`most`).
    case tooManySteps(amount: String, steps: Int, most: Int)
    /// A composed announcement the banner cuts, in figures of a set built with another
    /// `soundset.json`: no advice from them but to build again.
    case bannerCutStale(BannerCut, rebuild: String)
    /// A composed announcement the banner cuts, with the advice: its longest word, the tempo that
    /// fits, and the amounts that lose the prefix and suffix (`dropped`, as `droppedWords` says it).
    case bannerCut(BannerCut, longestWord: Word?, tempo: TempoAdvice, dropped: String?)

    /// The longest composed announcement, bare, that the banner cuts off.
    public struct BannerCut: Sendable, Equatable {
        public var amount: String
        public var seconds: Double
        /// The prefix and suffix it is said without, when the set has them.
        public var without: String?
        public var banner: Double

        public init(amount: String, seconds: Double, without: String?, banner: Double) {
            self.amount = amount
            self.seconds = seconds
            self.without = without
            self.banner = banner
        }
    }

    /// A word of an announcement and how long its clip lasts.
    public struct Word: Sendable, Equatable {
        public var name: String
        public var seconds: Double

        public init(name: String, seconds: Double) {
            self.name = name
            self.seconds = seconds
        }
    }

    /// Which tempo would fit the banner, for a set built at `builtAt`.
    public enum TempoAdvice: Sendable, Equatable {
        /// At `tempo` the longest bare announcement, `amount`, lasts `seconds`.
        case fits(tempo: Double, builtAt: Double, amount: String, seconds: Double)
        /// At the `lowest` tempo the longest lasts `seconds`, still over the banner.
        case noneFits(lowest: Double, builtAt: Double, seconds: Double)
        /// The set is at the lowest tempo already.
        case none
    }

    public var message: String {
        switch self {
        case .overBudget(let amount, let seconds, let steps, let limit):
            String(
                format:
                    "the longest announcement, %@, lasts %.3f s in %d steps, over the %g s budget: shorten the clips, lower maxAmount or raise maxAnnouncementSeconds",
                amount, seconds, steps, limit)
        case .tooManySteps(let amount, let steps, let most): "the announcement of \(amount) needs \(steps) notifications; iOS keeps at most \(most) pending"
        case .bannerCutStale(let cut, let rebuild):
            cut.text + ": these are the figures of the set as last built, with another soundset.json: run \(rebuild), then check again"
        case .bannerCut(let cut, let word, let tempo, let dropped):
            cut.text + tempo.noFit + ": record faster takes" + (word.map { String(format: " (its longest word is %@, %.3f s)", $0.name, $0.seconds) } ?? "")
                + ", \(tempo.advice)set announcement.delivery to auto (a chain when the banner is too short), or lower maxAmount"
                + (dropped.map { "; \($0)" } ?? "")
        }
    }
}

extension BudgetProblem.BannerCut {
    fileprivate var text: String {
        String(
            format: "the composed announcement of %@ lasts %.3f s%@, over the %g s banner, which cuts it off", amount, seconds,
            without.map { " even without \($0)" } ?? "", banner)
    }
}

extension BudgetProblem.TempoAdvice {
    /// What is said when no tempo fits, before the advice.
    fileprivate var noFit: String {
        guard case .noneFits(let lowest, let built, let seconds) = self else { return "" }
        return String(format: "; no tempo down to %g fits (the set is at %g; at %g it would last %.3f s)", lowest, built, lowest, seconds)
    }

    /// The advice of a tempo that fits, as the start of the list of fixes.
    fileprivate var advice: String {
        guard case .fits(let tempo, let built, let amount, let seconds) = self else { return "" }
        return String(format: "set tempo to %.2f or lower (the set is at %g; at %.2f the longest, %@, lasts %.3f s), ", tempo, built, tempo, amount, seconds)
    }
}
