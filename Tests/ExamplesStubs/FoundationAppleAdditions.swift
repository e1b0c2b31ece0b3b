// Declarations of Foundation that exist only on Apple platforms, with Apple's documented
// signatures, so that `make examples` type-checks Examples/ on Linux; behind them, a fake that the
// checks in Tests/ExamplesStubs/Checks drive (`@_spi(Testing)`, which the Examples cannot see).
import Foundation

extension FileManager {
    /// https://developer.apple.com/documentation/foundation/filemanager/containerurl(forsecurityapplicationgroupidentifier:)
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { FakeSystem.container }
}

extension ProcessInfo {
    /// https://developer.apple.com/documentation/foundation/processinfo/performexpiringactivity(withreason:using:)
    /// The fake runs the block on another thread, as iOS does; as `FakeSystem.activities` says, it
    /// grants the time, grants none (only `block(true)`, as when the process is about to be
    /// suspended), or grants it and expires it meanwhile (`block(true)` on another thread while
    /// `block(false)` runs).
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        FakeSystem.record("activity: \(reason)")
        switch FakeSystem.activities {
        case .granted:
            DispatchQueue.global().async { block(false) }
        case .refused:
            DispatchQueue.global().async { block(true) }
        case .expireMeanwhile:
            DispatchQueue.global().async { block(false) }
            DispatchQueue.global().async { block(true) }
        }
    }
}

/// What the fake system was asked, and the container it answers with.
@_spi(Testing) public enum FakeSystem {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var events: [String] = []
    nonisolated(unsafe) private static var containerURL: URL?
    nonisolated(unsafe) private static var activityMode = ActivityMode.granted

    /// What `performExpiringActivity` does with its block.
    public enum ActivityMode: Sendable {
        /// `block(false)`: the time is granted.
        case granted
        /// `block(true)` only: the process is about to be suspended, no time is granted.
        case refused
        /// `block(false)`, and meanwhile `block(true)` on another thread.
        case expireMeanwhile
    }

    public static var activities: ActivityMode {
        get { lock.withLock { activityMode } }
        set { lock.withLock { activityMode = newValue } }
    }

    public static var container: URL? {
        get { lock.withLock { containerURL } }
        set { lock.withLock { containerURL = newValue } }
    }

    nonisolated(unsafe) private static var background = false
    nonisolated(unsafe) private static var suspendedNow = false

    /// Whether the app runs in the background (launched by the system): it is suspended as soon
    /// as its last background task ends.
    public static var inBackground: Bool {
        get { lock.withLock { background } }
        set { lock.withLock { background = newValue; if !newValue { suspendedNow = false } } }
    }
    /// Whether the app is suspended: what it does now (a line it logs) would not happen on iOS
    /// until it runs again, if ever.
    public static var suspended: Bool {
        get { lock.withLock { suspendedNow } }
        set { lock.withLock { suspendedNow = newValue && background } }
    }

    public static func record(_ event: String) { lock.withLock { events.append(event) } }
    public static var recorded: [String] { lock.withLock { events } }
}
