import SoundsetBudget
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// The worst-case search knows no locale: it walks the machine a `LocaleReading` gives. A locale
/// only the tests define (`PairsLocale`: pairs of digits in base 100, a state of its own) is
/// searched exactly, as brute force over every amount finds.
@Suite struct AnyLocaleTests {
    struct Case: Sendable, CustomStringConvertible {
        var maximum: String
        var prefix: String?
        var suffix: String?
        var variants: Set<String> = []
        var seed: UInt64
        var description: String { "\(maximum) \(prefix ?? "-")/\(suffix ?? "-") \(variants.sorted()) seed \(seed)" }
    }

    static let cases: [Case] = [
        Case(maximum: "0.42", seed: 1), Case(maximum: "1", prefix: "received", seed: 2), Case(maximum: "99.99", suffix: "thanks", seed: 3),
        Case(maximum: "10001.5", seed: 4), Case(maximum: "10203.04", prefix: "received", variants: [PairsLocale.loud], seed: 5),
        Case(maximum: "9999.99", prefix: "received", suffix: "thanks", variants: [PairsLocale.loud], seed: 6),
    ]

    /// Random timings with pads, so that no clip and no end is favoured.
    static func timings(seed: UInt64) -> [String: ClipTiming] {
        var generator = SplitMix64(seed: seed)
        return Dictionary(
            uniqueKeysWithValues: (PairsLocale.clipNames + ["thanks"]).map { name in
                let (lead, tail) = (Int(generator.next() % 300), Int(generator.next() % 300))
                return (name, ClipTiming(frames: lead + tail + 100 + Int(generator.next() % 800), lead: lead, tail: tail))
            })
    }

    @Test(arguments: cases)
    func equalsBruteForce(testCase: Case) throws {
        let locale = PairsLocale()
        let timings = Self.timings(seed: testCase.seed)
        let gap = 25
        let maximum = try Amount(testCase.maximum)
        let lengths = try (0...maximum.minorUnits).map { minor in
            let reading = locale.read(try Amount(minorUnits: minor), variants: testCase.variants)
            let clips = [testCase.prefix].compactMap { $0 } + reading + [testCase.suffix].compactMap { $0 }
            return Timeline.length(of: clips.map { timings[$0]! }, gapFrames: gap)
        }
        let longest = lengths.max()!
        let found = LongestAnnouncement.search(
            upTo: maximum, locale: locale, variants: testCase.variants, prefix: testCase.prefix, suffix: testCase.suffix, timings: timings,
            gapFrames: gap, objective: .duration)
        #expect(found.frames == longest)
        #expect(found.amount.minorUnits == Int64(lengths.firstIndex(of: longest)!))
        for threshold in [0, longest / 3, longest / 2, longest - 1, longest] {
            let first = LongestAnnouncement.firstLonger(
                than: threshold, upTo: maximum, locale: locale, variants: testCase.variants, prefix: testCase.prefix, suffix: testCase.suffix,
                timings: timings, gapFrames: gap)
            #expect(first?.minorUnits == lengths.firstIndex { $0 > threshold }.map(Int64.init), "over \(threshold)")
            let within = LongestAnnouncement.longestWithin(
                threshold, upTo: maximum, locale: locale, variants: testCase.variants, prefix: testCase.prefix, suffix: testCase.suffix,
                timings: timings, gapFrames: gap)
            let fitting = lengths.filter { $0 <= threshold }.max()
            #expect(within?.frames == fitting, "within \(threshold)")
            #expect(within?.amount.minorUnits == fitting.flatMap { lengths.firstIndex(of: $0) }.map(Int64.init), "within \(threshold)")
        }
    }
}
