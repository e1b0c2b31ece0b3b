/// A parsed JSON value (from `JSONParser`) that keeps booleans, numbers and strings apart, so the
/// configuration can name every wrong type and unknown key instead of ignoring them as `Codable` would.
enum JSONValue: Equatable, Sendable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    /// The value at `path` inside nested objects, or nil when some key along it is absent.
    func member(at path: [String]) -> JSONValue? {
        guard let first = path.first else { return self }
        guard case .object(let members) = self else { return nil }
        return members[first]?.member(at: Array(path.dropFirst()))
    }

    /// How the value's type is named in error messages.
    var typeName: String {
        switch self {
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .null: "null"
        }
    }
}
