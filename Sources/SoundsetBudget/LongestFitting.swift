import SoundsetRuntime

/// The longest announcement that still fits a length: what the banner budget needs when some
/// amounts are too long whole (they play without the prefix) and others fit (they play whole, up
/// to the banner). Unlike the longest, it cannot be found by maximising digit by digit; it is found
/// exactly from the set of every length a reading can reach: a bitset of lengths for each place of
/// the digits and state of the reading machine, each length at most the limit (every clip adds to
/// the length, so a longer start never fits).
extension LongestAnnouncement {
    /// The most frames a search of fitting lengths holds per bitset (30 s at 48 kHz, with room).
    static let fittingCap = 1 << 21

    /// The longest announcement from 0 to `maximum` that lasts at most `frames` frames, the smallest
    /// amount among the longest; nil when none fits (or `frames` is beyond `fittingCap`).
    public static func longestWithin(
        _ frames: Int, upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions = ReadingOptions(), variants: Set<String> = [],
        prefix: String? = nil, suffix: String? = nil, timings: [String: ClipTiming], gapFrames: Int
    ) -> WorstCase? {
        longestWithin(
            frames, upTo: maximum, locale: locale.reading, reading: reading, variants: variants, prefix: prefix, suffix: suffix,
            timings: timings, gapFrames: gapFrames)
    }

    /// `longestWithin` in any `LocaleReading`.
    package static func longestWithin(
        _ frames: Int, upTo maximum: Amount, locale: any LocaleReading, reading: ReadingOptions = ReadingOptions(),
        variants: Set<String> = [], prefix: String? = nil, suffix: String? = nil, timings: [String: ClipTiming], gapFrames: Int
    ) -> WorstCase? {
        guard frames >= 0, frames + gapFrames < fittingCap else { return nil }
        let question = Question(
            maximum: maximum, locale: locale, reading: reading, variants: variants, prefix: prefix, suffix: suffix,
            weights: Weights(timings: timings, gapFrames: gapFrames, objective: .duration))
        guard let (score, minorUnits) = question.longestWithin(frames + gapFrames) else { return nil }
        return WorstCase(amount: try! Amount(minorUnits: minorUnits), frames: score - gapFrames, steps: question.score(minorUnits).secondary)
    }
}

extension LongestAnnouncement.Question {
    /// The highest score (first value) at most `limit`, and the smallest amount reaching it.
    func longestWithin(_ limit: Int) -> (Int, Int64)? {
        var best: (score: Int, minorUnits: Int64)?
        func consider(_ score: Int, _ minorUnits: Int64) {
            guard score <= limit else { return }
            if best == nil || score > best!.score || (score == best!.score && minorUnits < best!.minorUnits) { best = (score, minorUnits) }
        }
        let maxWhole = maximum.integerPart
        for cents in 0...(maxWhole == 0 ? maximum.fraction : 99) { consider(score(Int64(cents)).primary, Int64(cents)) }
        /// Whole parts below the maximum's with every fraction: for each fraction, the longest whole
        /// part that still fits beside it, then the smallest whole part of that length.
        func combine(upTo bound: Int64) {
            let cap = limit - around.primary
            guard cap >= 0 else { return }
            var searches: [Bool: ReachableWholes] = [:]
            for cents in 0...99 {
                let clips = readings.fraction(cents)
                // A fraction that says something ends the announcement (with its pad when no
                // suffix follows); one that says nothing leaves the whole part's last clip last.
                let ends = clips.isEmpty && suffix == nil
                var fraction = weights.weigh(clips).primary
                if suffix == nil, let end = clips.last { fraction += weights.tail(end).primary }
                if searches[ends] == nil {
                    searches[ends] = readings.reachableWholes(upTo: bound, weights: weights, edges: edges, endsAnnouncement: ends, cap: cap)
                }
                guard let search = searches[ends], let whole = search.highest(atMost: cap - fraction),
                    let value = search.smallest(withScore: whole)
                else { continue }
                consider(around.primary + whole + fraction, value * 100 + Int64(cents))
            }
        }
        if maxWhole >= 2 { combine(upTo: maxWhole - 1) }
        if maxWhole >= 1 {
            for cents in 0...maximum.fraction { consider(score(maxWhole * 100 + Int64(cents)).primary, maxWhole * 100 + Int64(cents)) }
        }
        return best.map { ($0.score, $0.minorUnits) }
    }
}

extension LongestAnnouncement.Readings {
    /// Every score (first value) of a whole part from 1 to `bound`, up to `cap`, with a way back to
    /// the smallest whole part of each; nil when `cap` is beyond `fittingCap`.
    func reachableWholes(upTo bound: Int64, weights: LongestAnnouncement.Weights, edges: Edges, endsAnnouncement: Bool, cap: Int) -> ReachableWholes? {
        guard cap < LongestAnnouncement.fittingCap else { return nil }
        return wholeSearch(upTo: bound, weights: weights, edges: edges, endsAnnouncement: endsAnnouncement).reachable(cap)
    }
}

/// The scores a digit search reaches up to a cap, and the smallest number reaching each.
struct ReachableWholes {
    let all: ScoreBits
    let smallestWithScore: (Int) -> Int64?

    func highest(atMost score: Int) -> Int? { score < 0 ? nil : all.highest(atMost: score) }
    func smallest(withScore score: Int) -> Int64? { smallestWithScore(score) }
}

extension DigitSearch {
    /// Every score (first value) of an accepted number from 0 to the bound, up to `cap`.
    func reachable(from start: State, cap: Int) -> ReachableWholes {
        var table = ReachTable(search: self, cap: cap)
        // The bound's digits one by one: at each place a smaller digit frees the rest.
        var all = ScoreBits(cap: cap)
        var state = start
        var acc = 0
        var tightPath: [(state: State, acc: Int)] = []
        for position in 0..<positions {
            tightPath.append((state, acc))
            for digit in 0..<digits[position] {
                let (added, next) = step(state, digit, position)
                all.formUnion(table.free(position + 1, next), shiftedBy: acc + added.primary)
            }
            let (added, next) = step(state, digits[position], position)
            acc += added.primary
            state = next
        }
        if let end = finish(state), acc + end.primary <= cap { all.insert(acc + end.primary) }
        tightPath.append((state, acc))
        let lastState = state
        let lastAcc = acc
        let search = self
        let frozen = table
        return ReachableWholes(all: all) { score in
            guard score >= 0, score <= cap, all.contains(score) else { return nil }
            var table = frozen
            // Walk from the highest place: the smallest digit from which the rest can still reach it.
            var value: Int64 = 0
            var state = start
            var acc = 0
            var tight = true
            for position in 0..<search.positions {
                let top = tight ? search.digits[position] : search.base - 1
                var chosen = false
                for digit in 0...top {
                    let (added, next) = search.step(state, digit, position)
                    let rest = score - acc - added.primary
                    guard rest >= 0 else { continue }
                    let stillTight = tight && digit == top
                    let reachable =
                        stillTight
                        ? search.tightReach(from: position + 1, path: tightPath, lastState: lastState, lastAcc: lastAcc, table: &table, wanted: score)
                        : table.free(position + 1, next).contains(rest)
                    guard reachable else { continue }
                    value = value * Int64(search.base) + Int64(digit)
                    acc += added.primary
                    state = next
                    tight = stillTight
                    chosen = true
                    break
                }
                if !chosen { return nil }
            }
            return value
        }
    }

    /// Whether the number that keeps to the bound from `position` on (the bound's own digits there,
    /// or smaller ones after which anything goes) can make the whole score `wanted`.
    fileprivate func tightReach(
        from position: Int, path: [(state: State, acc: Int)], lastState: State, lastAcc: Int, table: inout ReachTable<State>, wanted: Int
    ) -> Bool {
        for place in position..<positions {
            let (state, acc) = path[place]
            for digit in 0..<digits[place] {
                let (added, next) = step(state, digit, place)
                let rest = wanted - acc - added.primary
                if rest >= 0, table.free(place + 1, next).contains(rest) { return true }
            }
        }
        if let end = finish(lastState) { return lastAcc + end.primary == wanted }
        return false
    }
}

/// The scores reachable from each (place, state) with any digits after it, each found once.
struct ReachTable<State: Hashable> {
    let search: DigitSearch<State>
    let cap: Int
    private var memo: [Key: ScoreBits] = [:]

    struct Key: Hashable {
        var position: Int
        var state: State
    }

    init(search: DigitSearch<State>, cap: Int) {
        self.search = search
        self.cap = cap
    }

    /// The scores the digits from `position` on can add, in `state`, the end included.
    mutating func free(_ position: Int, _ state: State) -> ScoreBits {
        let key = Key(position: position, state: state)
        if let known = memo[key] { return known }
        var bits = ScoreBits(cap: cap)
        if position == search.positions {
            if let end = search.finish(state), end.primary <= cap { bits.insert(end.primary) }
        } else {
            // Digits that add the same score and lead to the same state are one branch (en-US has
            // a thousand digits a place, and few distinct branches).
            var branches = Set<Branch>()
            for digit in 0..<search.base {
                let (added, next) = search.step(state, digit, position)
                branches.insert(Branch(score: added.primary, state: next))
            }
            for branch in branches where branch.score <= cap {
                bits.formUnion(free(position + 1, branch.state), shiftedBy: branch.score)
            }
        }
        memo[key] = bits
        return bits
    }

    struct Branch: Hashable {
        var score: Int
        var state: State
    }
}

/// A set of scores from 0 to a cap.
struct ScoreBits: Equatable {
    private(set) var words: [UInt64]
    let cap: Int

    init(cap: Int) {
        self.cap = cap
        words = [UInt64](repeating: 0, count: cap / 64 + 1)
    }

    mutating func insert(_ score: Int) {
        guard score >= 0, score <= cap else { return }
        words[score >> 6] |= 1 << UInt64(score & 63)
    }

    func contains(_ score: Int) -> Bool {
        guard score >= 0, score <= cap else { return false }
        return words[score >> 6] & (1 << UInt64(score & 63)) != 0
    }

    /// Adds every score of `other` plus `shift` that is at most the cap.
    mutating func formUnion(_ other: ScoreBits, shiftedBy shift: Int) {
        guard shift >= 0, shift <= cap else { return }
        let wordShift = shift >> 6
        let bitShift = UInt64(shift & 63)
        let count = words.count
        other.words.withUnsafeBufferPointer { source in
            words.withUnsafeMutableBufferPointer { target in
                var index = count - 1
                while index >= wordShift {
                    let from = index - wordShift
                    var word = source[from] << bitShift
                    if bitShift > 0 && from > 0 { word |= source[from - 1] >> (64 - bitShift) }
                    target[index] |= word
                    index -= 1
                }
            }
        }
        // Bits past the cap in the last word are never read as scores.
    }

    /// The highest score in the set at most `score`.
    func highest(atMost score: Int) -> Int? {
        let top = min(score, cap)
        guard top >= 0 else { return nil }
        var index = top >> 6
        var word = words[index] & (top & 63 == 63 ? ~0 : (1 << UInt64((top & 63) + 1)) - 1)
        while true {
            if word != 0 { return index * 64 + 63 - word.leadingZeroBitCount }
            if index == 0 { return nil }
            index -= 1
            word = words[index]
        }
    }
}
