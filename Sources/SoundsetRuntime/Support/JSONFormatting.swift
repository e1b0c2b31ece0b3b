import Foundation

/// The one JSON style of every file soundset writes: pretty-printed, sorted keys, unescaped
/// slashes, and a final newline, so the same value always gives the same bytes.
public enum JSONFormatting {
    /// The encoder with that style; with `nonFinite`, -inf, inf and NaN are written as the strings
    /// "-inf", "inf" and "nan" (a silent file's loudness).
    public static func encoder(nonFinite: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if nonFinite {
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        return encoder
    }

    /// `value` in that style, without the final newline: for printing a line. Times are printed to
    /// the millisecond (`time(_:in:)`).
    public static func text<T: Encodable>(_ value: T, nonFinite: Bool = false) throws -> String {
        let encoder = encoder(nonFinite: nonFinite)
        encoder.userInfo[printing] = true
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One line of JSON (JSON Lines): an object with `members` in the order given, so the keys a
    /// reader looks for come first; nested values with sorted keys. Times are printed to the
    /// millisecond, as by `text`.
    public static func line(_ members: [(key: String, value: any Encodable)]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[printing] = true
        /// Any value, encoded as itself.
        struct Member: Encodable {
            let value: any Encodable
            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
        func json(_ value: any Encodable) throws -> String { String(decoding: try encoder.encode(Member(value: value)), as: UTF8.self) }
        let fields = try members.map { member in try json(member.key) + ":" + (try json(member.value)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Set in the encoder of `text`: the value is printed for a person or a script, not stored.
    public static let printing = CodingUserInfoKey(rawValue: "soundset.printing")!

    /// `seconds` as `encoder` writes it: rounded to the millisecond when it prints (`text`), so a
    /// reader sees 43205.103, not 43205.102607709756; exact when it stores (a manifest, a cache).
    public static func time(_ seconds: Double, in encoder: any Encoder) -> Double {
        guard encoder.userInfo[printing] as? Bool == true else { return seconds }
        return milliseconds(seconds)
    }

    /// `seconds` rounded to the millisecond (as it is when not finite).
    public static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : seconds
    }

    /// `value` in that style, ending in a newline.
    /// - Throws: `EncodingError` for a value JSON cannot hold (a NaN or infinite number).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        var data = try encoder().encode(value)
        data.append(0x0A)
        return data
    }
}

/// A time in seconds that JSON prints to the millisecond and stores exactly (`JSONFormatting.time`):
/// the one place a printed time is rounded, so a type's `Codable` can be the compiler's.
@propertyWrapper
public struct PrintedTime: Codable, Sendable, Equatable, Hashable {
    public var wrappedValue: Double

    public init(wrappedValue: Double) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws { wrappedValue = try decoder.singleValueContainer().decode(Double.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONFormatting.time(wrappedValue, in: encoder))
    }
}
