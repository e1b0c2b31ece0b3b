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

    /// `value` in that style, without the final newline: for printing a line.
    public static func text<T: Encodable>(_ value: T, nonFinite: Bool = false) throws -> String {
        String(decoding: try encoder(nonFinite: nonFinite).encode(value), as: UTF8.self)
    }

    /// `value` in that style, ending in a newline.
    /// - Throws: `EncodingError` for a value JSON cannot hold (a NaN or infinite number).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        var data = try encoder().encode(value)
        data.append(0x0A)
        return data
    }
}
