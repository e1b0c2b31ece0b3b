/// The announcement that lasts longest (or has the most steps) among all amounts from 0 to a maximum.
public struct WorstCase: Sendable, Equatable {
    /// The amount.
    public var amount: Amount
    /// Its length in frames: the clips' frames plus the gaps between them.
    public var frames: Int
    /// Its number of clips (notifications).
    public var steps: Int
}

/// Finds the worst case exactly, without trying every amount.
///
/// A reading is the whole part's clips followed by the fraction's, and with a whole part of 1 or
/// more the fraction's clips do not depend on it. The longest reading is therefore the best of:
/// amounts below 1 (at most 100, tried one by one); the longest whole part below the maximum's whole
/// part with the longest fraction; and the maximum's whole part with the longest fraction it allows.
/// The longest whole part comes from a search over its digits (three-digit groups for en-US) that
/// walks the same reading machine the library reads with, remembering each (position, state, bound)
/// once: a few thousand steps for any maximum below 10^12.
public enum LongestAnnouncement {
    /// What is maximised: clip frames plus one gap per clip, or the number of clips.
    public enum Objective: Sendable { case duration, steps }

    /// Searches every amount from 0 to `maximum` read in `locale` with `reading`, between `prefix` and `suffix`.
    /// - Parameters:
    ///   - frames: each clip's frames (a copy has its original's); clips the set lacks count as 0.
    ///   - gapFrames: silence between two clips.
    public static func search(
        upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions = ReadingOptions(),
        prefix: String? = nil, suffix: String? = nil, frames: [String: Int], gapFrames: Int, objective: Objective
    ) -> WorstCase {
        let weigh = { (clips: [String]) -> Score in
            clips.reduce(Score.zero) { total, clip in
                let length = (frames[clip] ?? 0) + gapFrames
                return total + (objective == .duration ? Score(primary: length, secondary: 1) : Score(primary: 1, secondary: length))
            }
        }
        let around = weigh([prefix, suffix].compactMap { $0 })
        let readings = Readings(locale: locale, options: reading)
        var best: (score: Score, minorUnits: Int64)?
        func consider(_ score: Score, _ minorUnits: Int64) {
            if best == nil || score > best!.score || (score == best!.score && minorUnits < best!.minorUnits) {
                best = (score, minorUnits)
            }
        }
        let maxWhole = maximum.integerPart
        let maxFraction = maximum.fraction
        // Below 1: every amount.
        for cents in 0...(maxWhole == 0 ? maxFraction : 99) {
            consider(around + weigh(locale.read(try! Amount(minorUnits: Int64(cents)), options: reading)), Int64(cents))
        }
        func bestFraction(upTo last: Int) -> (score: Score, cents: Int) {
            var result = (score: weigh(readings.fraction(0)), cents: 0)
            for cents in stride(from: 1, through: last, by: 1) {
                let score = weigh(readings.fraction(cents))
                if score > result.score { result = (score, cents) }
            }
            return result
        }
        if maxWhole >= 2, let (wholeScore, whole) = readings.longestWhole(upTo: maxWhole - 1, weigh: weigh) {
            let (fractionScore, cents) = bestFraction(upTo: 99)
            consider(around + wholeScore + fractionScore, whole * 100 + Int64(cents))
        }
        if maxWhole >= 1 {
            let (fractionScore, cents) = bestFraction(upTo: maxFraction)
            consider(around + weigh(readings.whole(maxWhole)) + fractionScore, maxWhole * 100 + Int64(cents))
        }
        let (score, minorUnits) = best!
        let duration = objective == .duration ? score.primary : score.secondary
        let steps = objective == .duration ? score.secondary : score.primary
        return WorstCase(amount: try! Amount(minorUnits: minorUnits), frames: max(0, duration - gapFrames), steps: steps)
    }

    /// A pair compared by its first value, then its second.
    struct Score: Comparable, Hashable {
        var primary: Int
        var secondary: Int
        static let zero = Score(primary: 0, secondary: 0)
        static func + (a: Score, b: Score) -> Score { Score(primary: a.primary + b.primary, secondary: a.secondary + b.secondary) }
        static func < (a: Score, b: Score) -> Bool { (a.primary, a.secondary) < (b.primary, b.secondary) }
    }

    /// The split of a locale's reading into whole part and fraction, for amounts of 1 or more.
    struct Readings {
        let locale: SpeechLocale
        let options: ReadingOptions

        func whole(_ value: Int64) -> [String] {
            switch locale {
            case .zhCN: ChineseReading.wholeTokens(value, options: options).map(\.clipName)
            case .enUS: EnglishReading.dollarClips(value)
            }
        }

        func fraction(_ cents: Int) -> [String] {
            switch locale {
            case .zhCN: ChineseReading.fractionTokens(cents, afterInteger: true, options: options).map(\.clipName)
            case .enUS: EnglishReading.fractionClips(cents, afterDollars: true)
            }
        }

        /// The longest whole part from 1 to `bound`, with its value.
        func longestWhole(upTo bound: Int64, weigh: @escaping ([String]) -> Score) -> (Score, Int64)? {
            switch locale {
            case .zhCN:
                let tail = options.style == .yuanJiaoFen ? weigh([ChineseToken.yuan.clipName]) : .zero
                var search = DigitSearch<IntegerReader>(
                    base: 10, positions: IntegerReader.digitCount, bound: bound,
                    step: { state, digit, position in
                        var next = state
                        return (next.read(digit: digit, at: position).map(\.clipName), next)
                    },
                    finish: { $0.started ? [] : nil }, weigh: weigh)
                return search.best(from: IntegerReader(useLiang: options.useLiang)).map { ($0.score + tail, $0.value) }
            case .enUS:
                // The state is the value read so far, capped at 2: enough to choose dollar or dollars.
                var search = DigitSearch<Int>(
                    base: 1000, positions: EnglishReading.groupSizes.count, bound: bound,
                    step: { soFar, group, position in
                        (EnglishReading.groupClips(group, scale: position), soFar > 0 ? 2 : min(group, 2))
                    },
                    finish: { soFar in soFar == 0 ? nil : [soFar == 1 ? "dollar" : "dollars"] }, weigh: weigh)
                return search.best(from: 0)
            }
        }
    }
}

/// The best-scoring number from 0 to `bound`, written in `positions` digits of `base`, where each digit
/// adds clips according to a small state; memoised on (position, still at the bound, state).
struct DigitSearch<State: Hashable> {
    let base: Int
    let positions: Int
    let digits: [Int]
    let step: (State, Int, Int) -> ([String], State)
    let finish: (State) -> [String]?
    let weigh: ([String]) -> LongestAnnouncement.Score
    private var memo: [Key: (score: LongestAnnouncement.Score, value: Int64)?] = [:]

    struct Key: Hashable {
        var position: Int
        var tight: Bool
        var state: State
    }

    init(
        base: Int, positions: Int, bound: Int64, step: @escaping (State, Int, Int) -> ([String], State),
        finish: @escaping (State) -> [String]?, weigh: @escaping ([String]) -> LongestAnnouncement.Score
    ) {
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
        self.weigh = weigh
    }

    /// The best score and the number reaching it (the smallest such number), or nil if none is accepted.
    mutating func best(from state: State) -> (score: LongestAnnouncement.Score, value: Int64)? {
        solve(Key(position: 0, tight: true, state: state))
    }

    /// The best score of the remaining digits and the value they spell.
    private mutating func solve(_ key: Key) -> (score: LongestAnnouncement.Score, value: Int64)? {
        if key.position == positions {
            return finish(key.state).map { (weigh($0), 0) }
        }
        if let known = memo[key] { return known }
        var best: (score: LongestAnnouncement.Score, value: Int64)?
        let top = key.tight ? digits[key.position] : base - 1
        var place: Int64 = 1
        for _ in 0..<(positions - key.position - 1) { place *= Int64(base) }
        for digit in 0...top {
            let (clips, next) = step(key.state, digit, key.position)
            guard let (rest, value) = solve(Key(position: key.position + 1, tight: key.tight && digit == top, state: next)) else { continue }
            let score = weigh(clips) + rest
            if best == nil || score > best!.score { best = (score, Int64(digit) * place + value) }
        }
        memo[key] = best
        return best
    }
}
