/// A reason in words, and the same reason with the amount and the transaction id masked: what the
/// extension may log as public, so the device's log says why a push fell back without saying who
/// paid how much.
///
/// Written as a string: `"the amount '\(amount: text)' is refused"` puts `text` in the reason and
/// `<amount>` in the masked one; `\(id: id)` does the same for a transaction id.
struct Reason: ExpressibleByStringInterpolation, Equatable, Sendable {
    var text: String
    var masked: String

    /// A reason that holds neither the amount nor a transaction id.
    init(_ text: String) {
        self.text = text
        masked = text
    }

    init(stringLiteral value: String) { self.init(value) }

    init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
        masked = stringInterpolation.masked
    }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""
        var masked = ""

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { append(literal, literal) }
        mutating func appendInterpolation(_ value: some Any) { append("\(value)", "\(value)") }
        mutating func appendInterpolation(_ reason: Reason) { append(reason.text, reason.masked) }
        /// The amount, or a part of it.
        mutating func appendInterpolation(amount: String) { append(amount, "<amount>") }
        /// A transaction id.
        mutating func appendInterpolation(id: String) { append(id, "<transaction id>") }
        /// `value`, masked as `masked`.
        mutating func appendInterpolation(_ value: String, masked other: String) { append(value, other) }

        private mutating func append(_ plain: String, _ hidden: String) {
            text += plain
            masked += hidden
        }
    }

    /// The reasons joined by `separator`.
    static func joined(_ reasons: [Reason], separator: String) -> Reason? {
        guard !reasons.isEmpty else { return nil }
        var joined = Reason("")
        joined.text = reasons.map(\.text).joined(separator: separator)
        joined.masked = reasons.map(\.masked).joined(separator: separator)
        return joined
    }
}
