import Synchronization

/// The id a request is known by in the access log and in its response's `X-Request-Id`: the one the
/// client (or the proxy in front, e.g. nginx's `$request_id`) sent when it is well-formed, so one id
/// follows a request through every hop; otherwise a new one.
public enum RequestID {
    /// The most bytes of an id taken from a request.
    public static let maxBytes = 128

    /// `field` when it is an id worth keeping: 1 to 128 bytes of ASCII letters, digits and
    /// `-_.:+/=` (what UUIDs, nginx's `$request_id`, base64 and AWS's trace ids are made of). No
    /// space, quote or control byte, so a log line cannot be forged with it; nil otherwise.
    public static func accepting(_ field: String?) -> String? {
        guard let field, !field.isEmpty, field.utf8.count <= maxBytes else { return nil }
        for byte in field.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): continue
            default: return nil
            }
        }
        return field
    }

    /// A new id: 16 hex digits, 8 drawn at random when the process starts (so instances behind one
    /// load balancer do not repeat each other) and 8 counting the requests.
    public static func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        var digits = [UInt8](repeating: 0, count: 16)
        let hex = Array("0123456789abcdef".utf8)
        let value = UInt64(prefix) << 32 | UInt64(truncatingIfNeeded: count)
        for index in 0..<16 { digits[15 - index] = hex[Int(value >> (4 * UInt64(index)) & 0xF)] }
        return String(decoding: digits, as: UTF8.self)
    }

    private static let prefix = UInt32.random(in: .min ... .max)
    private static let counter = Atomic<UInt32>(0)
}
