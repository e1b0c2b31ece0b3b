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
