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
        if Self.hasExponent(text) { throw .exponent }
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

    /// Whether `text` is a number written with an exponent (`1.2e3`, `5E-2`): digits with at most
    /// one point, `e` or `E`, an optional sign, digits. Other text with an `e` is not a number.
    private static func hasExponent(_ text: String) -> Bool {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "e" || $0 == "E" })
        guard parts.count == 2 else { return false }
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        let exponent = parts[1].first == "+" || parts[1].first == "-" ? parts[1].dropFirst() : parts[1]
        return mantissa.count <= 2 && mantissa.allSatisfy(digits) && mantissa.contains { !$0.isEmpty } && !exponent.isEmpty && digits(exponent)
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
        case .exponent: "the amount has an exponent: write it in plain digits (1200, not 1.2e3)"
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
    /// `+12.50` → `12.50`, ` 7 ` → `7`, `1,000` and `1 000` → `1000`, `1,5` and `1.000,50` → `1.5`
    /// and `1000.50` (a decimal comma), `1.2e3` → `1200`, full-width `１２` → `12`, `07.50` →
    /// `7.50`, `12.` → `12`, `.5` → `0.5`. Spaces, `_` and `'` inside an amount, and `,` unless it
    /// is a decimal comma, count as thousands separators only between groups of three digits;
    /// nothing is ever rounded (`1.234` and `1e-3` mean nothing here), and neither does a
    /// negative amount or text without a digit.
    public static func meant(by text: String) -> (text: String, decimalComma: Bool)? {
        var scalars = text.unicodeScalars.map(\.halfWidth)
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        if scalars.first == "+" { scalars.removeFirst() }
        guard scalars.contains(where: { ("0"..."9").contains($0) }) else { return nil }
        // Thousands-only separators become "_"; a comma may still be a decimal comma.
        let chars = scalars.map { scalar -> Character in
            scalar.properties.isWhitespace || scalar == "'" ? "_" : Character(scalar == "E" ? "e" : scalar)
        }
        var plain: String
        var decimalComma = false
        if chars.contains("e") {
            guard let expanded = expandExponent(String(chars)) else { return nil }
            plain = expanded
        } else if chars.contains(",") || chars.contains("_") {
            guard let separated = withoutSeparators(chars) else { return nil }
            (plain, decimalComma) = separated
        } else {
            plain = String(chars)
        }
        if plain.hasPrefix(".") { plain = "0" + plain }
        if plain.hasSuffix(".") { plain.removeLast() }
        // Leading zeros of the whole part, keeping one before the point.
        while plain.count > 1, plain.hasPrefix("0"), plain.dropFirst().first?.isASCIIDigit == true { plain.removeFirst() }
        guard plain != text, (try? Amount(plain)) != nil else { return nil }
        return (plain, decimalComma)
    }

    /// `1.2e3` as `1200`, by moving the point (exact); nil when it is no such number.
    private static func expandExponent(_ text: String) -> String? {
        let parts = text.split(separator: "e", omittingEmptySubsequences: false)
        guard parts.count == 2, let exponent = Int(parts[1]), (-14...14).contains(exponent) else { return nil }
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard mantissa.count <= 2, mantissa.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        var digits = String(mantissa[0]) + (mantissa.count == 2 ? String(mantissa[1]) : "")
        guard !digits.isEmpty else { return nil }
        var point = mantissa[0].count + exponent
        if point < 0 {
            digits = String(repeating: "0", count: -point) + digits
            point = 0
        }
        if point > digits.count { digits += String(repeating: "0", count: point - digits.count) }
        var fraction = String(digits.dropFirst(point))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let whole = String(digits.prefix(point))
        return (whole.isEmpty ? "0" : whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// `chars` without their thousands separators (`,` or `_`), and with a decimal comma made a
    /// point: `1,000` and `1_000.50`; `1,5`, `12,50` and `1.000,50` (a comma last, one or two
    /// digits after it). Nil when the groups are not thousands (`1,0000`, `1_5`).
    private static func withoutSeparators(_ chars: [Character]) -> (String, Bool)? {
        var body = chars
        var decimals: [Character]?
        var decimalComma = false
        if let comma = body.lastIndex(of: ","), case let after = body[(comma + 1)...], (1...2).contains(after.count),
            after.allSatisfy(\.isASCIIDigit)
        {
            // A decimal comma; points before it are then thousands separators.
            decimals = Array(after)
            body = body[..<comma].map { $0 == "." ? "," : $0 }
            decimalComma = true
        } else if let point = body.firstIndex(of: ".") {
            decimals = Array(body[(point + 1)...])
            body = Array(body[..<point])
        }
        let groups = body.split(omittingEmptySubsequences: false) { $0 == "," || $0 == "_" }
        guard let first = groups.first, (1...3).contains(first.count) || groups.count == 1, groups.count > 1 || decimalComma,
            groups.dropFirst().allSatisfy({ $0.count == 3 }),
            groups.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) })
        else { return nil }
        return (String(groups.joined()) + (decimals.map { "." + String($0) } ?? ""), decimalComma)
    }
}

extension Unicode.Scalar {
    /// A full-width digit, point or comma (`１`, `．`, `，`) as its ASCII one; any other scalar as it is.
    public var halfWidth: Unicode.Scalar {
        switch value {
        case 0xFF10...0xFF19: Unicode.Scalar(value - 0xFF10 + 0x30)!
        case 0xFF0E: "."
        case 0xFF0C: ","
        default: self
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
