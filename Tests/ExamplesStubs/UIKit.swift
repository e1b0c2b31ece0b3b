import Foundation
// The part of UIKit that Examples/ uses (background tasks), with Apple's documented signatures
// (https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(withname:expirationhandler:)),
// so `make examples` type-checks on Linux. UIApplication is main-actor isolated, as in the SDK.
// Behind it, a fake that records the tasks begun and ended, and can expire them.
@_exported import FoundationAppleAdditions
@_spi(Testing) import FoundationAppleAdditions

public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

@MainActor
open class UIApplication {
    private static let instance = UIApplication()
    public class var shared: UIApplication { instance }
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")

    private var registrations = 0
    /// https://developer.apple.com/documentation/uikit/uiapplication/registerforremotenotifications()
    open func registerForRemoteNotifications() { registrations += 1 }
    /// How often the app registered for remote notifications.
    @_spi(Testing) public var remoteRegistrations: Int { registrations }

    private let lock = NSLock()
    nonisolated(unsafe) private var next = 1
    nonisolated(unsafe) private var handlers: [Int: @MainActor @Sendable () -> Void] = [:]
    nonisolated(unsafe) private var endedTasks: [Int] = []

    nonisolated public func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        lock.withLock {
            defer { next += 1 }
            if let handler { handlers[next] = handler }
            return UIBackgroundTaskIdentifier(rawValue: next)
        }
    }

    nonisolated public func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil) -> UIBackgroundTaskIdentifier {
        beginBackgroundTask(withName: nil, expirationHandler: handler)
    }

    /// In the background (`FakeSystem.inBackground`), ending the last task under way suspends the
    /// app, as iOS may at once: what the caller does afterwards is recorded as done while suspended.
    nonisolated public func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        let none = lock.withLock {
            endedTasks.append(identifier.rawValue)
            return Set(endedTasks).count >= next - 1
        }
        if none { FakeSystem.suspended = true }
    }

    /// The tasks begun, and those ended (each as often as it was).
    @_spi(Testing) nonisolated public var begun: Int { lock.withLock { next - 1 } }
    @_spi(Testing) nonisolated public var ended: [Int] { lock.withLock { endedTasks } }
}
