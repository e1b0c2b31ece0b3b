/// What the app's push carries beside `aps`, read into a request: the amount and the transaction id.
///
/// ```json
/// { "aps": { "alert": { "title": "收款到账" }, "mutable-content": 1 },
///   "amount": "123.45", "transactionId": "P20261201-0001" }
/// ```
///
/// `amount` is a string, read exactly (a JSON number is a binary float, and 123.45 is not one);
/// `amountMinor`, an integer number of minor units (分, cents), may stand instead. The transaction
/// id is the payment's, the same on every retry; never the push's `request.identifier`, which is the
/// collapse id when the server sets one.
public enum PushPayload {
    /// The amount as text.
    public static let amountKey = "amount"
    /// The amount as an integer of minor units.
    public static let minorUnitsKey = "amountMinor"
    /// The transaction id.
    public static let transactionKey = "transactionId"

    /// The request for a push whose `userInfo` is `payload`, arriving at `arrival` (nil: now).
    public static func request(from payload: [AnyHashable: Any], arrival: Double? = nil) -> AnnouncementRequest {
        AnnouncementRequest(amount: amount(in: payload), transactionID: payload[transactionKey] as? String, arrival: arrival)
    }

    static func amount(in payload: [AnyHashable: Any]) -> AnnouncementRequest.AmountInput {
        if let text = payload[amountKey] as? String { return .text(text) }
        if let value = payload[amountKey] {
            return .missing("the push's \(amountKey) is \(kind(of: value)), not a string: send \"\(amountKey)\": \"123.45\"")
        }
        switch payload[minorUnitsKey] {
        case let units as Int: return .minorUnits(Int64(units))
        case let units as Int64: return .minorUnits(units)
        case let text as String where !text.isEmpty && text.utf8.count <= 18 && text.utf8.allSatisfy({ (48...57).contains($0) }):
            return .minorUnits(Int64(text)!)
        case nil:
            return .missing("the push carries no amount: send \"\(amountKey)\": \"123.45\" or \"\(minorUnitsKey)\": 12345")
        case let value?:
            return .missing("the push's \(minorUnitsKey) is \(kind(of: value)), not a whole number of minor units")
        }
    }

    private static func kind(of value: Any) -> String {
        switch value {
        case is Double, is Float: "a number"
        case is Bool: "true or false"
        case is [Any]: "an array"
        case is [AnyHashable: Any]: "an object"
        case let text as String: "'\(ClipNameRules.printable(text))'"
        default: "\(type(of: value))"
        }
    }
}
