/// How a zh-CN amount is read; `reading` in `soundset.json` and the manifest.
public struct ReadingOptions: Codable, Sendable, Equatable {
    /// `point` (一点五元) or `yuanJiaoFen` (一元五角).
    public enum Style: String, Codable, Sendable, CaseIterable {
        case point, yuanJiaoFen
    }

    /// The decimal style.
    public var style: Style
    /// Read 2 as 两 in the 千 and 百 places and as a whole 万 or 亿 group (两百, 两万).
    public var useLiang: Bool
    /// Always read two decimals in point style (一点五零, 一点零零).
    public var keepTrailingZeros: Bool

    public init(style: Style = .point, useLiang: Bool = false, keepTrailingZeros: Bool = false) {
        self.style = style
        self.useLiang = useLiang
        self.keepTrailingZeros = keepTrailingZeros
    }

    /// The keys `set(_:to:)` accepts.
    public static let keys = ["style", "useLiang", "keepTrailingZeros"]

    /// Sets one option from text, as `--reading KEY=VALUE` gives it.
    /// - Throws: `ReadingOptionError` naming the key or value.
    public mutating func set(_ key: String, to value: String) throws(ReadingOptionError) {
        switch key {
        case "style":
            guard let style = Style(rawValue: value) else {
                throw .badValue(key: key, value: value, allowed: Style.allCases.map(\.rawValue))
            }
            self.style = style
        case "useLiang", "keepTrailingZeros":
            guard value == "true" || value == "false" else { throw .badValue(key: key, value: value, allowed: ["true", "false"]) }
            if key == "useLiang" { useLiang = value == "true" } else { keepTrailingZeros = value == "true" }
        default:
            throw .unknownKey(key)
        }
    }
}

/// A reading option that could not be set.
public enum ReadingOptionError: Error, Equatable, CustomStringConvertible {
    case unknownKey(String)
    case badValue(key: String, value: String, allowed: [String])

    public var description: String {
        switch self {
        case .unknownKey(let key): "unknown reading option '\(key)' (known: \(ReadingOptions.keys.joined(separator: ", ")))"
        case .badValue(let key, let value, let allowed): "reading option \(key) cannot be '\(value)' (use \(allowed.joined(separator: " or ")))"
        }
    }
}
