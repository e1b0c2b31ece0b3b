/// One spoken unit of a zh-CN reading.
public enum ChineseToken: Hashable, Sendable {
    case digit(Int)
    case ten, hundred, thousand, tenThousand, hundredMillion, point, yuan, liang, jiao, fen

    /// Every token, in clip-list order.
    public static let all: [ChineseToken] = (0...9).map(ChineseToken.digit)
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
        }
    }
}

/// The zh-CN reading of amounts (see the README for the rules and their examples).
public enum ChineseReading {
    /// The tokens that read `amount` with `options`.
    public static func tokens(for amount: Amount, options: ReadingOptions = ReadingOptions()) -> [ChineseToken] {
        let integer = amount.integerPart
        let tenths = amount.fraction / 10
        let hundredths = amount.fraction % 10
        switch options.style {
        case .point:
            var tokens = integer == 0 ? [.digit(0)] : integerTokens(integer, useLiang: options.useLiang)
            var decimals = [tenths, hundredths]
            if !options.keepTrailingZeros {
                while decimals.last == 0 { decimals.removeLast() }
            }
            if !decimals.isEmpty { tokens += [.point] + decimals.map(ChineseToken.digit) }
            return tokens + [.yuan]
        case .yuanJiaoFen:
            if amount.minorUnits == 0 { return [.digit(0), .yuan] }
            var tokens: [ChineseToken] = []
            if integer > 0 { tokens = integerTokens(integer, useLiang: options.useLiang) + [.yuan] }
            if tenths > 0 { tokens += [.digit(tenths), .jiao] }
            if hundredths > 0 {
                if tenths == 0 && integer > 0 { tokens.append(.digit(0)) }
                tokens += [.digit(hundredths), .fen]
            }
            return tokens
        }
    }

    /// Reads a positive whole number below 10^12 in four-digit groups (亿, 万, ones).
    static func integerTokens(_ number: Int64, useLiang: Bool) -> [ChineseToken] {
        precondition(number > 0 && number < 1_000_000_000_000)
        let groups = [(number / 100_000_000, ChineseToken.hundredMillion), ((number / 10_000) % 10_000, .tenThousand), (number % 10_000, nil)]
        let places: [ChineseToken?] = [.thousand, .hundred, .ten, nil]
        var tokens: [ChineseToken] = []
        var pendingZero = false
        for (value, unit) in groups {
            if value == 0 {
                // An all-zero group says nothing, but a zero between spoken digits is still due.
                if !tokens.isEmpty { pendingZero = true }
                continue
            }
            let digits = [value / 1000, value / 100 % 10, value / 10 % 10, value % 10].map(Int.init)
            for (index, digit) in digits.enumerated() {
                guard digit != 0 else {
                    if !tokens.isEmpty { pendingZero = true }
                    continue
                }
                if pendingZero { tokens.append(.digit(0)); pendingZero = false }
                let place = places[index]
                let leadingTen = tokens.isEmpty && digit == 1 && place == .ten
                if !leadingTen {
                    let liang = useLiang && digit == 2 && (place == .thousand || place == .hundred || (place == nil && unit != nil && value == 2))
                    tokens.append(liang ? .liang : .digit(digit))
                }
                if let place { tokens.append(place) }
            }
            if let unit {
                tokens.append(unit)
                // Zeros at the end of a group are absorbed by its unit.
                pendingZero = false
            }
        }
        return tokens
    }
}
