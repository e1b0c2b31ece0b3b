import SoundsetBudget
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct LongestAnnouncementTests {
    struct Case: Sendable, CustomStringConvertible {
        var maximum: String
        var locale: SpeechLocale
        var reading = ReadingOptions()
        var prefix: String? = "received"
        var gap = 0
        var seed: UInt64 = 1
        var description: String { "\(maximum) \(locale.rawValue) \(reading.style) liang=\(reading.useLiang) zeros=\(reading.keepTrailingZeros) gap=\(gap)" }
    }

    /// Random clip lengths, so that no reading rule is favoured.
    static func frames(seed: UInt64) -> [String: Int] {
        var generator = SplitMix64(seed: seed)
        let names = ChineseToken.all.map(\.clipName) + EnglishReading.clipNames + ["received"]
        return Dictionary(names.map { ($0, 200 + Int(generator.next() % 800)) }, uniquingKeysWith: { a, _ in a })
    }

    static func measure(_ clips: [String], _ frames: [String: Int], gap: Int) -> (frames: Int, steps: Int) {
        (clips.reduce(0) { $0 + frames[$1]! } + gap * max(0, clips.count - 1), clips.count)
    }

    static let cases: [Case] = [
        Case(maximum: "0", locale: .zhCN), Case(maximum: "0.37", locale: .zhCN), Case(maximum: "1", locale: .zhCN, seed: 2),
        Case(maximum: "9.99", locale: .zhCN, gap: 30), Case(maximum: "10.05", locale: .zhCN, seed: 3),
        Case(maximum: "123.45", locale: .zhCN, reading: ReadingOptions(style: .yuanJiaoFen), seed: 4),
        Case(maximum: "1010.1", locale: .zhCN, reading: ReadingOptions(useLiang: true), seed: 5),
        Case(maximum: "10202.02", locale: .zhCN, reading: ReadingOptions(keepTrailingZeros: true), gap: 10, seed: 6),
        Case(maximum: "2202.02", locale: .zhCN, reading: ReadingOptions(style: .yuanJiaoFen, useLiang: true), prefix: nil, seed: 7),
        Case(maximum: "0.5", locale: .enUS), Case(maximum: "1.01", locale: .enUS, seed: 8),
        Case(maximum: "2100.99", locale: .enUS, gap: 20, seed: 9), Case(maximum: "3001.3", locale: .enUS, prefix: nil, seed: 10),
    ]

    /// The search equals brute force over every amount up to the maximum, for both objectives.
    @Test(arguments: cases)
    func equalsBruteForce(testCase: Case) throws {
        let frames = Self.frames(seed: testCase.seed)
        let maximum = try Amount(testCase.maximum)
        var longest = (frames: -1, steps: 0)
        var most = (steps: -1, frames: 0)
        for minor in 0...maximum.minorUnits {
            let clips = [testCase.prefix].compactMap { $0 } + testCase.locale.read(try Amount(minorUnits: minor), options: testCase.reading)
            let measured = Self.measure(clips, frames, gap: testCase.gap)
            if (measured.frames, measured.steps) > (longest.frames, longest.steps) { longest = measured }
            if (measured.steps, measured.frames) > (most.steps, most.frames) { most = (measured.steps, measured.frames) }
        }
        let found = LongestAnnouncement.search(
            upTo: maximum, locale: testCase.locale, reading: testCase.reading,
            prefix: testCase.prefix, frames: frames, gapFrames: testCase.gap, objective: .duration)
        #expect(found.frames == longest.frames)
        #expect(found.steps == longest.steps)
        #expect(found.amount <= maximum)
        let foundSteps = LongestAnnouncement.search(
            upTo: maximum, locale: testCase.locale, reading: testCase.reading,
            prefix: testCase.prefix, frames: frames, gapFrames: testCase.gap, objective: .steps)
        #expect(foundSteps.steps == most.steps)
        #expect(foundSteps.frames == most.frames)
        // The reported amount really reads that long.
        let clips = [testCase.prefix].compactMap { $0 } + testCase.locale.read(found.amount, options: testCase.reading)
        #expect(Self.measure(clips, frames, gap: testCase.gap).frames == found.frames)
    }

    /// Up to 10^12, where brute force is out of reach: no sampled amount beats the search, and the
    /// reported amount reads exactly as long as reported.
    @Test(arguments: [
        ("99999999.99", SpeechLocale.zhCN), ("999999999999.99", .zhCN), ("123456789012.34", .zhCN),
        ("99999999.99", .enUS), ("777777777777.77", .enUS),
    ])
    func noSampleBeatsItAtLargeMaxima(maximum text: String, locale: SpeechLocale) throws {
        let frames = Self.frames(seed: 11)
        let maximum = try Amount(text)
        let found = LongestAnnouncement.search(upTo: maximum, locale: locale, prefix: "received", frames: frames, gapFrames: 5, objective: .duration)
        let clips = ["received"] + locale.read(found.amount, options: ReadingOptions())
        #expect(Self.measure(clips, frames, gap: 5).frames == found.frames)
        #expect(found.amount <= maximum)
        var generator = SplitMix64(seed: 12)
        for _ in 0..<20_000 {
            let amount = try Amount(minorUnits: Int64(generator.next() % UInt64(maximum.minorUnits + 1)))
            let measured = Self.measure(["received"] + locale.read(amount, options: ReadingOptions()), frames, gap: 5)
            #expect(measured.frames <= found.frames, "\(amount)")
            if measured.frames > found.frames { break }
        }
    }

    /// With every clip equally long, the longest zh-CN reading below 10^8 has the most tokens:
    /// 收款到账 九千九百九十九万九千九百九十九点九九元 (20 clips with the prefix).
    @Test func equalClipsFindTheMostTokens() throws {
        let frames = Dictionary(uniqueKeysWithValues: (ChineseToken.all.map(\.clipName) + ["received"]).map { ($0, 100) })
        let found = LongestAnnouncement.search(
            upTo: try Amount("99999999.99"), locale: .zhCN, prefix: "received",
            frames: frames, gapFrames: 0, objective: .steps)
        #expect(found.steps == 20)
        #expect(found.frames == 2000)
        #expect(found.amount == (try Amount("11111111.01")), "\(found.amount)")  // ties go to the smallest amount
    }
}

@Suite struct CopiesNeededTests {
    @Test func zhCNNeedsTheDecimalDigits() {
        #expect(SpeechLocale.zhCN.copiesNeeded(prefix: "received") == (1...9).map(String.init))
        #expect(SpeechLocale.zhCN.copiesNeeded(options: ReadingOptions(keepTrailingZeros: true)) == (0...9).map(String.init))
        #expect(SpeechLocale.zhCN.copiesNeeded(options: ReadingOptions(style: .yuanJiaoFen)) == [])
        #expect(SpeechLocale.zhCN.copiesNeeded(suffix: "yuan") == (1...9).map(String.init) + ["yuan"])
        #expect(SpeechLocale.enUS.copiesNeeded() == [])
    }
}

/// The search with speech joins: each clip's speech counts, and the pads of the two ends.
@Suite struct LongestSpeechAnnouncementTests {
    /// Random clips with pads of their own, so that which clip comes first and last matters.
    static func timings(seed: UInt64) -> [String: ClipTiming] {
        var generator = SplitMix64(seed: seed)
        let names = ChineseToken.all.map(\.clipName) + ChineseReading.toneVariants + EnglishReading.clipNames + ["received", "thanks"]
        return Dictionary(
            names.map { name in
                let lead = Int(generator.next() % 300)
                let tail = Int(generator.next() % 300)
                return (name, ClipTiming(frames: lead + tail + 100 + Int(generator.next() % 800), lead: lead, tail: tail))
            }, uniquingKeysWith: { a, _ in a })
    }

    struct Case: Sendable, CustomStringConvertible {
        var maximum: String
        var locale: SpeechLocale
        var reading = ReadingOptions()
        var prefix: String?
        var suffix: String?
        var variants: Set<String> = []
        var gap = 25
        var seed: UInt64
        var description: String { "\(maximum) \(locale.rawValue) \(reading.style) \(prefix ?? "-")/\(suffix ?? "-") \(variants.sorted()) seed \(seed)" }
    }

    static let cases: [Case] = [
        Case(maximum: "0.99", locale: .zhCN, seed: 1), Case(maximum: "12.34", locale: .zhCN, prefix: "received", seed: 2),
        Case(maximum: "1234.56", locale: .zhCN, seed: 3), Case(maximum: "2050.5", locale: .zhCN, suffix: "thanks", seed: 4),
        Case(maximum: "1101.01", locale: .zhCN, reading: ReadingOptions(style: .yuanJiaoFen), seed: 5),
        Case(maximum: "1010.1", locale: .zhCN, reading: ReadingOptions(style: .yuanJiaoFen), prefix: "received", seed: 6),
        Case(maximum: "11010.11", locale: .zhCN, variants: Set(ChineseReading.toneVariants), seed: 7),
        Case(maximum: "1110", locale: .zhCN, prefix: "received", variants: ["1_yi4"], gap: 0, seed: 8),
        Case(maximum: "1001.01", locale: .enUS, seed: 9), Case(maximum: "2100.99", locale: .enUS, prefix: "received", suffix: "thanks", seed: 10),
        Case(maximum: "3001", locale: .enUS, suffix: "thanks", seed: 11),
    ]

    func length(_ testCase: Case, _ minor: Int64, _ timings: [String: ClipTiming]) throws -> Int {
        let reading = testCase.locale.read(try Amount(minorUnits: minor), options: testCase.reading, variants: testCase.variants)
        let clips = [testCase.prefix].compactMap { $0 } + reading + [testCase.suffix].compactMap { $0 }
        return Timeline.length(of: clips.map { timings[$0]! }, gapFrames: testCase.gap)
    }

    /// The search and the first amount over a threshold equal brute force over every amount.
    @Test(arguments: cases)
    func equalsBruteForce(testCase: Case) throws {
        let timings = Self.timings(seed: testCase.seed)
        let maximum = try Amount(testCase.maximum)
        let lengths = try (0...maximum.minorUnits).map { try length(testCase, $0, timings) }
        let longest = lengths.max()!
        let found = LongestAnnouncement.search(
            upTo: maximum, locale: testCase.locale, reading: testCase.reading, variants: testCase.variants, prefix: testCase.prefix,
            suffix: testCase.suffix, timings: timings, gapFrames: testCase.gap, objective: .duration)
        #expect(found.frames == longest)
        #expect(found.amount.minorUnits == Int64(lengths.firstIndex(of: longest)!))
        for threshold in [0, longest / 3, longest / 2, longest * 3 / 4, longest - 1, longest] {
            let first = LongestAnnouncement.firstLonger(
                than: threshold, upTo: maximum, locale: testCase.locale, reading: testCase.reading, variants: testCase.variants,
                prefix: testCase.prefix, suffix: testCase.suffix, timings: timings, gapFrames: testCase.gap)
            #expect(first?.minorUnits == lengths.firstIndex { $0 > threshold }.map(Int64.init), "over \(threshold)")
            // The longest that still fits the threshold, and the smallest amount that long.
            let within = LongestAnnouncement.longestWithin(
                threshold, upTo: maximum, locale: testCase.locale, reading: testCase.reading, variants: testCase.variants,
                prefix: testCase.prefix, suffix: testCase.suffix, timings: timings, gapFrames: testCase.gap)
            let fitting = lengths.filter { $0 <= threshold }.max()
            #expect(within?.frames == fitting, "within \(threshold)")
            #expect(within?.amount.minorUnits == fitting.flatMap { lengths.firstIndex(of: $0) }.map(Int64.init), "within \(threshold)")
        }
    }

    /// The planner places the clips as the search measures them.
    @Test func thePlansLengthIsTheSearchs() throws {
        var manifest = FakeSets.manifest()
        var generator = SplitMix64(seed: 21)
        for index in manifest.clips.indices {
            let frames = manifest.clips[index].frames
            let start = Int(generator.next() % 60)
            manifest.clips[index].speech = Manifest.Speech(start: start, end: frames - Int(generator.next() % 60))
        }
        manifest.announcement = AnnouncementSettings(prefix: "received", join: .speech, gapMs: 25)
        let timings = Dictionary(uniqueKeysWithValues: manifest.clips.map { ($0.name, ClipTiming($0, join: .speech)) })
        let found = LongestAnnouncement.search(
            upTo: try Amount("99999999.99"), locale: .zhCN, prefix: "received", timings: timings, gapFrames: 25, objective: .duration)
        let plan = try Planner(manifest: manifest).plan(found.amount)
        #expect(plan.totalFrames == found.frames)
    }
}

/// 一 in its changed tones, when the set has the takes.
@Suite struct ToneVariantTests {
    static let both = Set(ChineseReading.toneVariants)

    @Test(arguments: [
        ("10000", "1_yi2 ten_thousand yuan"), ("1000", "1_yi4 thousand yuan"), ("110", "1_yi4 hundred 1_yi4 ten yuan"),
        ("11", "ten 1 yuan"), ("0.1", "0 point 1 yuan"), ("100000000", "1_yi2 hundred_million yuan"),
        ("110000", "ten 1_yi2 ten_thousand yuan"), ("101", "1_yi4 hundred 0 1 yuan"), ("1.1", "1 point 1 yuan"),
        ("10000000", "1_yi4 thousand ten_thousand yuan"), ("11000", "1_yi2 ten_thousand 1_yi4 thousand yuan"),
    ])
    func readsTheIssuesVectors(amount: String, tokens: String) throws {
        #expect(SpeechLocale.zhCN.read(try Amount(amount), variants: Self.both).joined(separator: " ") == tokens)
        // Without the takes, every 一 is `1`.
        #expect(SpeechLocale.zhCN.read(try Amount(amount)).joined(separator: " ") == tokens.replacingOccurrences(of: "1_yi2", with: "1").replacingOccurrences(of: "1_yi4", with: "1"))
    }

    @Test func eachTakeIsUsedOnItsOwn() throws {
        #expect(SpeechLocale.zhCN.read(try Amount("11000"), variants: ["1_yi4"]).joined(separator: " ") == "1 ten_thousand 1_yi4 thousand yuan")
        #expect(SpeechLocale.zhCN.read(try Amount("11000"), variants: ["1_yi2"]).joined(separator: " ") == "1_yi2 ten_thousand 1 thousand yuan")
    }

    /// The planner uses the takes the set has, and the check's completeness does not ask for them.
    @Test func thePlannerUsesTheTakesTheSetHas() throws {
        var manifest = FakeSets.manifest()
        #expect(try Planner(manifest: manifest).plan(try Amount("10000")).tokens == ["received", "1", "ten_thousand", "yuan"])
        var variant = manifest.clips[1]
        variant.name = "1_yi2"
        variant.file = "1_yi2.caf"
        variant.copy = nil
        manifest.clips.append(variant)
        #expect(try Planner(manifest: manifest).plan(try Amount("10000")).tokens == ["received", "1_yi2", "ten_thousand", "yuan"])
        #expect(try Planner(manifest: manifest).plan(try Amount("1000")).tokens == ["received", "1", "thousand", "yuan"])
    }

    /// No variant can follow itself, so none needs a copy.
    @Test func variantsNeedNoCopies() {
        #expect(SpeechLocale.zhCN.copiesNeeded(prefix: "received", variants: Self.both) == (1...9).map(String.init))
    }
}


/// The Copy rule's list of clips that can follow themselves, found from a few amounts, against every
/// whole part of the search with every cents (once per reading: the neighbours inside it, and its
/// first and last clips, which a prefix or suffix of the same name would follow or precede).
@Suite struct CopiesNeededSearchTests {
    struct Everything { var inner: Set<String> = [], first: Set<String> = [], last: Set<String> = [] }

    static func everyCents(_ locale: SpeechLocale, options: ReadingOptions, variants: Set<String>) -> Everything {
        var wholes = Array(Int64(0)...120)
        for scale in [Int64(10_000), 100_000_000, 100_000_000_000] {
            wholes += [1, 2, 10, 11, 12, 20, 101, 110, 1001, 1010, 1100, 2002].map { $0 * scale }
            wholes += [scale + 1, scale + 10, scale * 10 + 1]
        }
        var found = Everything()
        for whole in wholes where whole < 1_000_000_000_000 {
            for cents in Int64(0)...99 {
                let names = locale.read(try! Amount(minorUnits: whole * 100 + cents), options: options, variants: variants)
                for (a, b) in zip(names, names.dropFirst()) where a == b { found.inner.insert(a) }
                if let first = names.first, let last = names.last { (found.first, found.last) = (found.first.union([first]), found.last.union([last])) }
            }
        }
        return found
    }

    @Test func aFewAmountsFindWhatEveryCentsFinds() {
        let chinese = [
            ReadingOptions(), ReadingOptions(keepTrailingZeros: true), ReadingOptions(useLiang: true), ReadingOptions(style: .yuanJiaoFen),
            ReadingOptions(style: .yuanJiaoFen, useLiang: true),
        ]
        var compared = 0
        for (locale, optionSets) in [(SpeechLocale.zhCN, chinese), (.enUS, [ReadingOptions()])] {
            for options in optionSets {
                for variants in locale == .zhCN ? [Set<String>(), Set(locale.optionalClipNames)] : [[]] {
                    let all = Self.everyCents(locale, options: options, variants: variants)
                    for prefix in [nil, "received", "1", "0"] as [String?] {
                        for suffix in [nil, "yuan", "fen"] as [String?] {
                            var expected = all.inner
                            if let prefix, all.first.contains(prefix) { expected.insert(prefix) }
                            if let suffix, all.last.contains(suffix) { expected.insert(suffix) }
                            let fast = locale.copiesNeeded(options: options, prefix: prefix, suffix: suffix, variants: variants)
                            #expect(fast == expected.sorted(), "\(locale) \(options) \(prefix ?? "-") \(suffix ?? "-")")
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared == (5 * 2 + 1) * 4 * 3)
    }
}
