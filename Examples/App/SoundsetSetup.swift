import Foundation
import SoundsetRuntime
import UIKit
import UserNotifications
import os

// The app's side of soundset. Call `setUpAnnouncements()` once at launch, on the main actor, after
// any push SDK (JPush, Getui, Firebase Messaging...) has set itself up:
//
//     func application(_ application: UIApplication,
//                      didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
//         // the push SDK's own set-up first: it sets the notification centre's delegate
//         setUpAnnouncements()
//         return true
//     }
//
// or from a SwiftUI `App`'s `init()`. Needs `Shared/AppGroup.swift` in the app target.

private var logger: Logger { Logger(subsystem: "com.example.pay", category: "soundset") }

/// Sets the notification centre's delegate, so an announcement plays while the app is open (the
/// delegate that was there, a push SDK's or the app's, is kept and given every other callback),
/// checks each time the app becomes active that no SDK has taken the delegate's place since, and
/// installs the sound set.
@MainActor func setUpAnnouncements() {
    ForegroundAnnouncements.shared.install(on: UNUserNotificationCenter.current())
    if !DelegateWatch.started {
        DelegateWatch.started = true
        // An observer for the app's life, never removed; it runs where the notification is posted
        // (the main thread) and checks on the main actor.
        _ = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: nil) { _ in
            Task { @MainActor in checkAnnouncementDelegate() }
        }
    }
    installAnnouncementSounds()
}

/// Logs an error when the notification centre's delegate is no longer ours: an SDK set up after
/// `setUpAnnouncements()` took the single slot, and a payment that arrives while the app is open is
/// then shown and heard only if that SDK's delegate says so. Called each time the app becomes
/// active; the fix is to call `setUpAnnouncements()` after the SDK's set-up (docs/ios.md).
/// - Returns: whether the delegate is ours.
@MainActor @discardableResult func checkAnnouncementDelegate() -> Bool {
    let current = UNUserNotificationCenter.current().delegate
    guard current !== ForegroundAnnouncements.shared else { return true }
    let holder = current.map { String(describing: type(of: $0)) } ?? "nothing"
    logger.error(
        "the notification centre's delegate is \(holder, privacy: .public), not soundset's: a payment that arrives while the app is open may be neither shown nor heard (call setUpAnnouncements() after the push SDK's set-up)"
    )
    return false
}

@MainActor private enum DelegateWatch {
    static var started = false
}

/// The notification centre's delegate: shows a payment push that arrives while the app is in the
/// foreground and plays its sound, and forwards every other callback to the delegate it replaced
/// (a push SDK's, or the app's own), so taking the single delegate slot breaks nothing.
///
/// With no delegate, iOS neither shows a foreground notification nor plays its sound: a merchant
/// with the app open at the till would hear nothing. The centre holds its delegate weakly: `shared`
/// keeps this one, and this one keeps the one it replaced.
final class ForegroundAnnouncements: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked: `replaced` is read and written under `lock`.
    static let shared = ForegroundAnnouncements()

    /// What a foreground payment does: a banner, a place in Notification Centre, its sound.
    static let options: UNNotificationPresentationOptions = [.banner, .list, .sound]

    private let lock = NSLock()
    private var replaced: (any UNUserNotificationCenterDelegate)?

    /// The delegate this one replaced, which gets every callback this one does not handle.
    var forwardingTo: (any UNUserNotificationCenterDelegate)? { lock.withLock { replaced } }

    /// Becomes `center`'s delegate, keeping the one there (unless it is this one: a second call
    /// changes nothing).
    @MainActor func install(on center: UNUserNotificationCenter) {
        let current = center.delegate
        if current !== self { lock.withLock { replaced = current } }
        center.delegate = self
    }

    /// Whether `notification` is a payment push: it carries what `PushPayload` reads.
    static func isPayment(_ notification: UNNotification) -> Bool {
        let userInfo = notification.request.content.userInfo
        return userInfo["amount"] != nil || userInfo["amountMinor"] != nil
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        guard !Self.isPayment(notification), let replaced = forwardingTo else {
            completionHandler(Self.options)
            return
        }
        // An optional requirement in the SDK: nil when the delegate does not implement it.
        let forward: ((UNUserNotificationCenter, UNNotification, @escaping @Sendable (UNNotificationPresentationOptions) -> Void) -> Void)? =
            replaced.userNotificationCenter(_:willPresent:withCompletionHandler:)
        guard let forward else {
            completionHandler([])  // what iOS does for that delegate: nothing shown
            return
        }
        forward(center, notification, completionHandler)
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        let forward: ((UNUserNotificationCenter, UNNotificationResponse, @escaping @Sendable () -> Void) -> Void)? =
            forwardingTo?.userNotificationCenter(_:didReceive:withCompletionHandler:)
        guard let forward else {
            completionHandler()
            return
        }
        forward(center, response, completionHandler)
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {
        let forward: ((UNUserNotificationCenter, UNNotification?) -> Void)? = forwardingTo?.userNotificationCenter(_:openSettingsFor:)
        forward?(center, notification)
    }
}

/// Copies the set the app ships (`Output/`, a folder reference in the app target) into the App
/// Group's `Library/Sounds`, each clip under a name that begins with the set's id, removes earlier
/// sets no queued announcement still plays, and gives soundset's files their protection class.
///
/// It runs inside a background task, ended in every path: iOS kills a process suspended while it
/// holds a lock on a file in a shared container (0xdead10cc). The install copies without the
/// group's lock and takes it only to rename the copies into place; when the task expires, the gate
/// closes (after a hold under way) and the install stops short of the lock.
@MainActor func installAnnouncementSounds() {
    let application = UIApplication.shared
    let gate = SuspensionGate()
    let task = BackgroundTask()
    task.identifier = application.beginBackgroundTask(withName: "Install the announcement sounds") {
        gate.close()
        task.end(application)
    }
    // Off the main thread: the first install after an update copies every clip.
    Task.detached(priority: .utility) {
        switch install(gate: gate) {
        case .success(let id): logger.notice("sound set \(id, privacy: .public) installed")
        case .failure(let failure): logger.error("the sound set cannot be installed: \(failure.reason, privacy: .public)")
        }
        // Ended last: the line is logged inside the task (and whoever waits for the end sees it).
        await task.end(application)
    }
}

/// The install itself: the set's id, or why it failed (it names the file and what to ship).
private func install(gate: SuspensionGate) -> Result<String, InstallFailure> {
    guard let folder = Bundle.main.url(forResource: "Output", withExtension: nil) else {
        return .failure(InstallFailure("Output is not in the app bundle: add it to the app target as a folder reference"))
    }
    guard let group = AppGroup.folder else {
        return .failure(InstallFailure("no container for \(AppGroup.identifier): add the App Groups capability to the app"))
    }
    do {
        let set = try SoundSet(folder: folder)
        return .success(try SoundSetInstaller.install(set, into: group, gate: gate).id)
    } catch {
        // ManifestError or InstallError; both say which file is wrong and what to ship.
        return .failure(InstallFailure(String(describing: error)))
    }
}

private struct InstallFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A background task's identifier, ended once, on the main actor.
@MainActor private final class BackgroundTask {
    var identifier = UIBackgroundTaskIdentifier.invalid

    func end(_ application: UIApplication) {
        guard identifier != .invalid else { return }
        application.endBackgroundTask(identifier)
        identifier = .invalid
    }
}

/// Asks for permission to show alerts, play sounds and badge the icon, then registers for remote
/// notifications: iOS answers with the device token in
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` (send `deviceTokenHex(_:)` of
/// it to the payment server, which addresses its pushes to it).
///
/// Every delivery needs the permission: the composed announcement (the default) is the push's own
/// sound, and a chain (`delivery` `chain` or `auto`) adds local notifications, which use the same
/// one. iOS asks the merchant once; when it is denied, a payment push is neither shown nor heard
/// until the merchant allows it in Settings > Notifications, and this logs an error saying so. A
/// payment app usually asks already where it registers; then only the options matter.
@MainActor func askForPaymentNotifications() async {
    if !(await requestNotificationPermission()) {
        logger.error("notifications are not allowed: payment pushes are neither shown nor heard (Settings > Notifications > the app)")
    }
    // The token comes whether or not alerts are allowed; pushes reach a phone that has one.
    UIApplication.shared.registerForRemoteNotifications()
}

/// Asks for permission to show alerts, play sounds and badge the icon.
/// - Returns: whether it is granted (false when denied, or when the request fails).
func requestNotificationPermission() async -> Bool {
    do {
        return try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound, .badge])
    } catch {
        logger.error("notification permission: \(String(describing: error), privacy: .public)")
        return false
    }
}

/// The device token as APNs requests name it (the path `/3/device/<token>`): its bytes in
/// lower-case hex, 64 characters for today's 32-byte tokens. Call it in
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`; a token is not text, and
/// `String(describing:)` of the `Data` gives "32 bytes".
func deviceTokenHex(_ deviceToken: Data) -> String {
    deviceToken.map { String(format: "%02x", $0) }.joined()
}
