/// A few amounts that, together, use every clip a set's announcements can use up to a maximum:
/// the report's default samples, so a designer hears every take in an announcement, the wrong word
/// included. Pure: the clips come from the runtime's own reading, and the phrases from what the
/// caller says is played.
public enum SampleAmounts {
    /// Amounts up to `maximum`, in ascending order, whose readings together use every clip that a
    /// reading of any amount up to `maximum` uses (every digit, unit and 点, 元, 两, 角, 分, the tones
    /// of 一 in `variants`; en-US's words), and each of `phrases` as played.
    ///
    /// The amounts are picked greedily, each using the most clips not yet heard (the fewer clips,
    /// then the smaller amount, on a tie), from a fixed list of candidates: every digit in every
    /// place, the teens, zeros inside a number, the fractions that read differently, and a few
    /// hundred amounts drawn from a fixed seed, so the same set always gets the same samples.
    /// - Parameters:
    ///   - phrases: the prefix and suffix: some sample must play each.
    ///   - plays: the clips an amount plays (`PlayedAnnouncement`: a long amount loses its prefix), or
    ///     nil when it cannot be planned; asked only of the samples chosen and of short candidates.
    public static func covering(
        upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions = ReadingOptions(), variants: Set<String> = [], phrases: [String] = [],
        plays: (Amount) -> [String]? = { _ in nil }
    ) -> [Amount] {
        covering(upTo: maximum, locale: locale.reading, reading: reading, variants: variants, phrases: phrases, plays: plays)
    }

    /// `covering` in any `LocaleReading`.
    package static func covering(
        upTo maximum: Amount, locale: any LocaleReading, reading: ReadingOptions = ReadingOptions(), variants: Set<String> = [],
        phrases: [String] = [], plays: (Amount) -> [String]? = { _ in nil }
    ) -> [Amount] {
        let candidates = self.candidates(upTo: maximum)
        // Each amount is read once (the search below comes back to amounts it has tried).
        var readings: [Int64: Set<String>] = [:]
        func read(_ amount: Amount) -> Set<String> {
            if let known = readings[amount.minorUnits] { return known }
            let words = Set(locale.read(amount, options: reading, variants: variants))
            readings[amount.minorUnits] = words
            return words
        }
        let words = candidates.map(read)
        // en-US says two digits as one word (thirteen, forty): moving one digit at a time cannot
        // reach a teen from a ten; a zh-CN word is one digit's (or its place's).
        let widths = locale.sampleDigitRuns
        var unheard = words.reduce(into: Set<String>()) { $0.formUnion($1) }
        var chosen: [Amount] = []
        // Most new clips; then fewer clips in all; then the smaller amount.
        func better(_ a: (words: Set<String>, amount: Amount), than b: (words: Set<String>, amount: Amount)) -> Bool {
            let (newA, newB) = (a.words.intersection(unheard).count, b.words.intersection(unheard).count)
            return (newA, -a.words.count, -a.amount.minorUnits) > (newB, -b.words.count, -b.amount.minorUnits)
        }
        while !unheard.isEmpty {
            guard let start = candidates.indices.max(by: { better((words[$1], candidates[$1]), than: (words[$0], candidates[$0])) }),
                !words[start].isDisjoint(with: unheard)
            else { break }
            // Then each digit in turn (and in en-US each two neighbouring digits), while changing
            // it makes the amount better.
            var best = (words: words[start], amount: candidates[start])
            var improved = !unheard.isSubset(of: best.words)
            while improved {
                improved = false
                for width in widths {
                    var place: Int64 = 1
                    while place <= maximum.minorUnits {
                        let digits = best.amount.minorUnits / place % width
                        for other in 0..<width where other != digits {
                            let units = best.amount.minorUnits + (other - digits) * place
                            guard units <= maximum.minorUnits, let amount = try? Amount(minorUnits: units) else { continue }
                            let tried = (words: read(amount), amount: amount)
                            if better(tried, than: best) {
                                best = tried
                                improved = true
                            }
                        }
                        place *= 10
                    }
                }
            }
            chosen.append(best.amount)
            unheard.subtract(best.words)
        }
        var heard = Set(chosen.flatMap { plays($0) ?? [] })
        for phrase in phrases where !heard.contains(phrase) {
            // The shortest readings first: a phrase is dropped from a long one to fit the banner.
            let short = candidates.indices.sorted { (words[$0].count, $0) < (words[$1].count, $1) }.prefix(40)
            for index in short {
                guard let clips = plays(candidates[index]), clips.contains(phrase) else { continue }
                if !chosen.contains(candidates[index]) { chosen.append(candidates[index]) }
                heard.formUnion(clips)
                break
            }
        }
        return chosen.sorted()
    }

    /// The candidates up to `maximum`, ascending, without repeats.
    static func candidates(upTo maximum: Amount) -> [Amount] {
        let top = maximum.minorUnits
        let wholeDigits = String(maximum.integerPart).count
        var units = Set<Int64>([top])
        // Zero, and fractions that read differently: 0.01 (one cent, 零点零一, 一分), 0.1 and 0.5
        // (一角), 1.00 (one dollar), 1.01, 1.5, 2.22.
        units.formUnion([0, 1, 5, 10, 50, 99, 100, 101, 150, 222])
        var power: Int64 = 100
        for _ in 0..<wholeDigits {
            for digit in Int64(1)...9 { units.insert(digit * power) }
            for teen in Int64(10)...19 { units.insert(teen * power) }
            // A zero inside: 10001 (一万零一), 101 (one hundred and one).
            units.insert(power * 10 + 100)
            units.insert(power * 101)
            power *= 10
        }
        var random = SeededNumbers(seed: 0x50_756E_6473)
        for _ in 0..<300 {
            var whole: Int64 = 0
            let digits = Int(random.next() % UInt64(wholeDigits + 1))
            for _ in 0..<digits {
                let roll = random.next() % 13
                whole = whole * 10 + Int64(roll < 10 ? roll : 0)  // zeros a little more often
            }
            units.insert(whole * 100 + Int64(random.next() % 100))
        }
        return units.filter { $0 >= 0 && $0 <= top }.sorted().compactMap { try? Amount(minorUnits: $0) }
    }

    /// SplitMix64: a fixed sequence from a seed, the same on every platform.
    struct SeededNumbers {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
