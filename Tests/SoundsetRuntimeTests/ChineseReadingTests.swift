import SoundsetRuntime
import Testing

/// Every example in the reading rules, written as characters (digits as digits, 一 as 1).
@Suite struct ChineseReadingTests {
    func read(_ text: String, _ options: ReadingOptions = ReadingOptions()) throws -> String {
        ChineseReading.tokens(for: try Amount(text), options: options).map(\.symbol).joined()
    }

    @Test(arguments: [
        ("100001000", "1亿01千元"), ("100010000", "1亿01万元"), ("1010", "1千01十元"), ("10001000", "1千万1千元"),
        ("10", "十元"), ("11", "十1元"), ("100000", "十万元"), ("1000000000", "十亿元"), ("110", "1百1十元"),
        ("0.5", "0点5元"), ("0", "0元"), ("1.00", "1元"), ("1.50", "1点5元"), ("1.05", "1点05元"), ("20000.02", "2万点02元"),
        ("10000100", "1千万01百元"), ("100000001000", "1千亿01千元"), ("1001", "1千01元"), ("100", "1百元"),
        ("999999999999.99", "9千9百9十9亿9千9百9十9万9千9百9十9点99元"), ("101010101", "1亿01百01万01百01元"),
        ("110000", "十1万元"), ("1100000000", "十1亿元"),
    ])
    func pointStyle(amount: String, reading: String) throws {
        #expect(try read(amount) == reading)
    }

    @Test(arguments: [("1.50", "1点50元"), ("1.00", "1点00元"), ("1", "1点00元"), ("0.5", "0点50元")])
    func keepTrailingZeros(amount: String, reading: String) throws {
        #expect(try read(amount, ReadingOptions(keepTrailingZeros: true)) == reading)
    }

    @Test(arguments: [
        ("200", "两百元"), ("2200", "两千两百元"), ("20000", "两万元"), ("22000", "两万两千元"), ("200000000", "两亿元"),
        ("120000", "十2万元"), ("220000", "2十2万元"), ("2", "2元"), ("20", "2十元"), ("2.22", "2点22元"),
        ("2002", "两千02元"), ("20000000", "两千万元"), ("200020000", "两亿0两万元"),
    ])
    func useLiang(amount: String, reading: String) throws {
        #expect(try read(amount, ReadingOptions(useLiang: true)) == reading)
    }

    @Test(arguments: [
        ("1.05", "1元05分"), ("0.5", "5角"), ("120.5", "1百2十元5角"), ("100.01", "1百元01分"), ("0.05", "5分"),
        ("0.55", "5角5分"), ("1", "1元"), ("0", "0元"), ("1.5", "1元5角"),
    ])
    func yuanJiaoFen(amount: String, reading: String) throws {
        #expect(try read(amount, ReadingOptions(style: .yuanJiaoFen)) == reading)
    }

    @Test func clipNamesOfEveryToken() {
        #expect(
            ChineseToken.all.map(\.clipName) == [
                "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "ten", "hundred", "thousand",
                "ten_thousand", "hundred_million", "point", "yuan", "liang", "jiao", "fen",
            ])
    }
}

@Suite struct EnglishReadingTests {
    @Test(arguments: [
        ("0", "0 cents"), ("0.01", "1 cent"), ("0.5", "50 cents"), ("2.5", "2 dollars and 50 cents"), ("1", "1 dollar"),
        ("1.01", "1 dollar and 1 cent"), ("21", "20 1 dollars"), ("115", "1 hundred 15 dollars"),
        ("1000001", "1 million 1 dollars"),
        ("999999999999.99", "9 hundred 90 9 billion 9 hundred 90 9 million 9 hundred 90 9 thousand 9 hundred 90 9 dollars and 90 9 cents"),
        ("12000", "12 thousand dollars"), ("100000000000", "1 hundred billion dollars"),
    ])
    func reads(amount: String, clips: String) throws {
        #expect(EnglishReading.clips(for: try Amount(amount)).joined(separator: " ") == clips)
    }
}

@Suite struct CopyRuleTests {
    @Test func alternatesAgainstTheEmittedName() {
        #expect(CopyRule.apply(["2", "2", "2", "yuan"]) == ["2", "2Copy", "2", "yuan"])
        #expect(CopyRule.apply(["2", "2", "2", "2"]) == ["2", "2Copy", "2", "2Copy"])
        #expect(CopyRule.apply(["a", "b", "a"]) == ["a", "b", "a"])
        #expect(CopyRule.apply([]) == [])
    }
}
