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
        if integer == 0 {
            switch options.style {
            case .point: return [.digit(0)] + fractionTokens(amount.fraction, afterInteger: false, options: options)
            case .yuanJiaoFen:
                return amount.fraction == 0 ? [.digit(0), .yuan] : fractionTokens(amount.fraction, afterInteger: false, options: options)
            }
        }
        return wholeTokens(integer, options: options, variants: variants) + fractionTokens(amount.fraction, afterInteger: true, options: options)
    }

    /// What a whole part of 1 or more says before the fraction: the number, and 元 in yuanJiaoFen style.
    /// (`package`: the worst-case search in SoundsetBudget reads with it.)
    package static func wholeTokens(_ integer: Int64, options: ReadingOptions, variants: Set<String> = []) -> [ChineseToken] {
        integerTokens(integer, reader: IntegerReader(useLiang: options.useLiang, variants: variants))
            + (options.style == .yuanJiaoFen ? [.yuan] : [])
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
