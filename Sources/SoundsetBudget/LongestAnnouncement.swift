import SoundsetRuntime

/// The announcement that lasts longest (or has the most steps) among all amounts from 0 to a maximum.
public struct WorstCase: Sendable, Equatable {
    /// The amount.
    public var amount: Amount
    /// Its length in frames, as `Timeline` places its clips.
    public var frames: Int
    /// Its number of clips (notifications).
    public var steps: Int
}

/// Finds the worst case exactly, without trying every amount.
///
/// An announcement lasts `Σ (speech + gap) - gap + first.lead + last.tail` frames (`Timeline`): a
/// sum over its clips, and the pads of its two ends. A reading is the whole part's clips followed by
/// the fraction's, and with a whole part of 1 or more the fraction's clips do not depend on it. The
/// longest reading is therefore the best of: amounts below 1 (at most 100, tried one by one); the
/// longest whole part below the maximum's whole part with the longest fraction; and the maximum's
/// whole part with the longest fraction it allows. The first clip is the prefix, or the whole
/// part's first; the last is the suffix, or the fraction's last, or, when the fraction says
/// nothing, the whole part's last, so that case is searched on its own. The longest whole part
/// comes from a search over its digits (three-digit groups for en-US) that walks the same reading
/// machine the library reads with, remembering each (position, state, bound) once: a few thousand
/// steps for any maximum below 10^12.
public enum LongestAnnouncement {
    /// What is maximised: the length, or the number of clips.
    public enum Objective: Sendable { case duration, steps }

    /// Searches every amount from 0 to `maximum` read in `locale` with `reading`, between `prefix` and `suffix`.
    /// - Parameters:
    ///   - variants: the optional clips the set has (`SpeechLocale.optionalClipNames`).
    ///   - timings: each clip's timing (a copy has its original's); clips the set lacks count as empty.
    ///   - gapFrames: the gap between two clips (`Timeline`).
    public static func search(
        upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions = ReadingOptions(), variants: Set<String> = [],
        prefix: String? = nil, suffix: String? = nil, timings: [String: ClipTiming], gapFrames: Int, objective: Objective
    ) -> WorstCase {
        search(
            upTo: maximum, locale: locale.reading, reading: reading, variants: variants, prefix: prefix, suffix: suffix, timings: timings,
            gapFrames: gapFrames, objective: objective)
    }

    /// `search` in any `LocaleReading`.
    package static func search(
        upTo maximum: Amount, locale: any LocaleReading, reading: ReadingOptions = ReadingOptions(), variants: Set<String> = [],
        prefix: String? = nil, suffix: String? = nil, timings: [String: ClipTiming], gapFrames: Int, objective: Objective
    ) -> WorstCase {
        let question = Question(
            maximum: maximum, locale: locale, reading: reading, variants: variants, prefix: prefix, suffix: suffix,
            weights: Weights(timings: timings, gapFrames: gapFrames, objective: objective))
        return question.longest()
    }

    /// The search with whole files (`join` file): each clip's `frames`, no pads.
    public static func search(
        upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions = ReadingOptions(), variants: Set<String> = [],
        prefix: String? = nil, suffix: String? = nil, frames: [String: Int], gapFrames: Int, objective: Objective
    ) -> WorstCase {
        search(
            upTo: maximum, locale: locale, reading: reading, variants: variants, prefix: prefix, suffix: suffix,
            timings: frames.mapValues { ClipTiming(frames: $0) }, gapFrames: gapFrames, objective: objective)
    }

    /// The smallest amount from 0 to `maximum` whose announcement lasts more than `frames` frames, or
    /// nil when none does: where a banner starts to cut announcements (the same walk as `search`,
    /// taking the smallest digit whose best completion is still too long).
    public static func firstLonger(
        than frames: Int, upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions = ReadingOptions(),
        variants: Set<String> = [], prefix: String? = nil, suffix: String? = nil, timings: [String: ClipTiming], gapFrames: Int
    ) -> Amount? {
        firstLonger(
            than: frames, upTo: maximum, locale: locale.reading, reading: reading, variants: variants, prefix: prefix, suffix: suffix,
            timings: timings, gapFrames: gapFrames)
    }

    /// `firstLonger` in any `LocaleReading`.
    package static func firstLonger(
        than frames: Int, upTo maximum: Amount, locale: any LocaleReading, reading: ReadingOptions = ReadingOptions(),
        variants: Set<String> = [], prefix: String? = nil, suffix: String? = nil, timings: [String: ClipTiming], gapFrames: Int
    ) -> Amount? {
        let question = Question(
            maximum: maximum, locale: locale, reading: reading, variants: variants, prefix: prefix, suffix: suffix,
            weights: Weights(timings: timings, gapFrames: gapFrames, objective: .duration))
        return question.firstLonger(than: frames + gapFrames).map { try! Amount(minorUnits: $0) }
    }

    /// One search's inputs, and the parts both queries share.
    struct Question {
        let maximum: Amount
        let locale: any LocaleReading
        let reading: ReadingOptions
        let variants: Set<String>
        let prefix: String?
        let suffix: String?
        let weights: Weights
        let readings: Readings
        /// The prefix and suffix, with the pads they put at the ends.
        let around: Score
        let edges: Readings.Edges

        init(
            maximum: Amount, locale: any LocaleReading, reading: ReadingOptions, variants: Set<String>, prefix: String?, suffix: String?,
            weights: Weights
        ) {
            self.maximum = maximum
            self.locale = locale
            self.reading = reading
            self.variants = variants
            self.prefix = prefix
            self.suffix = suffix
            self.weights = weights
            readings = Readings(locale: locale, options: reading, variants: variants)
            var around = weights.weigh([prefix, suffix].compactMap { $0 })
            if let prefix { around = around + weights.lead(prefix) }
            if let suffix { around = around + weights.tail(suffix) }
            self.around = around
            var firstEdge: ((String) -> Score)?
            if prefix == nil { firstEdge = { weights.lead($0) } }
            edges = Readings.Edges(first: firstEdge, last: { weights.tail($0) })
        }

        /// The score of the announcement of `minorUnits`, read whole.
        func score(_ minorUnits: Int64) -> Score {
            let clips = locale.read(try! Amount(minorUnits: minorUnits), options: reading, variants: variants)
            return weights.total([prefix].compactMap { $0 } + clips + [suffix].compactMap { $0 })
        }

        /// The fractions from 0 to `last`: the best that says something (with its last clip's pad
        /// when no suffix follows), and the first that says nothing, if any.
        func fractions(upTo last: Int) -> (spoken: (score: Score, cents: Int)?, silent: Int?) {
            var spoken: (score: Score, cents: Int)?
            var silent: Int?
            for cents in 0...last {
                let clips = readings.fraction(cents)
                guard let end = clips.last else {
                    if silent == nil { silent = cents }
                    continue
                }
                let score = weights.weigh(clips) + (suffix == nil ? weights.tail(end) : .zero)
                if spoken == nil || score > spoken!.score { spoken = (score, cents) }
            }
            return (spoken, silent)
        }

        /// The whole part `value` read alone: its score with its first clip's pad when no prefix
        /// comes before it, and its last clip's when it ends the announcement.
        func wholeScore(_ value: Int64, endsAnnouncement: Bool) -> Score {
            let clips = readings.whole(value)
            var score = weights.weigh(clips)
            if prefix == nil, let first = clips.first { score = score + weights.lead(first) }
            if endsAnnouncement, let last = clips.last { score = score + weights.tail(last) }
            return score
        }

        func longest() -> WorstCase {
            var best: (score: Score, minorUnits: Int64)?
            func consider(_ score: Score, _ minorUnits: Int64) {
                if best == nil || score > best!.score || (score == best!.score && minorUnits < best!.minorUnits) {
                    best = (score, minorUnits)
                }
            }
            let maxWhole = maximum.integerPart
            // Below 1: every amount.
            for cents in 0...(maxWhole == 0 ? maximum.fraction : 99) { consider(score(Int64(cents)), Int64(cents)) }
            /// Whole parts with their best fractions: `whole(endsAnnouncement)` is the best whole
            /// part's score and value.
            func combine(_ fractions: (spoken: (score: Score, cents: Int)?, silent: Int?), whole: (Bool) -> (Score, Int64)?) {
                if let spoken = fractions.spoken, let (score, value) = whole(false) {
                    consider(around + score + spoken.score, value * 100 + Int64(spoken.cents))
                }
                if let cents = fractions.silent, let (score, value) = whole(suffix == nil) {
                    consider(around + score, value * 100 + Int64(cents))
                }
            }
            if maxWhole >= 2 {
                combine(fractions(upTo: 99)) { ends in
                    readings.longestWhole(upTo: maxWhole - 1, weights: weights, edges: edges, endsAnnouncement: ends)
                }
            }
            if maxWhole >= 1 {
                combine(fractions(upTo: maximum.fraction)) { ends in (wholeScore(maxWhole, endsAnnouncement: ends), maxWhole) }
            }
            let (score, minorUnits) = best!
            let objective = weights.objective
            let duration = objective == .duration ? score.primary : score.secondary
            let steps = objective == .duration ? score.secondary : score.primary
            return WorstCase(amount: try! Amount(minorUnits: minorUnits), frames: max(0, duration - weights.gapFrames), steps: steps)
        }

        /// The smallest amount whose score's first value exceeds `threshold`, in minor units.
        func firstLonger(than threshold: Int) -> Int64? {
            let maxWhole = maximum.integerPart
            for cents in 0...(maxWhole == 0 ? maximum.fraction : 99) where score(Int64(cents)).primary > threshold { return Int64(cents) }
            // The smallest whole part below the maximum's that some fraction makes too long; then
            // that whole part's smallest such fraction.
            if maxWhole >= 2 {
                let (spoken, silent) = fractions(upTo: 99)
                var wholes: [Int64] = []
                if let spoken {
                    wholes += readings.firstWhole(
                        upTo: maxWhole - 1, over: threshold - around.primary - spoken.score.primary, weights: weights, edges: edges,
                        endsAnnouncement: false
                    ).map { [$0] } ?? []
                }
                if silent != nil {
                    wholes += readings.firstWhole(
                        upTo: maxWhole - 1, over: threshold - around.primary, weights: weights, edges: edges, endsAnnouncement: suffix == nil
                    ).map { [$0] } ?? []
                }
                if let whole = wholes.min() {
                    for cents in 0...99 where score(whole * 100 + Int64(cents)).primary > threshold { return whole * 100 + Int64(cents) }
                }
            }
            if maxWhole >= 1 {
                for cents in 0...maximum.fraction where score(maxWhole * 100 + Int64(cents)).primary > threshold {
                    return maxWhole * 100 + Int64(cents)
                }
            }
            return nil
        }
    }

    /// A pair compared by its first value, then its second.
    struct Score: Comparable, Hashable {
        var primary: Int
        var secondary: Int
        static let zero = Score(primary: 0, secondary: 0)
        static func + (a: Score, b: Score) -> Score { Score(primary: a.primary + b.primary, secondary: a.secondary + b.secondary) }
        static func < (a: Score, b: Score) -> Bool { (a.primary, a.secondary) < (b.primary, b.secondary) }
    }

    /// What each clip, and each end's pad, adds to the score.
    struct Weights {
        let timings: [String: ClipTiming]
        let gapFrames: Int
        let objective: Objective

        /// Frames as the objective counts them: the score's first value for the duration, its second
        /// for steps.
        private func frames(_ count: Int, steps: Int = 0) -> Score {
            objective == .duration ? Score(primary: count, secondary: steps) : Score(primary: steps, secondary: count)
        }

        /// A clip's speech and gap, and one step.
        func weigh(_ clips: [String]) -> Score {
            clips.reduce(Score.zero) { $0 + frames((timings[$1]?.speech ?? 0) + gapFrames, steps: 1) }
        }

        /// The pad before `clip`'s speech, when it starts the announcement.
        func lead(_ clip: String) -> Score { frames(timings[clip]?.lead ?? 0) }

        /// The pad after `clip`'s speech, when it ends the announcement.
        func tail(_ clip: String) -> Score { frames(timings[clip]?.tail ?? 0) }

        /// A whole announcement's score: its clips and its two ends.
        func total(_ clips: [String]) -> Score {
            guard let first = clips.first, let last = clips.last else { return .zero }
            return weigh(clips) + lead(first) + tail(last)
        }
    }

    /// The split of a locale's reading into whole part and fraction, for amounts of 1 or more.
    struct Readings {
        let locale: any LocaleReading
        let options: ReadingOptions
        let variants: Set<String>

        /// The end pads a whole part may carry: its first clip's lead (nil when a prefix comes
        /// first), its last clip's tail (when it ends the announcement).
        struct Edges {
            let first: ((String) -> Score)?
            let last: (String) -> Score
        }

        func whole(_ value: Int64) -> [String] { locale.wholeClips(value, options: options, variants: variants) }

        func fraction(_ cents: Int) -> [String] { locale.fraction(cents, options: options) }

        /// The longest whole part from 1 to `bound`, with its value.
        /// - Parameter endsAnnouncement: the whole part's last clip ends the announcement (no
        ///   fraction or suffix follows), so its tail counts.
        func longestWhole(upTo bound: Int64, weights: Weights, edges: Edges, endsAnnouncement: Bool) -> (Score, Int64)? {
            wholeSearch(upTo: bound, weights: weights, edges: edges, endsAnnouncement: endsAnnouncement).longest()
        }

        /// The smallest whole part from 1 to `bound` whose score's first value exceeds `threshold`.
        func firstWhole(upTo bound: Int64, over threshold: Int, weights: Weights, edges: Edges, endsAnnouncement: Bool) -> Int64? {
            wholeSearch(upTo: bound, weights: weights, edges: edges, endsAnnouncement: endsAnnouncement).firstOver(threshold)
        }

        /// The search over whole parts from 1 to `bound`, over the locale's own reading machine
        /// (`LocaleReading.wholeMachine`), started in its first state.
        func wholeSearch(upTo bound: Int64, weights: Weights, edges: Edges, endsAnnouncement: Bool) -> AnyWholeSearch {
            /// A step's clips, with the first clip's lead when they are the first said.
            func said(_ clips: [String], first: Bool) -> Score {
                var score = weights.weigh(clips)
                if first, let lead = edges.first, let clip = clips.first { score = score + lead(clip) }
                return score
            }
            /// The machine's end (nil when nothing was said), with its last clip's tail when it ends
            /// the announcement. A machine whose end says nothing is always followed by a fraction
            /// that says something (`WholeReadingMachine.end`).
            func ending(_ clips: [String]) -> Score {
                var score = weights.weigh(clips)
                if endsAnnouncement, let last = clips.last { score = score + edges.last(last) }
                return score
            }
            func search<Machine: WholeReadingMachine>(from start: Machine) -> AnyWholeSearch {
                let search = DigitSearch<Machine>(
                    base: start.base, positions: start.positions, bound: bound,
                    step: { state, digit, position in
                        var next = state
                        let clips = next.read(digit, at: position)
                        return (said(clips, first: !state.started), next)
                    },
                    finish: { $0.end().map(ending) })
                return AnyWholeSearch(search, start: start)
            }
            return search(from: locale.wholeMachine(options: options, variants: variants))
        }
    }

    /// A digit search over any locale's machine, started in its first state; each query runs on a
    /// fresh copy, so a search serves any number of them.
    struct AnyWholeSearch {
        let longest: () -> (Score, Int64)?
        let firstOver: (Int) -> Int64?
        /// Every score up to a cap (`LongestFitting.swift`).
        let reachable: (Int) -> ReachableWholes

        init<State: Hashable>(_ search: DigitSearch<State>, start: State) {
            reachable = { cap in search.reachable(from: start, cap: cap) }
            longest = {
                var copy = search
                return copy.best(from: start).map { ($0.score, $0.value) }
            }
            firstOver = { threshold in
                var copy = search
                return copy.first(from: start, over: threshold)
            }
        }
    }
}

/// The best-scoring number from 0 to `bound`, written in `positions` digits of `base`, where each digit
/// adds to the score according to a small state; memoised on (position, still at the bound, state).
struct DigitSearch<State: Hashable> {
    typealias Score = LongestAnnouncement.Score
    let base: Int
    let positions: Int
    let digits: [Int]
    /// What a digit at a position adds in a state, and the state after it.
    let step: (State, Int, Int) -> (Score, State)
    /// What the end adds in a state, or nil when the number is not accepted (nothing said).
    let finish: (State) -> Score?
    private var memo: [Key: (score: Score, value: Int64)?] = [:]

    struct Key: Hashable {
        var position: Int
        var tight: Bool
        var state: State
    }

    init(base: Int, positions: Int, bound: Int64, step: @escaping (State, Int, Int) -> (Score, State), finish: @escaping (State) -> Score?) {
        self.base = base
        self.positions = positions
        var digits = [Int](repeating: 0, count: positions)
        var rest = bound
        for index in stride(from: positions - 1, through: 0, by: -1) {
            digits[index] = Int(rest % Int64(base))
            rest /= Int64(base)
        }
        self.digits = digits
        self.step = step
        self.finish = finish
    }

    /// The best score and the number reaching it (the smallest such number), or nil if none is accepted.
    mutating func best(from state: State) -> (score: Score, value: Int64)? {
        solve(Key(position: 0, tight: true, state: state))
    }

    /// The smallest accepted number whose score's first value exceeds `threshold`, or nil. Walks the
    /// digits from the highest, taking at each the smallest digit whose best completion still
    /// exceeds it (the memoised best is exact, so the walk never backtracks).
    mutating func first(from state: State, over threshold: Int) -> Int64? {
        var key = Key(position: 0, tight: true, state: state)
        var score = Score.zero
        var value: Int64 = 0
        guard let best = solve(key), best.score.primary > threshold else { return nil }
        while key.position < positions {
            let top = key.tight ? digits[key.position] : base - 1
            var chosen = false
            for digit in 0...top {
                let (added, next) = step(key.state, digit, key.position)
                let child = Key(position: key.position + 1, tight: key.tight && digit == top, state: next)
                guard let rest = solve(child), (score + added + rest.score).primary > threshold else { continue }
                score = score + added
                value = value * Int64(base) + Int64(digit)
                key = child
                chosen = true
                break
            }
            if !chosen { return nil }  // cannot happen: the best completion was over the threshold
        }
        return value
    }

    /// The best score of the remaining digits and the value they spell.
    private mutating func solve(_ key: Key) -> (score: Score, value: Int64)? {
        if key.position == positions {
            return finish(key.state).map { ($0, 0) }
        }
        if let known = memo[key] { return known }
        var best: (score: Score, value: Int64)?
        let top = key.tight ? digits[key.position] : base - 1
        var place: Int64 = 1
        for _ in 0..<(positions - key.position - 1) { place *= Int64(base) }
        for digit in 0...top {
            let (added, next) = step(key.state, digit, key.position)
            guard let (rest, value) = solve(Key(position: key.position + 1, tight: key.tight && digit == top, state: next)) else { continue }
            let score = added + rest
            if best == nil || score > best!.score { best = (score, Int64(digit) * place + value) }
        }
        memo[key] = best
        return best
    }
}
