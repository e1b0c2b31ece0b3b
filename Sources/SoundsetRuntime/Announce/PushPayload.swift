import Foundation

/// What the app's push carries beside `aps`, read into a request: the amount and the transaction id.
///
/// ```json
/// { "aps": { "alert": { "title": "收款到账" }, "mutable-content": 1 },
///   "amount": "123.45", "transactionId": "P20261201-0001" }
/// ```
///
/// `amount` is a string, read exactly (a JSON number is a binary float, and 123.45 is not one);
/// `amountMinor`, a whole number of minor units (分, cents), may stand instead; a push that sends
/// both falls back unless they are the same amount (and both read). The transaction id
/// is the payment's, the same on every retry; never the push's `request.identifier`, which is the
/// collapse id when the server sets one.
///
/// The extension's `userInfo` comes from `JSONSerialization`, where JSON `true` is an `NSNumber` that
/// bridges to the integer 1 and `12345.0` bridges to 12345: booleans, fractions, negative numbers
/// and numbers out of range are refused by what they are, not by what they bridge to. Reasons never
/// repeat the value, so they can be logged.
public enum PushPayload {
    /// The amount as text.
    public static let amountKey = "amount"
    /// The amount as a whole number of minor units.
    public static let minorUnitsKey = "amountMinor"
    /// The transaction id.
    public static let transactionKey = "transactionId"
    /// The most bytes of a payload `request(fromJSON:arrival:)` reads: APNs sends at most 4 KB, and a
    /// captured payload may be pretty-printed.
    public static let maxJSONBytes = 64 << 10

    /// Why a payload's JSON could not be read.
    public struct JSONError: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The request for a push whose `userInfo` is `payload`, arriving at `arrival` (nil: now).
    public static func request(from payload: [AnyHashable: Any], arrival: Double? = nil) -> AnnouncementRequest {
        AnnouncementRequest(amount: amount(in: payload), transactionID: transactionID(in: payload), arrival: arrival)
    }

    /// The request for a push whose JSON, as APNs delivers it, is `data`: read through
    /// `JSONSerialization`, as the extension's `userInfo` is, then as `request(from:arrival:)`.
    ///
    /// The text is also read for what `userInfo` cannot show: a key the object repeats at its top
    /// level (where the amount and the transaction id are). `JSONSerialization` keeps the last of
    /// the two silently, and another reader (the server's log, a proxy) may keep the first, so such
    /// a push falls back, its reason naming the key. On iOS the extension gets `userInfo` already
    /// read, so this check is made only where soundset gets the text (`soundset announce --payload`).
    /// - Throws: `JSONError` when `data` is not a JSON object in UTF-8, or is larger than `maxJSONBytes`.
    public static func request(fromJSON data: Data, arrival: Double? = nil) throws(JSONError) -> AnnouncementRequest {
        var request = request(from: try userInfo(fromJSON: data), arrival: arrival)
        guard let keys = JSONObjectKeys.topLevel(of: data) else {
            throw JSONError(description: "is not JSON in UTF-8 (APNs sends a push's JSON as UTF-8)")
        }
        var seen = Set<String>()
        // Compared as Swift compares the keys of `userInfo`: "é" composed and decomposed are one key there.
        if let repeated = keys.first(where: { !seen.insert($0).inserted }) {
            request.amount = .missing("the push repeats the key \(shownKey(repeated)), which JSON readers take differently: send each key once")
            if repeated == transactionKey { request.transactionID = nil }
        }
        return request
    }

    /// A key as a reason shows it: quoted, printable, at most 32 characters.
    private static func shownKey(_ key: String) -> String {
        let shown = ClipNameRules.printable(String(key.prefix(32)))
        return "\"\(shown)\(key.count > 32 ? "…" : "")\""
    }

    /// The `userInfo` iOS hands the extension for a push whose JSON is `data` (`JSONSerialization`:
    /// `true` is the number 1, `12345.0` the number 12345).
    /// - Throws: `JSONError` when `data` is not a JSON object, or is larger than `maxJSONBytes`.
    public static func userInfo(fromJSON data: Data) throws(JSONError) -> [AnyHashable: Any] {
        guard data.count <= maxJSONBytes else { throw JSONError(description: "is \(data.count) bytes, more than the \(maxJSONBytes) a push's JSON may have") }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch { throw JSONError(description: "is not JSON") }
        guard let dictionary = object as? [String: Any] else {
            throw JSONError(description: "is not a JSON object (a push is {\"aps\": {…}, \"\(amountKey)\": \"123.45\", \"\(transactionKey)\": \"…\"})")
        }
        return Dictionary(uniqueKeysWithValues: dictionary.map { (AnyHashable($0.key), $0.value) })
    }

    /// The transaction id: a string as sent, or a whole number's decimal digits (a server that sends
    /// `"transactionId": 123` retries with the same number, and its retry must be a duplicate). Any
    /// other value (true, 1.5, an object) is no id.
    static func transactionID(in payload: [AnyHashable: Any]) -> String? {
        let value = payload[transactionKey]
        if let text = value as? String { return text }
        guard let value, !isBoolean(value), let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "d", "f":
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded(.towardZero), abs(double) < 9.0e15 else { return nil }
            return String(Int64(double))
        case "Q", "L", "I", "S", "C": return String(number.uint64Value)
        default: return String(number.int64Value)
        }
    }

    static func amount(in payload: [AnyHashable: Any]) -> AnnouncementRequest.AmountInput {
        if let text = payload[amountKey] as? String {
            // Both fields: both are read, and must say the same amount (a server that fills them
            // from two sources would otherwise have the phone say one and the receipt the other).
            guard let value = payload[minorUnitsKey] else { return .text(text) }
            switch minorUnits(value) {
            case .failure(let refusal):
                return .missing(
                    "the push's \(minorUnitsKey) is \(refusal.what): send a whole number of minor units from 0 to \(Amount.maxMinorUnits)"
                        + ", or only \(amountKey)")
            case .success(let units):
                // An amount that does not read is refused for what it is, by the announcer.
                guard let amount = try? Amount(text), amount.minorUnits != units else { return .text(text) }
                return .missing("the push's \(amountKey) and \(minorUnitsKey) are two different amounts: send one of them, or both for the same amount")
            }
        }
        if let value = payload[amountKey] {
            return .missing("the push's \(amountKey) is \(kind(of: value)), not a string: send \"\(amountKey)\": \"123.45\"")
        }
        guard let value = payload[minorUnitsKey] else {
            return .missing("the push carries no amount: send \"\(amountKey)\": \"123.45\" or \"\(minorUnitsKey)\": 12345")
        }
        switch minorUnits(value) {
        case .success(let units): return .minorUnits(units)
        case .failure(let refusal):
            return .missing("the push's \(minorUnitsKey) is \(refusal.what): send a whole number of minor units from 0 to \(Amount.maxMinorUnits)")
        }
    }

    /// The whole number of minor units `value` is, or what it is instead.
    private static func minorUnits(_ value: Any) -> Result<Int64, Refusal> {
        if isBoolean(value) { return .failure(Refusal("true or false")) }
        if let text = value as? String {
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }), let units = Int64(text) else {
                return .failure(Refusal("a string that is not all digits"))
            }
            return units <= Amount.maxMinorUnits ? .success(units) : .failure(Refusal("out of range"))
        }
        guard let number = value as? NSNumber else { return .failure(Refusal(kind(of: value))) }
        switch String(cString: number.objCType) {
        case "d", "f":
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded(.towardZero) else { return .failure(Refusal("a fractional number")) }
            guard double >= 0 else { return .failure(Refusal("negative")) }
            guard double <= Double(Amount.maxMinorUnits) else { return .failure(Refusal("out of range")) }
            return .success(Int64(double))
        case "Q", "L", "I", "S", "C":
            let units = number.uint64Value
            return units <= UInt64(Amount.maxMinorUnits) ? .success(Int64(units)) : .failure(Refusal("out of range"))
        default:
            let units = number.int64Value
            guard units >= 0 else { return .failure(Refusal("negative")) }
            return units <= Amount.maxMinorUnits ? .success(units) : .failure(Refusal("out of range"))
        }
    }

    /// What a refused value is, in words.
    private struct Refusal: Error {
        var what: String
        init(_ what: String) { self.what = what }
    }

    /// A JSON `true` or `false`: an `NSNumber` of the boolean class (which bridges to 1 and 0), or a
    /// Swift `Bool`.
    private static func isBoolean(_ value: Any) -> Bool {
        if let number = value as? NSNumber {
            let code = String(cString: number.objCType)
            return ObjectIdentifier(type(of: number)) == booleanClass || code == "c" || code == "B"
        }
        return value is Bool
    }

    /// The class `JSONSerialization` gives `true` and `false`.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func kind(of value: Any) -> String {
        if isBoolean(value) { return "true or false" }
        switch value {
        case is NSNumber, is Double, is Float, is Int: return "a number"
        case is [Any]: return "an array"
        case is [AnyHashable: Any]: return "an object"
        case is String: return "a string"
        case is NSNull: return "null"
        default: return "\(type(of: value))"
        }
    }
}
