import Foundation
import SoundsetRuntime
import Testing

/// The report's default samples: a few amounts up to the set's maxAmount that together use every
/// clip a reading up to it can use.
@Suite struct SampleAmountsTests {
    /// Every clip the readings of every amount from 0 to `maximum` use: every whole part with no
    /// cents, and every cents with the whole parts that read them differently (none, one, more); a
    /// reading is its whole part's clips, then its fraction's.
    static func everyClip(upTo maximum: Amount, locale: SpeechLocale, reading: ReadingOptions, variants: Set<String>) -> Set<String> {
        var clips = Set<String>()
        for whole in 0...maximum.integerPart { clips.formUnion(locale.read(try! Amount(minorUnits: whole * 100), options: reading, variants: variants)) }
        for whole: Int64 in [0, 1, 2, 10, 11] {
            for cents: Int64 in 0...99 { clips.formUnion(locale.read(try! Amount(minorUnits: whole * 100 + cents), options: reading, variants: variants)) }
        }
        return clips
    }

    static let small: [(String, SpeechLocale, ReadingOptions, Set<String>)] = [
        ("zh-CN", .zhCN, ReadingOptions(), []),
        ("zh-CN yuanJiaoFen liang", .zhCN, ReadingOptions(style: .yuanJiaoFen, useLiang: true), []),
        ("zh-CN tones", .zhCN, ReadingOptions(), Set(ChineseReading.toneVariants)),
        ("en-US", .enUS, ReadingOptions(), []),
    ]

    /// Up to 2,000.99 every amount is read, and the samples use exactly the clips they all use.
    @Test(arguments: small.map(\.0)) func theSamplesUseEveryClipEveryAmountUses(_ name: String) throws {
        let (_, locale, reading, variants) = try #require(Self.small.first { $0.0 == name })
        let maximum = try Amount("2000.99")
        let samples = SampleAmounts.covering(upTo: maximum, locale: locale, reading: reading, variants: variants)
        let heard = Set(samples.flatMap { locale.read($0, options: reading, variants: variants) })
        #expect(heard == Self.everyClip(upTo: maximum, locale: locale, reading: reading, variants: variants))
        #expect(samples.allSatisfy { $0 <= maximum })
        // A Chinese amount says many words; an English one few (its numbers up to 19 and its tens are words of their own).
        #expect(samples.count <= (locale == .zhCN ? 4 : 12), "\(samples)")
        #expect(samples == samples.sorted())
    }

    /// The demo's maxAmount (99,999.99): its 16 words in two or three amounts, none above it (the old
    /// default 99999999.99 was, and 3, 4, 6, 7 and 8 were never heard).
    @Test func theDemosSamplesStayWithinItsMaximumAndSayEveryWord() throws {
        let maximum = try Amount("99999.99")
        let samples = SampleAmounts.covering(upTo: maximum, locale: .zhCN)
        let heard = Set(samples.flatMap { SpeechLocale.zhCN.read($0) })
        let words = Set((0...9).map(String.init) + ["ten", "hundred", "thousand", "ten_thousand", "point", "yuan"])
        #expect(heard == words)
        #expect(samples.allSatisfy { $0 <= maximum })
        #expect(samples.count <= 3, "\(samples)")
    }

    /// Up to 99,999,999.99 with every optional clip: 亿, 两, and both tones of 一.
    @Test func aLargeMaximumReachesEveryUnitAndTone() throws {
        let maximum = try Amount("99999999999.99")
        let reading = ReadingOptions(useLiang: true)
        let variants = Set(ChineseReading.toneVariants)
        let samples = SampleAmounts.covering(upTo: maximum, locale: .zhCN, reading: reading, variants: variants)
        let heard = Set(samples.flatMap { SpeechLocale.zhCN.read($0, options: reading, variants: variants) })
        #expect(heard == Set(SpeechLocale.zhCN.clipNames(options: reading)).union(variants))
        #expect(samples.count <= 6, "\(samples)")
        let english = SampleAmounts.covering(upTo: maximum, locale: .enUS)
        #expect(Set(english.flatMap { SpeechLocale.enUS.read($0) }) == Set(SpeechLocale.enUS.clipNames()))
        #expect(english.count <= 8, "\(english)")
    }

    /// A phrase is heard only where the announcement keeps it: when every sample that uses the most
    /// words loses it (over the banner), a short amount that keeps it is added.
    @Test func aPhraseDroppedFromLongAmountsGetsAShortSample() throws {
        let maximum = try Amount("99999.99")
        // As the announcer plays it: the prefix only with at most six words.
        let plays = { (amount: Amount) -> [String]? in
            let words = SpeechLocale.zhCN.read(amount)
            return words.count <= 6 ? ["received"] + words : words
        }
        let samples = SampleAmounts.covering(upTo: maximum, locale: .zhCN, phrases: ["received"], plays: plays)
        #expect(samples.contains { plays($0)!.contains("received") }, "\(samples)")
        #expect(Set(samples.flatMap { SpeechLocale.zhCN.read($0) }).count == 16)
    }

    /// The same set always gets the same samples.
    @Test func theSamplesAreTheSameEveryTime() throws {
        let maximum = try Amount("99999.99")
        #expect(SampleAmounts.covering(upTo: maximum, locale: .zhCN) == SampleAmounts.covering(upTo: maximum, locale: .zhCN))
    }
}
