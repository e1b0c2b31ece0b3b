import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// A second, independent reading of whole numbers, built the textbook way on strings: write every
/// digit with its place (zeros as 零), then collapse runs of 零, drop 零 before 万 and 亿 and at the
/// ends, and read a leading 一十 as 十. The library's reader walks digits instead; the two must agree.
enum TextbookReading {
    static let digits = Array("零一二三四五六七八九")

    static func read(_ number: Int64) -> String {
        if number == 0 { return "零" }
        let groups = [(number / 100_000_000, "亿"), ((number / 10_000) % 10_000, "万"), (number % 10_000, "")]
        var text = ""
        for (value, unit) in groups {
            if value == 0 { text += "零"; continue }
            let places = ["千", "百", "十", ""]
            for (index, digit) in [value / 1000, value / 100 % 10, value / 10 % 10, value % 10].enumerated() {
                text += digit == 0 ? "零" : String(digits[Int(digit)]) + places[index]
            }
            text += unit
        }
        while text.contains("零零") { text = text.replacingOccurrences(of: "零零", with: "零") }
        text = text.replacingOccurrences(of: "零万", with: "万").replacingOccurrences(of: "零亿", with: "亿")
        while text.hasPrefix("零") { text.removeFirst() }
        while text.hasSuffix("零") { text.removeLast() }
        if text.hasPrefix("一十") { text.removeFirst() }
        return text
    }

    /// The library's tokens for a whole number, written the same way.
    static func library(_ number: Int64) throws -> String {
        let tokens = ChineseReading.tokens(for: try Amount(minorUnits: number * 100))
        return tokens.dropLast().map { token in
            if case .digit(let value) = token { String(digits[value]) } else { token.symbol }
        }.joined()
    }
}

/// Every whole amount up to 2,000,000 read exhaustively, and amounts up to 10^12 sampled at random
/// (100,000 of them, in every style): both against the textbook reading.
@Suite struct ReadingAgainstTheTextbookTests {
    /// Every whole amount from 0 to 2,000,000 yuan: the reading matches the textbook reading, uses only
    /// clips of the zh-CN list, and needs no copy (only decimals can repeat a clip).
    @Test(arguments: stride(from: Int64(0), to: 2_000_001, by: 500_000).map { $0..<min($0 + 500_000, 2_000_001) })
    func everyYuanUpToTwoMillion(range: Range<Int64>) throws {
        let allowed = Set(SpeechLocale.zhCN.clipNames())
        var mismatches: [Int64] = []
        for number in range {
            let tokens = ChineseReading.tokens(for: try Amount(minorUnits: number * 100))
            let names = tokens.map(\.clipName)
            if CopyRule.apply(names) != names || !names.allSatisfy(allowed.contains) { mismatches.append(number); continue }
            if number % 7 == 0 || number < 200_000, try TextbookReading.library(number) != TextbookReading.read(number) {
                mismatches.append(number)
            }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

    /// The clip guide asks for exactly what the readings use: every clip it lists as needed for a
    /// set of options is read in some amount with them, and nothing else is (the other direction is
    /// the random amounts below); its optional clips are read only when the set has them.
    @Test(arguments: [
        ReadingOptions(), ReadingOptions(keepTrailingZeros: true), ReadingOptions(useLiang: true), ReadingOptions(style: .yuanJiaoFen),
        ReadingOptions(style: .yuanJiaoFen, useLiang: true),
    ])
    func theGuideAsksForWhatTheReadingsUse(options: ReadingOptions) throws {
        let amounts = try ["0", "0.01", "0.1", "1.5", "2", "10", "12", "22", "200", "2000", "20000", "200000000", "123456789.09", "999999999999.99", "110", "1000"].map { try Amount($0) }
        var read: Set<String> = []
        for amount in amounts { read.formUnion(SpeechLocale.zhCN.read(amount, options: options)) }
        #expect(read == Set(ClipGuide.of(.zhCN).needed(options: options)), "\(options)")
        let variants = Set(SpeechLocale.zhCN.optionalClipNames)
        var withVariants: Set<String> = []
        for amount in amounts { withVariants.formUnion(SpeechLocale.zhCN.read(amount, options: options, variants: variants)) }
        #expect(withVariants.subtracting(read) == variants)
        var english: Set<String> = []
        for amount in try (0...100).map({ try Amount(minorUnits: $0 * 101) }) + ["1000", "1000000", "1000000000"].map({ try Amount($0) }) {
            english.formUnion(EnglishReading.clips(for: amount))
        }
        #expect(english == Set(ClipGuide.of(.enUS).needed(options: options)))
    }

    /// 100,000 random amounts below 10^12 with two decimals, in every style: no two equal adjacent clip
    /// names after the Copy rule, every clip in the locale's list, and the whole part as the textbook reads it.
    @Test func randomAmountsBelowATrillion() throws {
        var generator = SplitMix64(seed: 20261129)
        let styles = [ReadingOptions(), ReadingOptions(keepTrailingZeros: true), ReadingOptions(style: .yuanJiaoFen, useLiang: true)]
        var failures: [String] = []
        for index in 0..<100_000 {
            let amount = try Amount(minorUnits: Int64(generator.next() % UInt64(Amount.maxMinorUnits + 1)))
            let options = styles[index % styles.count]
            let names = SpeechLocale.zhCN.read(amount, options: options)
            let allowed = Set(SpeechLocale.zhCN.clipNames(options: options))
            let clips = CopyRule.apply(names)
            let adjacent = zip(clips, clips.dropFirst()).contains { $0 == $1 }
            if adjacent || !names.allSatisfy(allowed.contains) { failures.append("\(amount)") }
            if index % 3 == 0, amount.integerPart > 0 {
                let whole = ChineseReading.tokens(for: try Amount(minorUnits: amount.integerPart * 100)).dropLast()
                    .map { if case .digit(let v) = $0 { String(TextbookReading.digits[v]) } else { $0.symbol } }.joined()
                if whole != TextbookReading.read(amount.integerPart) { failures.append("\(amount) whole part") }
            }
            let english = CopyRule.apply(EnglishReading.clips(for: amount))
            if zip(english, english.dropFirst()).contains(where: { $0 == $1 }) || !english.allSatisfy(EnglishReading.clipNames.contains) {
                failures.append("\(amount) en-US")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func textbookSpotChecks() {
        #expect(TextbookReading.read(100001000) == "一亿零一千")
        #expect(TextbookReading.read(10001000) == "一千万一千")
        #expect(TextbookReading.read(100000) == "十万")
    }
}
