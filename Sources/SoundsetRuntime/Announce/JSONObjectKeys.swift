import Foundation

/// The keys of a JSON object's top level, in the order written and with their escapes read (`"\u0061"`
/// is `"a"`): what `JSONSerialization` hides when the object repeats a key (it keeps the last value).
///
/// Meant for text `JSONSerialization` has already accepted: it checks only what it needs to find the
/// keys, never recurses (the values are skipped by counting brackets), and never traps on any input.
enum JSONObjectKeys {
    /// The top-level keys of the JSON object `data`, or nil when `data` is not one in UTF-8 (a UTF-16
    /// or UTF-32 text, which `JSONSerialization` also reads, included).
    static func topLevel(of data: Data) -> [String]? {
        var scanner = Scanner(bytes: [UInt8](data))
        return scanner.keys()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func keys() -> [String]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var keys: [String] = []
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipSpace()
                    guard let key = string() else { return nil }
                    keys.append(key)
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    guard skipValue() else { return nil }
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipSpace()
            return index == bytes.count ? keys : nil
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// A string at `index`, its escapes read; nil when there is none or it is not UTF-8.
        private mutating func string() -> String? {
            guard take(Self.quote) else { return nil }
            var utf8: [UInt8] = []
            while let byte = current {
                index += 1
                switch byte {
                case Self.quote: return String(bytes: utf8, encoding: .utf8)
                case Self.backslash:
                    guard let escaped = current else { return nil }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let unit = hex4() else { return nil }
                        var scalar = Unicode.Scalar(unit)
                        if (0xD800..<0xDC00).contains(unit), bytes[index...].starts(with: [Self.backslash, UInt8(ascii: "u")]) {
                            let mark = index
                            index += 2
                            if let low = hex4(), (0xDC00..<0xE000).contains(low) {
                                scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                            } else {
                                index = mark
                            }
                        }
                        // A lone surrogate is no character: read as U+FFFD.
                        utf8.append(contentsOf: Array(String(Character(scalar ?? "\u{FFFD}")).utf8))
                    default: utf8.append(escaped)  // \" \\ \/
                    }
                case ..<0x20: return nil
                default: utf8.append(byte)
                }
            }
            return nil
        }

        /// Four hex digits at `index`, as a UTF-16 code unit.
        private mutating func hex4() -> UInt16? {
            guard index + 4 <= bytes.count else { return nil }
            var unit: UInt16 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                unit = unit << 4 | UInt16(digit)
            }
            index += 4
            return unit
        }

        /// Skips a string without reading it.
        private mutating func skipString() -> Bool {
            guard take(Self.quote) else { return false }
            while let byte = current {
                index += byte == Self.backslash ? 2 : 1
                if byte == Self.quote { return true }
            }
            return false
        }

        /// Skips one value: a string, an object or array (whatever it holds), or a number, true,
        /// false or null.
        private mutating func skipValue() -> Bool {
            switch current {
            case nil: return false
            case Self.quote: return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while let byte = current {
                    switch byte {
                    case Self.quote:
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    default: break
                    }
                    index += 1
                    if depth == 0 { return true }
                }
                return false
            default:
                let start = index
                while let byte = current, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"), byte > 0x20 {
                    index += 1
                }
                return index > start
            }
        }
    }
}
