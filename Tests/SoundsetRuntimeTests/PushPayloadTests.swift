import Foundation
import SoundsetRuntime
import Testing

/// Payloads as the extension receives them: JSON text read by `JSONSerialization`, where `true` is
/// an `NSNumber` that bridges to 1 and `12345.0` bridges to 12345. Swift literals never bridge, so
/// every payload here is decoded from text.
@Suite struct PushPayloadTests {
    func read(_ json: String) throws -> AnnouncementRequest {
        try PushPayload.request(fromJSON: Data(json.utf8), arrival: 7)
    }

    /// What the extension does: `userInfo` is the JSON object as `JSONSerialization` made it.
    func userInfo(_ json: String) throws -> AnnouncementRequest {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [AnyHashable: Any]
        return PushPayload.request(from: object, arrival: 7)
    }

    static let refusal = ": send a whole number of minor units from 0 to 99999999999999"
    static let disagree = "the push's amount and amountMinor are two different amounts: send one of them, or both for the same amount"
    static func repeated(_ key: String) -> AnnouncementRequest.AmountInput {
        .missing("the push repeats the key \"\(key)\", which JSON readers take differently: send each key once")
    }

    /// A key the push's object repeats: `JSONSerialization` keeps the last value silently (as
    /// `userInfo` on iOS does), and the text says so, so `request(fromJSON:)` falls back. Keys are
    /// compared as `userInfo`'s are: after their escapes, é composed and decomposed as one.
    @Test(arguments: [
        (#"{"amount": "1.00", "amount": "2.00", "transactionId": "t"}"#, repeated("amount"), "t" as String?),
        (#"{"amountMinor": 100, "amountMinor": 200, "transactionId": "t"}"#, repeated("amountMinor"), "t"),
        (#"{"amount": "1.00", "transactionId": "a", "transactionId": "b"}"#, repeated("transactionId"), nil),
        (#"{"amount": "1.00", "\u0061mount": "2.00"}"#, repeated("amount"), nil),
        (#"{"aps": {}, "amount": "1.00", "aps": {"sound": "default"}}"#, repeated("aps"), nil),
        (#"{"amount": "1.00", "\u00e9": 1, "e\u0301": 2}"#, repeated("e\u{301}"), nil),
        (#"{"amount": "1.00", "\ud83d\ude00": 1, "😀": 2}"#, repeated("😀"), nil),
        (#"{"amount": "1.00", "k123456789012345678901234567890123456789": 1, "k123456789012345678901234567890123456789": 2}"#,
         repeated("k1234567890123456789012345678901…"), nil),
        // Only the top level: what iOS reads in `aps` is its own.
        (#"{"aps": {"alert": "x", "alert": "y"}, "amount": "1.00", "transactionId": "t"}"#, .text("1.00"), "t"),
        // Keys inside strings and nested objects are not the object's.
        (#"{"note": "}, \"amount\": \"9\"", "deep": [{"amount": 1}, "]"], "amount": "1.00"}"#, .text("1.00"), nil),
        (#"  {"amount" : "1.00" , "amountMinor" : 100 }  "#, .text("1.00"), nil),
        (#"{}"#, .missing(#"the push carries no amount: send "amount": "123.45" or "amountMinor": 12345"#), nil),
    ])
    func aRepeatedKeyFallsBack(json: String, amount: AnnouncementRequest.AmountInput, id: String?) throws {
        let request = try read(json)
        #expect(request.amount == amount, "\(json)")
        #expect(request.transactionID == id, "\(json)")
    }

    /// What iOS hands the extension has no repeated key left to see: the last value is read.
    @Test func userInfoKeepsTheLastOfARepeatedKey() throws {
        #expect(try userInfo(#"{"amount": "1.00", "amount": "2.00"}"#).amount == .text("2.00"))
    }

    /// JSON text that `JSONSerialization` reads but is not UTF-8 (a push's JSON always is) cannot be
    /// checked for repeated keys, so it is refused; a UTF-8 byte order mark is read past.
    @Test func readsOnlyUTF8() throws {
        let utf16 = #"{"amount": "1.00", "amount": "2.00"}"#.data(using: .utf16)!
        #expect(throws: PushPayload.JSONError(description: "is not JSON in UTF-8 (APNs sends a push's JSON as UTF-8)")) {
            try PushPayload.request(fromJSON: utf16)
        }
        let marked = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"amount": "1.00", "amount": "2.00"}"#.utf8)
        #expect(try PushPayload.request(fromJSON: marked).amount == Self.repeated("amount"))
    }

    /// A transaction id is a string as sent, or a whole number's digits: a retry of `123` is the
    /// same id as `123`; true, 1.5 and objects are no id.
    @Test(arguments: [
        (#"{"amount": "2.00", "transactionId": "tx-1"}"#, "tx-1" as String?), (#"{"amount": "2.00", "transactionId": 123}"#, "123"),
        (#"{"amount": "2.00", "transactionId": 123.0}"#, "123"), (#"{"amount": "2.00", "transactionId": 18446744073709551615}"#, "18446744073709551615"),
        (#"{"amount": "2.00", "transactionId": -7}"#, "-7"), (#"{"amount": "2.00", "transactionId": true}"#, nil),
        (#"{"amount": "2.00", "transactionId": 1.5}"#, nil), (#"{"amount": "2.00", "transactionId": {"a": 1}}"#, nil),
        (#"{"amount": "2.00"}"#, nil),
    ])
    func theTransactionIDIsTextOrAWholeNumber(json: String, id: String?) throws {
        #expect(try read(json).transactionID == id, "\(json)")
        #expect(try userInfo(json).transactionID == id, "\(json)")
    }

    @Test(arguments: [
        (#"{"amountMinor": 12345}"#, AnnouncementRequest.AmountInput.minorUnits(12345)),
        (#"{"amountMinor": 12345.0}"#, .minorUnits(12345)),
        (#"{"amountMinor": 0}"#, .minorUnits(0)),
        (#"{"amountMinor": 99999999999999}"#, .minorUnits(99_999_999_999_999)),
        (#"{"amountMinor": "12345"}"#, .minorUnits(12345)),
        (#"{"amountMinor": true}"#, .missing("the push's amountMinor is true or false\(refusal)")),
        (#"{"amountMinor": false}"#, .missing("the push's amountMinor is true or false\(refusal)")),
        (#"{"amountMinor": 12345.5}"#, .missing("the push's amountMinor is a fractional number\(refusal)")),
        (#"{"amountMinor": -5}"#, .missing("the push's amountMinor is negative\(refusal)")),
        (#"{"amountMinor": -5.0}"#, .missing("the push's amountMinor is negative\(refusal)")),
        (#"{"amountMinor": 100000000000000}"#, .missing("the push's amountMinor is out of range\(refusal)")),
        (#"{"amountMinor": 1e20}"#, .missing("the push's amountMinor is out of range\(refusal)")),
        (#"{"amountMinor": 18446744073709551615}"#, .missing("the push's amountMinor is out of range\(refusal)")),
        (#"{"amountMinor": "-5"}"#, .missing("the push's amountMinor is a string that is not all digits\(refusal)")),
        (#"{"amountMinor": null}"#, .missing("the push's amountMinor is null\(refusal)")),
        (#"{"amountMinor": [1]}"#, .missing("the push's amountMinor is an array\(refusal)")),
        (#"{"amount": "123.45", "amountMinor": 1}"#, .missing(Self.disagree)),
        (#"{"amount": "12.34", "amountMinor": 1235}"#, .missing(Self.disagree)),
        (#"{"amount": "12.34", "amountMinor": "1235"}"#, .missing(Self.disagree)),
        (#"{"amount": "12.34", "amountMinor": 1234}"#, .text("12.34")),
        (#"{"amount": "12.3", "amountMinor": 1230.0}"#, .text("12.3")),
        (#"{"amount": "12.34", "amountMinor": "1234"}"#, .text("12.34")),
        (#"{"amount": "12.34", "amountMinor": true}"#, .missing("the push's amountMinor is true or false\(refusal), or only amount")),
        (#"{"amount": "12.34", "amountMinor": null}"#, .missing("the push's amountMinor is null\(refusal), or only amount")),
        // An amount that does not read is refused for itself, by the announcer.
        (#"{"amount": "12abc", "amountMinor": 1234}"#, .text("12abc")),
        (#"{"amount": 12.5}"#, .missing(#"the push's amount is a number, not a string: send "amount": "123.45""#)),
        (#"{"amount": true}"#, .missing(#"the push's amount is true or false, not a string: send "amount": "123.45""#)),
        (#"{"aps": {"alert": "x"}}"#, .missing(#"the push carries no amount: send "amount": "123.45" or "amountMinor": 12345"#)),
    ])
    func readsTheAmountAsJSONSerializationGivesIt(json: String, amount: AnnouncementRequest.AmountInput) throws {
        #expect(try read(json).amount == amount)
        #expect(try userInfo(json).amount == amount)
    }

    @Test func readsTheTransactionIdByItsBytes() throws {
        #expect(try read(#"{"amount": "1", "transactionId": "P-1"}"#).transactionID == "P-1")
        #expect(try read(#"{"amount": "1", "transactionId": ""}"#).transactionID == nil)
        #expect(try read(#"{"amount": "1", "transactionId": 42}"#).transactionID == "42")
        #expect(try read(#"{"amount": "1"}"#).arrival == 7)
        // é composed and decomposed: Swift calls the two strings equal, but they are two ids.
        let composed = try read(#"{"amount": "1", "transactionId": "tx-\u00e9"}"#).transactionID!
        let decomposed = try read(#"{"amount": "1", "transactionId": "tx-e\u0301"}"#).transactionID!
        #expect(Array(composed.utf8) == [0x74, 0x78, 0x2D, 0xC3, 0xA9])
        #expect(Array(decomposed.utf8) == [0x74, 0x78, 0x2D, 0x65, 0xCC, 0x81])
    }

    @Test func refusesWhatIsNotAPush() {
        #expect(throws: PushPayload.JSONError(description: "is not JSON")) { try read("amount=1") }
        #expect(
            throws: PushPayload.JSONError(
                description: #"is not a JSON object (a push is {"aps": {…}, "amount": "123.45", "transactionId": "…"})"#)
        ) { try read("[1]") }
        let large = #"{"amount": "1", "pad": ""# + String(repeating: " ", count: 70_000) + #""}"#
        #expect(throws: PushPayload.JSONError(description: "is \(large.utf8.count) bytes, more than the 65536 a push's JSON may have")) {
            try read(large)
        }
    }
}
