import Foundation

extension PushPayload {
    /// Why a push's JSON text cannot be read.
    public struct JSONError: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The `userInfo` of a push whose payload is the JSON text `data`, decoded as iOS decodes it
    /// (`JSONSerialization`: `true` is the number 1, `12345.0` the number 12345).
    /// - Throws: `JSONError` when `data` is not a JSON object.
    public static func userInfo(fromJSON data: Data) throws(JSONError) -> [AnyHashable: Any] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data, options: []) } catch {
            throw JSONError(reason: "not valid JSON")
        }
        guard let dictionary = object as? [String: Any] else { throw JSONError(reason: "not a JSON object (a push's payload is one)") }
        var info: [AnyHashable: Any] = [:]
        for (key, value) in dictionary { info[key] = value }
        return info
    }

    /// The request for a push whose payload is the JSON text `data`, arriving at `arrival` (nil: now):
    /// `request(from:arrival:)` of what iOS hands the extension.
    /// - Throws: `JSONError` when `data` is not a JSON object.
    public static func request(fromJSON data: Data, arrival: Double? = nil) throws(JSONError) -> AnnouncementRequest {
        request(from: try userInfo(fromJSON: data), arrival: arrival)
    }
}
