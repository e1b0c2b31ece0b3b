import Foundation

/// The one JSON style of every file soundset writes: pretty-printed, sorted keys, unescaped
/// slashes, and a final newline, so the same value always gives the same bytes.
public enum JSONFormatting {
    /// The encoder with that style.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` in that style, ending in a newline.
    /// - Throws: `EncodingError` for a value JSON cannot hold (a NaN or infinite number).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        var data = try encoder().encode(value)
        data.append(0x0A)
        return data
    }
}
