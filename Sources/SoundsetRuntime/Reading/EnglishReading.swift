/// The en-US reading of amounts, in Asterisk telephony prompt names: `0`-`19`, `20` ... `90`,
/// `hundred`, `thousand`, `million`, `billion`, `dollar`, `dollars`, `and`, `cent`, `cents`.
public enum EnglishReading {
    /// Every clip name the reading can use.
    public static let clipNames: [String] =
        (0...19).map(String.init) + stride(from: 20, through: 90, by: 10).map(String.init)
        + ["hundred", "thousand", "million", "billion", "dollar", "dollars", "and", "cent", "cents"]

    /// The clip names that read `amount`: `1 dollar and 1 cent`, `21` as `20 1`, `0 cents`.
    public static func clips(for amount: Amount) -> [String] {
        EnglishLocale().read(amount)
    }

    /// `number cent(s)` for 1-99 cents.
    static func centClips(_ cents: Int) -> [String] {
        groupClips(cents, scale: scaleNames.count - 1) + [cents == 1 ? "cent" : "cents"]
    }

    /// The scale word of each three-digit group, highest first.
    static let scaleNames = ["billion", "million", "thousand", nil]

    /// The clips of one group `value` (0-999) with its scale word; nothing for 0.
    static func groupClips(_ value: Int, scale: Int) -> [String] {
        guard value > 0 else { return [] }
        return belowThousand(value) + (scaleNames[scale].map { [$0] } ?? [])
    }

    /// 1-999: `7`, `20 1`, `3 hundred 15`.
    static func belowThousand(_ value: Int) -> [String] {
        if value < 20 { return [String(value)] }
        if value < 100 { return [String(value / 10 * 10)] + (value % 10 == 0 ? [] : [String(value % 10)]) }
        return [String(value / 100), "hundred"] + (value % 100 == 0 ? [] : belowThousand(value % 100))
    }
}

/// en-US: what it records, how it reads and how the report writes it (`LocaleReading`). The
/// reading options are zh-CN's: en-US has one reading.
package struct EnglishLocale: LocaleReading {
    package init() {}

    package var tag: String { SpeechLocale.enUS.rawValue }

    /// The cents, or `0 cents`.
    package func belowOne(_ cents: Int, options: ReadingOptions) -> [String] {
        cents == 0 ? ["0", "cents"] : EnglishReading.centClips(cents)
    }

    package func wholeMachine(options: ReadingOptions, variants: Set<String>) -> WholeMachine { WholeMachine() }

    /// Nothing, or `and` and the cents.
    package func fraction(_ cents: Int, options: ReadingOptions) -> [String] {
        cents == 0 ? [] : ["and"] + EnglishReading.centClips(cents)
    }

    /// Three-digit groups, each followed by its scale (`3 hundred 15 thousand 20 1`), then `dollar`
    /// or `dollars`.
    package struct WholeMachine: WholeReadingMachine {
        /// The value read so far, capped at 2: enough to choose dollar or dollars.
        var soFar = 0
        package var base: Int { 1000 }
        package var positions: Int { EnglishReading.scaleNames.count }
        package var started: Bool { soFar > 0 }
        package mutating func read(_ group: Int, at position: Int) -> [String] {
            soFar = soFar > 0 ? 2 : min(group, 2)
            return EnglishReading.groupClips(group, scale: position)
        }
        package func end() -> [String]? { soFar == 0 ? nil : [soFar == 1 ? "dollar" : "dollars"] }
    }

    /// Two digits can be one word (thirteen, forty).
    package var sampleDigitRuns: [Int64] { [10, 100] }
    package var pageLanguage: String { "en" }
    package var wordJoiner: String { " " }
    package var characterWidth: Double { 6.5 }
    package var pronunciationTitle: String? { nil }
    package var otherSpellings: [String: String] { [:] }

    package var clipEntries: [ClipGuide.Entry] { Self.entries }

    private static let entries: [ClipGuide.Entry] =
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
            "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ].enumerated().map { ClipGuide.Entry(name: String($0.offset), says: $0.element, pronounced: nil, need: .always, note: nil) }
        + [("20", "twenty"), ("30", "thirty"), ("40", "forty"), ("50", "fifty"), ("60", "sixty"), ("70", "seventy"), ("80", "eighty"), ("90", "ninety")]
        .map { ClipGuide.Entry(name: $0.0, says: $0.1, pronounced: nil, need: .always, note: nil) }
        + ["hundred", "thousand", "million", "billion", "dollar", "dollars", "and", "cent", "cents"].map {
            ClipGuide.Entry(name: $0, says: $0, pronounced: nil, need: .always, note: nil)
        }
        + [ClipGuide.Entry(name: "received", says: "payment received", pronounced: nil, need: .phrase, note: "a prefix; any clip name will do")]
}
