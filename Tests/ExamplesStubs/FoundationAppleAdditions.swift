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
    /// The fake runs the block on another thread, as iOS does, and counts activities under way.
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        FakeSystem.record("activity: \(reason)")
        DispatchQueue.global().async { block(false) }
    }
}

/// What the fake system was asked, and the container it answers with.
@_spi(Testing) public enum FakeSystem {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var events: [String] = []
    nonisolated(unsafe) private static var containerURL: URL?

    public static var container: URL? {
        get { lock.withLock { containerURL } }
        set { lock.withLock { containerURL = newValue } }
    }

    public static func record(_ event: String) { lock.withLock { events.append(event) } }
    public static var recorded: [String] { lock.withLock { events } }
}
