/// One spoken unit of a zh-CN reading.
public enum ChineseToken: Hashable, Sendable {
    case digit(Int)
    case ten, hundred, thousand, tenThousand, hundredMillion, point, yuan, liang, jiao, fen
    /// 一 in the second tone, yí: directly before 万 or 亿 (一万, 十一万, 一亿), when the set has the take.
    case yi2
    /// 一 in the fourth tone, yì: directly before 十, 百 or 千 (一百, 一千, 一百一十), when the set has the take.
    case yi4

    /// Every token, in clip-list order.
    public static let all: [ChineseToken] =
        (0...9).map(ChineseToken.digit)
        + [.ten, .hundred, .thousand, .tenThousand, .hundredMillion, .point, .yuan, .liang, .jiao, .fen]

    /// The default clip name: `0`-`9`, `ten`, `hundred`, `thousand`, `ten_thousand`,
    /// `hundred_million`, `point`, `yuan`, `liang`, `jiao`, `fen`.
    public var clipName: String {
        switch self {
        case .digit(let value): String(value)
        case .ten: "ten"
        case .hundred: "hundred"
        case .thousand: "thousand"
        case .tenThousand: "ten_thousand"
        case .hundredMillion: "hundred_million"
        case .point: "point"
        case .yuan: "yuan"
        case .liang: "liang"
        case .jiao: "jiao"
        case .fen: "fen"
        case .yi2: "1_yi2"
        case .yi4: "1_yi4"
        }
    }

    /// How the token is written: the digit, or its character (十 百 千 万 亿 点 元 两 角 分).
    public var symbol: String {
        switch self {
        case .digit(let value): String(value)
        case .ten: "十"
        case .hundred: "百"
        case .thousand: "千"
        case .tenThousand: "万"
        case .hundredMillion: "亿"
        case .point: "点"
        case .yuan: "元"
        case .liang: "两"
        case .jiao: "角"
        case .fen: "分"
        case .yi2, .yi4: "1"
        }
    }
}

/// The zh-CN reading of amounts (see the README for the rules and their examples).
public enum ChineseReading {
    /// The optional takes of 一 in its changed tones, `1_yi2` and `1_yi4`: a set that has them is
    /// read with them where Mandarin changes the tone; anywhere else, and without them, `1` is read.
    public static let toneVariants = [ChineseToken.yi2.clipName, ChineseToken.yi4.clipName]

    /// The tokens that read `amount` with `options`.
    /// - Parameter variants: the tone variants of 一 the set has (`toneVariants`).
    public static func tokens(for amount: Amount, options: ReadingOptions = ReadingOptions(), variants: Set<String> = []) -> [ChineseToken] {
        let integer = amount.integerPart
        if integer == 0 { return belowOneTokens(amount.fraction, options: options) }
        return wholeTokens(integer, options: options, variants: variants) + fractionTokens(amount.fraction, afterInteger: true, options: options)
    }

    /// What an amount below 1 says: its `fraction` (0-99 分), with 零 where nothing else is said.
    static func belowOneTokens(_ fraction: Int, options: ReadingOptions) -> [ChineseToken] {
        switch options.style {
        case .point: return [.digit(0)] + fractionTokens(fraction, afterInteger: false, options: options)
        case .yuanJiaoFen: return fraction == 0 ? [.digit(0), .yuan] : fractionTokens(fraction, afterInteger: false, options: options)
        }
    }

    /// What a whole part of 1 or more says before the fraction: the number, and 元 in yuanJiaoFen style.
    /// (`package`: the worst-case search in SoundsetBudget reads with it.)
    package static func wholeTokens(_ integer: Int64, options: ReadingOptions, variants: Set<String> = []) -> [ChineseToken] {
        integerTokens(integer, reader: IntegerReader(useLiang: options.useLiang, variants: variants)) + wholeEnd(options.style)
    }

    /// What ends a whole part of 1 or more: 元 in yuanJiaoFen style; in point style the fraction says it.
    static func wholeEnd(_ style: ReadingOptions.Style) -> [ChineseToken] {
        style == .yuanJiaoFen ? [.yuan] : []
    }

    /// What the fraction (0-99 分) adds after the whole part, up to the end of the reading.
    /// - Parameter afterInteger: a whole part was spoken before it (decides 零 before 分).
    package static func fractionTokens(_ fraction: Int, afterInteger: Bool, options: ReadingOptions) -> [ChineseToken] {
        let tenths = fraction / 10
        let hundredths = fraction % 10
        switch options.style {
        case .point:
            var decimals = [tenths, hundredths]
            if !options.keepTrailingZeros {
                while decimals.last == 0 { decimals.removeLast() }
            }
            return (decimals.isEmpty ? [] : [.point] + decimals.map(ChineseToken.digit)) + [.yuan]
        case .yuanJiaoFen:
            var tokens: [ChineseToken] = []
            if tenths > 0 { tokens += [.digit(tenths), .jiao] }
            if hundredths > 0 {
                if tenths == 0 && afterInteger { tokens.append(.digit(0)) }
                tokens += [.digit(hundredths), .fen]
            }
            return tokens
        }
    }

    /// Reads a positive whole number below 10^12 in four-digit groups (亿, 万, ones).
    static func integerTokens(_ number: Int64, reader: IntegerReader) -> [ChineseToken] {
        precondition(number > 0 && number < 1_000_000_000_000)
        var state = reader
        var tokens: [ChineseToken] = []
        var divisor: Int64 = 100_000_000_000
        for position in 0..<IntegerReader.digitCount {
            tokens += state.read(digit: Int(number / divisor % 10), at: position)
            divisor /= 10
        }
        return tokens
    }
}

/// The zh-CN integer reading as a machine that takes the 12 digits from the highest (zeros padding
/// the front) and says what each digit adds. `ChineseReading` reads with it, and the worst-case
/// search walks the same machine, so the two cannot disagree (`package`: the search is in
/// SoundsetBudget, which apps do not link).
package struct IntegerReader: Hashable, Sendable {
    package static let digitCount = 12
    let useLiang: Bool
    /// The set has `1_yi2` (一 before 万 and 亿), `1_yi4` (一 before 十, 百 and 千).
    let yi2: Bool
    let yi4: Bool
    /// Something has been said.
    package private(set) var started = false
    /// A run of zeros stands after the last spoken digit; one 零 is due before the next.
    private(set) var pendingZero = false
    /// The current four-digit group has a non-zero digit.
    private(set) var groupSpoken = false

    package init(useLiang: Bool, variants: Set<String> = []) {
        self.useLiang = useLiang
        yi2 = variants.contains(ChineseToken.yi2.clipName)
        yi4 = variants.contains(ChineseToken.yi4.clipName)
    }

    /// What `digit` at `position` (0 = the 千亿 place, 11 = ones) adds to the reading.
    package mutating func read(digit: Int, at position: Int) -> [ChineseToken] {
        let place = position % 4  // 0 千, 1 百, 2 十, 3 ones
        let unit: ChineseToken? = position == 3 ? .hundredMillion : position == 7 ? .tenThousand : nil
        var tokens: [ChineseToken] = []
        if digit == 0 {
            if started { pendingZero = true }
        } else {
            if pendingZero { tokens.append(.digit(0)); pendingZero = false }
            // A leading 一十 is read 十.
            let leadingTen = !started && digit == 1 && place == 2
            if !leadingTen {
                // 两 for a 2 in the 千 or 百 place, or for a 万/亿 group whose whole value is 2.
                let liang = useLiang && digit == 2 && (place < 2 || (place == 3 && unit != nil && !groupSpoken))
                tokens.append(liang ? .liang : .digit(digit))
            }
            if place < 3 { tokens.append([ChineseToken.thousand, .hundred, .ten][place]) }
            started = true
            groupSpoken = true
        }
        if place == 3 {
            if let unit, groupSpoken {
                tokens.append(unit)
                // Zeros at the end of a group are absorbed by its unit.
                pendingZero = false
            }
            groupSpoken = false
        }
        // 一 changes its tone before a unit: yí before 万 and 亿, yì before 十, 百 and 千.
        if tokens.count >= 2, tokens[tokens.count - 2] == .digit(1) {
            let unit = tokens[tokens.count - 1]
            if yi2, unit == .tenThousand || unit == .hundredMillion { tokens[tokens.count - 2] = .yi2 }
            if yi4, unit == .ten || unit == .hundred || unit == .thousand { tokens[tokens.count - 2] = .yi4 }
        }
        return tokens
    }
}

/// zh-CN: what it records, how it reads and how the report writes it (`LocaleReading`).
package struct ChineseLocale: LocaleReading {
    package init() {}

    package var tag: String { SpeechLocale.zhCN.rawValue }

    package func belowOne(_ cents: Int, options: ReadingOptions) -> [String] {
        ChineseReading.belowOneTokens(cents, options: options).map(\.clipName)
    }

    package func wholeMachine(options: ReadingOptions, variants: Set<String>) -> WholeMachine {
        WholeMachine(reader: IntegerReader(useLiang: options.useLiang, variants: variants), style: options.style)
    }

    package func fraction(_ cents: Int, options: ReadingOptions) -> [String] {
        ChineseReading.fractionTokens(cents, afterInteger: true, options: options).map(\.clipName)
    }

    /// `IntegerReader` digit by digit, and 元 at the end in yuanJiaoFen style.
    package struct WholeMachine: WholeReadingMachine {
        var reader: IntegerReader
        let style: ReadingOptions.Style
        package var base: Int { 10 }
        package var positions: Int { IntegerReader.digitCount }
        package var started: Bool { reader.started }
        package mutating func read(_ digit: Int, at position: Int) -> [String] { reader.read(digit: digit, at: position).map(\.clipName) }
        package func end() -> [String]? { reader.started ? ChineseReading.wholeEnd(style).map(\.clipName) : nil }
    }

    /// A word is one digit's, or its place's.
    package var sampleDigitRuns: [Int64] { [10] }
    package var pageLanguage: String { "zh-CN" }
    package var wordJoiner: String { "" }
    package var characterWidth: Double { 12 }
    package var pronunciationTitle: String? { "pinyin" }

    package var clipEntries: [ClipGuide.Entry] { Self.entries }

    private static let entries: [ClipGuide.Entry] =
        [
            ("0", "零", "líng"), ("1", "一", "yī"), ("2", "二", "èr"), ("3", "三", "sān"), ("4", "四", "sì"), ("5", "五", "wǔ"),
            ("6", "六", "liù"), ("7", "七", "qī"), ("8", "八", "bā"), ("9", "九", "jiǔ"), ("ten", "十", "shí"), ("hundred", "百", "bǎi"),
            ("thousand", "千", "qiān"), ("ten_thousand", "万", "wàn"), ("hundred_million", "亿", "yì"),
        ].map { ClipGuide.Entry(name: $0.0, says: $0.1, pronounced: $0.2, need: .always, note: nil) }
        + [
            ClipGuide.Entry(name: "point", says: "点", pronounced: "diǎn", need: .pointStyle, note: nil),
            ClipGuide.Entry(name: "yuan", says: "元", pronounced: "yuán", need: .always, note: nil),
            ClipGuide.Entry(
                name: "liang", says: "两", pronounced: "liǎng", need: .useLiang, note: "2 in the 千 and 百 places and as a whole 万 or 亿 group"),
            ClipGuide.Entry(name: "jiao", says: "角", pronounced: "jiǎo", need: .yuanJiaoFen, note: nil),
            ClipGuide.Entry(name: "fen", says: "分", pronounced: "fēn", need: .yuanJiaoFen, note: nil),
            ClipGuide.Entry(name: "1_yi2", says: "一", pronounced: "yí", need: .optional, note: "before 万 and 亿: 一万, 十一万, 一亿"),
            ClipGuide.Entry(name: "1_yi4", says: "一", pronounced: "yì", need: .optional, note: "before 十, 百 and 千: 一百, 一千, 一百一十"),
            ClipGuide.Entry(
                name: "received", says: "收款到账", pronounced: "shōukuǎn dàozhàng", need: .phrase, note: "the demo's prefix; any clip name will do"),
        ]

    /// Financial and traditional characters, and 帐 for 账.
    package var otherSpellings: [String: String] {
        [
            "〇": "0", "壹": "1", "贰": "2", "貳": "2", "叁": "3", "參": "3", "肆": "4", "伍": "5", "陆": "6", "陸": "6", "柒": "7", "捌": "8",
            "玖": "9", "拾": "ten", "佰": "hundred", "仟": "thousand", "萬": "ten_thousand", "億": "hundred_million", "兩": "liang", "點": "point",
            "圆": "yuan", "圓": "yuan", "收款到帐": "received",
        ]
    }
}
