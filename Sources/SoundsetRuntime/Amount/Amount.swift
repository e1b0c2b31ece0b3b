/// An amount of money read exactly: a whole number of minor units (分 or cents), never a binary float.
///
/// Text must match `^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$`: no sign, spaces, separators, exponent,
/// full-width digits, and at most two decimals (never rounded or truncated). `Decimal(string:)` is not
/// used: it accepts "12abc" as 12 and "1,000" as 1.
public struct Amount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The largest amount accepted, in minor units: 999,999,999,999.99.
    public static let maxMinorUnits: Int64 = 99_999_999_999_999

    /// The amount in minor units (1 yuan = 100 分, 1 dollar = 100 cents).
    public let minorUnits: Int64

    /// The whole part (yuan, dollars).
    public var integerPart: Int64 { minorUnits / 100 }
    /// The minor part, 0-99 (分 or cents).
    public var fraction: Int { Int(minorUnits % 100) }

    /// An amount of `minorUnits` minor units.
    /// - Throws: `AmountError.negative` or `.tooLarge`.
    public init(minorUnits: Int64) throws(AmountError) {
        guard minorUnits >= 0 else { throw .negative }
        guard minorUnits <= Self.maxMinorUnits else { throw .tooLarge }
        self.minorUnits = minorUnits
    }

    /// Parses amount text such as `123.45`, `0.5` or `20000`.
    /// - Throws: `AmountError` saying what is wrong with the text.
    public init(_ text: String) throws(AmountError) {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { throw .empty }
        if let first = scalars.first, first == "-" || first == "+" || first == "\u{2212}" { throw .sign }
        if scalars.contains(where: { $0.properties.isWhitespace }) { throw .whitespace }
        if scalars.contains(where: { ("\u{FF10}"..."\u{FF19}").contains($0) || $0 == "\u{FF0E}" }) { throw .fullWidthDigits }
        if scalars.contains(where: { $0 == "," || $0 == "_" || $0 == "'" || $0 == "\u{00A0}" || $0 == "\u{202F}" }) { throw .thousandsSeparator }
        if scalars.contains(where: { $0 == "e" || $0 == "E" }) { throw .exponent }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard parts.count <= 2, isDigits(parts[0]), parts.count == 1 || isDigits(parts[1]) else {
            if parts.count == 2 && parts[1].isEmpty && isDigits(parts[0]) { throw .missingDecimals }
            throw .notANumber
        }
        let whole = parts[0]
        if whole.count > 1 && whole.hasPrefix("0") { throw .leadingZero }
        if whole.count > 12 { throw .tooLarge }
        var decimals = parts.count == 2 ? parts[1] : ""
        if decimals.count > 2 { throw .tooManyDecimals(decimals.count) }
        while decimals.count < 2 { decimals += "0" }
        self.minorUnits = Int64(whole)! * 100 + Int64(decimals)!
    }

    /// The amount with two decimals, e.g. `123.40`.
    public var description: String {
        let cents = fraction
        return "\(integerPart).\(cents < 10 ? "0" : "")\(cents)"
    }

    public static func < (lhs: Amount, rhs: Amount) -> Bool { lhs.minorUnits < rhs.minorUnits }
}

/// Why amount text was refused.
public enum AmountError: Error, Equatable, CustomStringConvertible {
    case empty
    case sign
    case negative
    case whitespace
    case thousandsSeparator
    case exponent
    case fullWidthDigits
    case leadingZero
    case missingDecimals
    case tooManyDecimals(Int)
    case tooLarge
    case notANumber

    public var description: String {
        switch self {
        case .empty: "the amount is empty"
        case .sign: "an amount has no sign: write 12.50, not -12.50 or +12.50"
        case .negative: "the amount is negative"
        case .whitespace: "the amount contains spaces: write 1234.50"
        case .thousandsSeparator: "the amount contains a thousands separator: write 1234.50, not 1,234.50"
        case .exponent: "the amount has an exponent: write 1200, not 1.2e3"
        case .fullWidthDigits: "the amount has full-width digits: write ASCII digits 0-9"
        case .leadingZero: "the amount has a leading zero: write 7.50, not 07.50"
        case .missingDecimals: "the amount ends with a point: write 12 or 12.50"
        case .tooManyDecimals(let count): "the amount has \(count) decimals; at most 2 are allowed (it is never rounded)"
        case .tooLarge: "the amount is 10^12 or more; the largest is 999999999999.99"
        case .notANumber: "the amount is not a number: write digits with at most one point, like 123.45"
        }
    }
}

extension AmountError {
    /// What is wrong with `text`, ending with the amount it most likely means when there is exactly
    /// one (`1e5`: "the amount has an exponent: write 100000"); otherwise the general description.
    public func explaining(_ text: String) -> String {
        guard let meant = Amount.meant(by: text) else { return description }
        if meant.decimalComma { return "the amount has a decimal comma: write \(meant.text), with a point" }
        let reason = description.split(separator: ":", maxSplits: 1).first.map(String.init) ?? description
        return "\(reason): write \(meant.text)"
    }
}

extension Amount {
    /// The plain amount text that refused `text` most likely means, when it means exactly one:
    /// `+12.50` → `12.50`, ` 1 234.50 ` → `1234.50`, `1,000` → `1000`, `1,5` and `1.000,50` →
    /// `1.5` and `1000.50` (a decimal comma), `1.2e3` → `1200`, full-width `１２` → `12`, `07.50` →
    /// `7.50`, `12.` → `12`, `.5` → `0.5`. Separators count as thousands only between groups of
    /// three digits; nothing is ever rounded (`1.234` and `1e-3` mean nothing here), and a negative
    /// amount means nothing either.
    public static func meant(by text: String) -> (text: String, decimalComma: Bool)? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{FF10}"..."\u{FF19}": scalars.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30)!)
            case "\u{FF0E}": scalars.append(".")
            case "\u{FF0C}": scalars.append(",")
            case "E": scalars.append("e")
            case "+": if scalars.isEmpty { continue } else { scalars.append(scalar) }
            case "_", "'", "\u{00A0}", "\u{202F}": scalars.append(",")
            default: if scalar.properties.isWhitespace { continue } else { scalars.append(scalar) }
            }
        }
        var plain = String(scalars)
        var decimalComma = false
        if plain.contains(",") {
            guard let separated = Self.withoutSeparators(plain) else { return nil }
            (plain, decimalComma) = separated
        }
        // An exponent, applied by moving the point: exact, and refused when it leaves > 2 decimals.
        let exponentParts = plain.split(separator: "e", omittingEmptySubsequences: false)
        if exponentParts.count == 2 {
            guard let exponent = Int(exponentParts[1]), abs(exponent) <= 14 else { return nil }
            let mantissa = exponentParts[0].split(separator: ".", omittingEmptySubsequences: false)
            guard mantissa.count <= 2, mantissa.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), !mantissa[0].isEmpty || mantissa.count == 2 else { return nil }
            var digits = String(mantissa[0]) + (mantissa.count == 2 ? String(mantissa[1]) : "")
            var point = mantissa[0].count + exponent
            guard !digits.isEmpty else { return nil }
            if point < 0 {
                digits = String(repeating: "0", count: -point) + digits
                point = 0
            }
            if point > digits.count { digits += String(repeating: "0", count: point - digits.count) }
            let whole = String(digits.prefix(point)), fraction = String(digits.dropFirst(point))
            let trimmed = fraction.replacing(/0+$/, with: "")
            plain = (whole.isEmpty ? "0" : whole) + (trimmed.isEmpty ? "" : "." + trimmed)
        }
        if plain.hasPrefix(".") { plain = "0" + plain }
        if plain.hasSuffix(".") { plain.removeLast() }
        // Leading zeros of the whole part, keeping one before the point.
        while plain.count > 1, plain.hasPrefix("0"), plain.dropFirst().first?.isASCIIDigit == true { plain.removeFirst() }
        guard plain != text, (try? Amount(plain)) != nil else { return nil }
        return (plain, decimalComma)
    }

    /// `text` (with `,` for every separator) without its thousands separators, and with a decimal
    /// comma made a point: `1,000` and `1,000.50`; `1,5`, `12,50` and `1.000,50` (the comma last,
    /// one or two digits after it). Nil when the groups are not thousands (`1,0000`, `1,5,0`).
    private static func withoutSeparators(_ text: String) -> (String, Bool)? {
        var body = text
        var decimals: String?
        var decimalComma = false
        if let comma = body.lastIndex(of: ","), case let after = body[body.index(after: comma)...],
            (1...2).contains(after.count), after.allSatisfy(\.isASCIIDigit)
        {
            // A decimal comma; points before it are then thousands separators.
            decimals = String(after)
            body = String(body[..<comma]).replacingOccurrences(of: ".", with: ",")
            decimalComma = true
        } else if let point = body.firstIndex(of: ".") {
            decimals = String(body[body.index(after: point)...])
            body = String(body[..<point])
        }
        let groups = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) || groups.count == 1,
            groups.dropFirst().allSatisfy({ $0.count == 3 }), groups.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return (groups.joined() + (decimals.map { "." + $0 } ?? ""), decimalComma)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
