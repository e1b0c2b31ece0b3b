import SoundsetSetFolder

/// A strict JSON parser (RFC 8259) for hand-written files, written here because Foundation's
/// decoder neither reports where a syntax error is nor refuses duplicate keys.
///
/// A recursive descent over the UTF-8 bytes. Numbers are read as JSON numbers and rounded to the
/// nearest `Double` (`Double(String)`, which rounds correctly); NaN, Infinity, leading zeros and
/// numbers too large for a `Double` are refused. Strings take every escape, a surrogate pair as one
/// scalar, and refuse unpaired surrogates and raw control characters. Containers nest at most
/// `maxDepth` deep. A UTF-8 byte-order mark at the start is skipped, as RFC 8259 allows.
///
/// Two mistakes leave the meaning readable, so parsing goes on past them and `Parsed.problems`
/// lists each one: a key that appears twice in an object (the first value is kept), and a comma
/// before `}` or `]`.
struct JSONParser {
    /// Where in the text something is: 1-based, columns counted in Unicode scalars.
    struct Position: Equatable, Sendable, CustomStringConvertible {
        var line: Int
        var column: Int
        var description: String { "line \(line), column \(column)" }
    }

    /// Text that is not JSON; parsing stopped at `position`.
    struct SyntaxError: Error, Equatable, Sendable {
        var position: Position
        var reason: String
    }

    /// A duplicate key or a trailing comma: refused, but the rest of the text was read.
    struct Problem: Equatable, Sendable {
        var position: Position
        var message: String
    }

    /// The value and the problems found on the way.
    struct Parsed {
        var value: JSONValue
        var problems: [Problem]
    }

    private static let comments = "JSON has no comments (remove it)"

    /// The deepest nesting of objects and arrays accepted.
    static let maxDepth = 64

    /// Parses `bytes` as one JSON value.
    /// - Throws: `SyntaxError` at the first thing that is not JSON.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Parsed {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.start = 3
        }
        try parser.checkUTF8()
        parser.skipWhitespace()
        if parser.index == bytes.count { throw parser.failure("the file is empty (write {} for the defaults)") }
        let value = try parser.value(depth: 0, path: "")
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.failure(parser.next == UInt8(ascii: "/") ? Self.comments : "text after the end of the JSON value (remove it)")
        }
        return Parsed(value: value, problems: parser.problems)
    }

    private let bytes: [UInt8]
    private var index = 0
    /// Where the text starts, after a byte-order mark.
    private var start = 0
    private var problems: [Problem] = []

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func value(depth: Int, path: String) throws(SyntaxError) -> JSONValue {
        skipWhitespace()
        guard let byte = next else { throw expected("a value") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1, path: path)
        case UInt8(ascii: "["): return try array(depth: depth + 1, path: path)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: throw expected("a value")
        }
    }

    private mutating func object(depth: Int, path: String) throws(SyntaxError) -> JSONValue {
        if depth > Self.maxDepth { throw failure("objects and arrays nest more than \(Self.maxDepth) deep") }
        index += 1
        var members: [String: JSONValue] = [:]
        var keyOffsets: [String: Int] = [:]
        skipWhitespace()
        if next == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard next == UInt8(ascii: "\"") else { throw expected("a string key in double quotes") }
            let keyOffset = index
            let key = try string()
            skipWhitespace()
            guard next == UInt8(ascii: ":") else { throw expected("':' after the key") }
            index += 1
            let keyPath = path.isEmpty ? ClipName.printable(key) : "\(path).\(ClipName.printable(key))"
            let member = try value(depth: depth, path: keyPath)
            if let first = keyOffsets[key] {
                problems.append(
                    Problem(position: position(of: keyOffset), message: "key '\(keyPath)' appears twice (first on line \(position(of: first).line)); keep one"))
            } else {
                members[key] = member
                keyOffsets[key] = keyOffset
            }
            skipWhitespace()
            if next == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            guard next == UInt8(ascii: ",") else { throw expected("',' or '}'") }
            if trailingComma(before: "}") { return .object(members) }
        }
    }

    private mutating func array(depth: Int, path: String) throws(SyntaxError) -> JSONValue {
        if depth > Self.maxDepth { throw failure("objects and arrays nest more than \(Self.maxDepth) deep") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if next == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth, path: "\(path)[\(items.count)]"))
            skipWhitespace()
            if next == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            guard next == UInt8(ascii: ",") else { throw expected("',' or ']'") }
            if trailingComma(before: "]") { return .array(items) }
        }
    }

    /// Steps over the comma at `index`; when `close` follows it, notes the trailing comma, steps
    /// over `close` too and returns true.
    private mutating func trailingComma(before close: Unicode.Scalar) -> Bool {
        let comma = index
        index += 1
        skipWhitespace()
        guard next == UInt8(ascii: close) else { return false }
        problems.append(Problem(position: position(of: comma), message: "trailing comma before '\(close)' (remove it)"))
        index += 1
        return true
    }

    private mutating func string() throws(SyntaxError) -> String {
        let open = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = next else { throw failure("a string is not closed (add its closing \")", at: open) }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // The text was checked to be UTF-8 and escapes add whole scalars, so this never repairs anything.
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                utf8 += try escape()
            case 0..<0x20:
                let escape = [0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"][byte] ?? "\\u\(Self.hex4(UInt32(byte)))"
                throw failure("a string cannot hold control character U+\(Self.hex4(UInt32(byte))) (write it as \(escape))")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    /// Reads the escape at `index` (a backslash) and returns its UTF-8 bytes.
    private mutating func escape() throws(SyntaxError) -> [UInt8] {
        let backslash = index
        index += 1
        guard let letter = next else { throw failure("a string is not closed (add its closing \")", at: backslash) }
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return [letter]
        case UInt8(ascii: "b"): return [0x08]
        case UInt8(ascii: "f"): return [0x0C]
        case UInt8(ascii: "n"): return [0x0A]
        case UInt8(ascii: "r"): return [0x0D]
        case UInt8(ascii: "t"): return [0x09]
        case UInt8(ascii: "u"):
            let code = try hexDigits(escapeAt: backslash)
            var scalar = code
            if (0xD800...0xDBFF).contains(code) {
                guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                    throw failure("\\u\(Self.hex4(code)) is half of a surrogate pair (a \\uDC00-\\uDFFF escape must follow it)", at: backslash)
                }
                let second = index
                index += 2
                let low = try hexDigits(escapeAt: second)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("\\u\(Self.hex4(code)) is half of a surrogate pair (a \\uDC00-\\uDFFF escape must follow it)", at: backslash)
                }
                scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw failure("\\u\(Self.hex4(code)) is the second half of a surrogate pair without its first", at: backslash)
            }
            return Array(String(Unicode.Scalar(scalar)!).utf8)
        default:
            throw failure("unknown escape in a string (use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and four hex digits)", at: backslash)
        }
    }

    /// The four hex digits after `\u`.
    private mutating func hexDigits(escapeAt backslash: Int) throws(SyntaxError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next, let digit = Self.hexValue(byte) else {
                throw failure("\\u must be followed by four hex digits", at: backslash)
            }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    private mutating func number() throws(SyntaxError) -> Double {
        let first = index
        if next == UInt8(ascii: "-") { index += 1 }
        guard let lead = next, Self.isDigit(lead) else {
            if next == UInt8(ascii: "I") { throw failure("-Infinity is not a JSON number", at: first) }
            throw expected("a digit after '-'")
        }
        index += 1
        if lead == UInt8(ascii: "0"), let after = next, Self.isDigit(after) {
            throw failure("a number cannot start with 0 (write 7, not 07)", at: first)
        }
        skipDigits()
        if next == UInt8(ascii: ".") {
            index += 1
            guard let digit = next, Self.isDigit(digit) else { throw expected("a digit after '.'") }
            skipDigits()
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard let digit = next, Self.isDigit(digit) else { throw expected("a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[first..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw failure("\(ClipName.printable(text)) is too large for a number", at: first)
        }
        return number
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(SyntaxError) -> JSONValue {
        guard bytes[index...].starts(with: word.utf8) else { throw expected("a value") }
        index += word.utf8.count
        return value
    }

    private mutating func skipDigits() {
        while let byte = next, Self.isDigit(byte) { index += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// `expected X` at `index`, or what stands there instead when that says more.
    private func expected(_ what: String) -> SyntaxError {
        guard let byte = next else { return failure("expected \(what) before the end of the file") }
        if byte == UInt8(ascii: "/") { return failure(Self.comments) }
        if byte == UInt8(ascii: "'") { return failure("JSON strings are in double quotes, not single quotes") }
        if byte == UInt8(ascii: "+") { return failure("a JSON number has no '+' sign (remove it)") }
        if byte == UInt8(ascii: ".") { return failure("a JSON number starts with a digit (write 0.5, not .5)") }
        for word in ["NaN", "Infinity"] where bytes[index...].starts(with: word.utf8) {
            return failure("\(word) is not a JSON number")
        }
        return failure("expected \(what)")
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> SyntaxError {
        SyntaxError(position: position(of: offset ?? index), reason: reason)
    }

    /// The line and column of the byte at `offset`, counted from the start (only on a problem).
    private func position(of offset: Int) -> Position {
        var position = Position(line: 1, column: 1)
        for byte in bytes[start..<offset] {
            if byte == 0x0A {
                position.line += 1
                position.column = 1
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
        }
        return position
    }

    /// Throws at the first byte after `start` that is not part of well-formed UTF-8.
    private func checkUTF8() throws(SyntaxError) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var offset = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error: throw failure("the file is not UTF-8 text (save it as UTF-8)", at: offset)
            }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Four upper-case hex digits.
    private static func hex4(_ code: UInt32) -> String {
        let digits = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
