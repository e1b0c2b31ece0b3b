/// The en-US reading of amounts, in Asterisk telephony prompt names: `0`-`19`, `20` ... `90`,
/// `hundred`, `thousand`, `million`, `billion`, `dollar`, `dollars`, `and`, `cent`, `cents`.
public enum EnglishReading {
    /// Every clip name the reading can use.
    public static let clipNames: [String] =
        (0...19).map(String.init) + stride(from: 20, through: 90, by: 10).map(String.init)
        + ["hundred", "thousand", "million", "billion", "dollar", "dollars", "and", "cent", "cents"]

    /// The clip names that read `amount`: `1 dollar and 1 cent`, `21` as `20 1`, `0 cents`.
    public static func clips(for amount: Amount) -> [String] {
        let dollars = amount.integerPart
        if dollars == 0 {
            return amount.fraction == 0 ? ["0", "cents"] : centClips(amount.fraction)
        }
        return dollarClips(dollars) + fractionClips(amount.fraction, afterDollars: true)
    }

    /// `number dollar(s)` for 1 or more dollars.
    package static func dollarClips(_ dollars: Int64) -> [String] {
        number(dollars) + [dollars == 1 ? "dollar" : "dollars"]
    }

    /// What the cents add after the dollars: nothing, or `and` and the cents.
    package static func fractionClips(_ cents: Int, afterDollars: Bool) -> [String] {
        cents == 0 ? [] : (afterDollars ? ["and"] : []) + centClips(cents)
    }

    static func centClips(_ cents: Int) -> [String] {
        number(Int64(cents)) + [cents == 1 ? "cent" : "cents"]
    }

    /// A whole number below 10^12, without "and": three-digit groups, each followed by its scale.
    static func number(_ value: Int64) -> [String] {
        if value == 0 { return ["0"] }
        var clips: [String] = []
        for (index, size) in groupSizes.enumerated() {
            clips += groupClips(Int(value / size % 1000), scale: index)
        }
        return clips
    }

    /// Size of each three-digit group, highest first.
    package static let groupSizes: [Int64] = [1_000_000_000, 1_000_000, 1000, 1]
    static let scaleNames = ["billion", "million", "thousand", nil]

    /// The clips of one group `value` (0-999) with its scale word; nothing for 0.
    package static func groupClips(_ value: Int, scale: Int) -> [String] {
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
