import Foundation

/// Where the announcer's time comes from: the system's clock in the app, a fake one in tests.
/// Times are seconds on one clock shared by every caller (the system's: since 1970).
public protocol AnnouncerClock: Sendable {
    /// The time now, seconds.
    func now() -> Double
}

/// The system's clock: seconds since 1970.
public struct SystemClock: AnnouncerClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
}
