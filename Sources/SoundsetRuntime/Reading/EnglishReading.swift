/// The en-US reading of amounts, in Asterisk telephony prompt names: `0`-`19`, `20` ... `90`,
/// `hundred`, `thousand`, `million`, `billion`, `dollar`, `dollars`, `and`, `cent`, `cents`.
public enum EnglishReading {
    /// Every clip name the reading can use.
    public static let clipNames: [String] = (0...19).map(String.init) + stride(from: 20, through: 90, by: 10).map(String.init)
        + ["hundred", "thousand", "million", "billion", "dollar", "dollars", "and", "cent", "cents"]

    /// The clip names that read `amount`: `1 dollar and 1 cent`, `21` as `20 1`, `0 cents`.
    public static func clips(for amount: Amount) -> [String] {
        let dollars = amount.integerPart
        let cents = Int64(amount.fraction)
        if dollars == 0 && cents == 0 { return ["0", "cents"] }
        var clips: [String] = []
        if dollars > 0 {
            clips += number(dollars) + [dollars == 1 ? "dollar" : "dollars"]
            if cents > 0 { clips.append("and") }
        }
        if cents > 0 { clips += number(cents) + [cents == 1 ? "cent" : "cents"] }
        return clips
    }

    /// A whole number below 10^12, without "and".
    static func number(_ value: Int64) -> [String] {
        if value < 20 { return [String(value)] }
        if value < 100 { return [String(value / 10 * 10)] + (value % 10 == 0 ? [] : [String(value % 10)]) }
        if value < 1000 { return [String(value / 100), "hundred"] + (value % 100 == 0 ? [] : number(value % 100)) }
        for (size, name) in [(Int64(1_000_000_000), "billion"), (1_000_000, "million"), (1000, "thousand")] where value >= size {
            return number(value / size) + [name] + (value % size == 0 ? [] : number(value % size))
        }
        return []
    }
}
