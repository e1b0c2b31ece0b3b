import Foundation

/// A request target taken apart: its path's segments and its query's pairs, each percent-decoded
/// strictly. Nothing in it is ever joined to a folder: the router compares segments with literal
/// route names and hands the rest to the amount parser, the set's id and the clip names.
struct RequestTarget: Equatable {
    /// The longest target accepted, in bytes (a longer one is answered 414).
    static let maxBytes = 2048

    /// The path's segments, decoded: `/v1/plan/1.5` is `["v1", "plan", "1.5"]`.
    var segments: [String]
    /// The query's pairs in order, decoded (`whole=1` is `("whole", "1")`; `whole` alone has "").
    var query: [(name: String, value: String)]

    static func == (lhs: RequestTarget, rhs: RequestTarget) -> Bool {
        lhs.segments == rhs.segments && lhs.query.map(\.name) == rhs.query.map(\.name) && lhs.query.map(\.value) == rhs.query.map(\.value)
    }

    /// Why a target cannot be read.
    enum Problem: Error, Equatable {
        /// Over `maxBytes`.
        case tooLong(Int)
        /// Not a path from the root (`*`, `http://host/...`).
        case notAPath
        /// A `%` not followed by two hex digits, bytes that are not UTF-8, or a control character
        /// (NUL included) once decoded.
        case badEscape(String)
    }

    /// Takes `target` apart.
    /// - Throws: `Problem`.
    init(_ target: String) throws(Problem) {
        var target = target
        let read = target.withUTF8 { bytes in Result { () throws(Problem) in try Self(bytes: bytes) } }
        self = try read.get()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) throws(Problem) {
        guard bytes.count <= Self.maxBytes else { throw .tooLong(bytes.count) }
        guard bytes.first == UInt8(ascii: "/") else { throw .notAPath }
        let question = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let path = bytes[bytes.startIndex..<question]
        var segments: [String] = []
        for raw in path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) { segments.append(try Self.decode(raw)) }
        self.segments = segments
        query = []
        guard question < bytes.endIndex else { return }
        for pair in bytes[(question + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let name = try Self.decode(pair[pair.startIndex..<equals])
            let value = equals < pair.endIndex ? try Self.decode(pair[(equals + 1)...]) : ""
            query.append((name, value))
        }
    }

    /// `raw` with every `%XX` decoded: the result must be UTF-8 without control characters.
    private static func decode(_ raw: Slice<UnsafeBufferPointer<UInt8>>) throws(Problem) -> String {
        // Printable ASCII without an escape, as nearly every target is: the text as it is.
        if raw.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }) { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex, let high = hexValue(raw[index + 1]), let low = hexValue(raw[index + 2])
                else { throw .badEscape("a '%' not followed by two hex digits") }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        guard let text = String(bytes: out, encoding: .utf8) else { throw .badEscape("bytes that are not UTF-8") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badEscape("a control character")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
