import Foundation
// The part of `os` (unified logging) that Examples/ uses, with Apple's documented signatures
// (https://developer.apple.com/documentation/os/logger), so `make examples` type-checks on Linux.
// Behind it, a fake that records each message with the privacy of each interpolated value.
@_exported import FoundationAppleAdditions
@_spi(Testing) import FoundationAppleAdditions

public struct Logger: Sendable {
    let subsystem: String
    public init(subsystem: String, category: String) { self.subsystem = subsystem }
    public func debug(_ message: OSLogMessage) { LogRecord.add(subsystem, "debug", message) }
    public func info(_ message: OSLogMessage) { LogRecord.add(subsystem, "info", message) }
    public func notice(_ message: OSLogMessage) { LogRecord.add(subsystem, "notice", message) }
    public func log(_ message: OSLogMessage) { LogRecord.add(subsystem, "notice", message) }
    public func error(_ message: OSLogMessage) { LogRecord.add(subsystem, "error", message) }
    public func fault(_ message: OSLogMessage) { LogRecord.add(subsystem, "fault", message) }
}

public struct OSLogPrivacy: Sendable {
    public enum Mask: Sendable {
        case hash
        case none
    }
    let name: String
    public static var `public`: OSLogPrivacy { OSLogPrivacy(name: "public") }
    public static var `private`: OSLogPrivacy { OSLogPrivacy(name: "private") }
    public static var sensitive: OSLogPrivacy { OSLogPrivacy(name: "sensitive") }
    public static var auto: OSLogPrivacy { OSLogPrivacy(name: "auto") }
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "private") }
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "sensitive") }
    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(name: "auto") }
}

public struct OSLogStringAlignment: Sendable {
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
}

/// As the device prints it: `.fixed` is `%f` (six decimals: 2.3 prints as 2.300000), and
/// `.fixed(precision: 3)` is `%.3f`.
public struct OSLogFloatFormatting: Sendable {
    let precision: @Sendable () -> Int
    let explicitPositiveSign: Bool
    public static var fixed: OSLogFloatFormatting { OSLogFloatFormatting(precision: { 6 }, explicitPositiveSign: false) }
    public static func fixed(precision: @autoclosure @escaping @Sendable () -> Int, explicitPositiveSign: Bool = false, uppercase: Bool = false)
        -> OSLogFloatFormatting
    { OSLogFloatFormatting(precision: precision, explicitPositiveSign: explicitPositiveSign) }

    func format(_ number: Double) -> String { String(format: "%\(explicitPositiveSign ? "+" : "").\(precision())f", number) }
}

public struct OSLogIntegerFormatting: Sendable {
    public static var decimal: OSLogIntegerFormatting { OSLogIntegerFormatting() }
}

public struct OSLogInterpolation: StringInterpolationProtocol {
    var text = ""
    /// The device's log as a reader of it sees it: values not marked public are `<private>`.
    var shown = ""
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {
        text += literal
        shown += literal
    }
    private mutating func value(_ value: String, _ privacy: OSLogPrivacy) {
        text += value
        shown += privacy.name == "public" ? value : "<private>"
    }
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) { value(argumentString(), privacy) }
    public mutating func appendInterpolation<T>(
        _ value: @autoclosure @escaping () -> T, align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto
    ) where T: CustomStringConvertible { self.value(value().description, privacy) }
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Double, format: OSLogFloatFormatting = .fixed, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) { value(format.format(number()), privacy) }
    public mutating func appendInterpolation(
        _ number: @autoclosure @escaping () -> Int, format: OSLogIntegerFormatting = .decimal, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) { value("\(number())", privacy) }
    public mutating func appendInterpolation(_ error: @autoclosure @escaping () -> any Error, privacy: OSLogPrivacy = .auto, attributes: String = "") {
        value("\(error())", privacy)
    }
}

public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    let interpolation: OSLogInterpolation
    public init(stringInterpolation: OSLogInterpolation) { interpolation = stringInterpolation }
    public init(stringLiteral value: String) {
        var interpolation = OSLogInterpolation(literalCapacity: 0, interpolationCount: 0)
        interpolation.appendLiteral(value)
        self.interpolation = interpolation
    }
}

/// Every message logged, at its level, as written and as the device's log shows it, and whether
/// the app was suspended then (`FakeSystem.suspended`: on iOS the line would not be written yet).
@_spi(Testing) public enum LogRecord {
    public typealias Entry = (subsystem: String, level: String, text: String, shown: String, whileSuspended: Bool)
    private static let lock = NSLock()
    nonisolated(unsafe) private static var entries: [Entry] = []

    static func add(_ subsystem: String, _ level: String, _ message: OSLogMessage) {
        let suspended = FakeSystem.suspended
        lock.withLock { entries.append((subsystem, level, message.interpolation.text, message.interpolation.shown, suspended)) }
    }

    public static var all: [Entry] { lock.withLock { entries } }
}
