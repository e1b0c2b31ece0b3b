/// A locale soundset can read amounts in.
public enum SpeechLocale: String, CaseIterable, Sendable, Codable {
    case zhCN = "zh-CN"
    case enUS = "en-US"

    /// The clip names before the Copy rule, and how each is written (the token) for display.
    public func read(_ amount: Amount, options: ReadingOptions = ReadingOptions()) -> [String] {
        switch self {
        case .zhCN: ChineseReading.tokens(for: amount, options: options).map(\.clipName)
        case .enUS: EnglishReading.clips(for: amount)
        }
    }

    /// Every clip name a reading in this locale can need with `options`.
    public func clipNames(options: ReadingOptions = ReadingOptions()) -> [String] {
        switch self {
        case .zhCN:
            var tokens = (0...9).map(ChineseToken.digit) + [.ten, .hundred, .thousand, .tenThousand, .hundredMillion, .yuan]
            if options.style == .point { tokens.append(.point) } else { tokens += [.jiao, .fen] }
            if options.useLiang { tokens.append(.liang) }
            return tokens.map(\.clipName)
        case .enUS:
            return EnglishReading.clipNames
        }
    }
}
