import Foundation
import SoundsetRuntime
import UIKit
import UserNotifications
import os

// The app's side of soundset. Call `setUpAnnouncements()` once at launch, on the main actor:
//
//     func application(_ application: UIApplication,
//                      didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
//         setUpAnnouncements()
//         return true
//     }
//
// or from a SwiftUI `App`'s `init()`. Needs `Shared/AppGroup.swift` in the app target.

private var logger: Logger { Logger(subsystem: "com.example.pay", category: "soundset") }

/// Sets the notification centre's delegate, so an announcement plays while the app is open, and
/// installs the sound set.
@MainActor func setUpAnnouncements() {
    UNUserNotificationCenter.current().delegate = ForegroundAnnouncements.shared
    installAnnouncementSounds()
}

/// Shows a push that arrives while the app is in the foreground, and plays its sound. With no
/// delegate, iOS neither shows such a notification nor plays its sound: a merchant with the app
/// open at the till would hear nothing. (The delegate is held weakly: `shared` keeps it.)
final class ForegroundAnnouncements: NSObject, UNUserNotificationCenterDelegate, Sendable {
    static let shared = ForegroundAnnouncements()

    /// What a foreground notification does: a banner, a place in Notification Centre, its sound.
    static let options: UNNotificationPresentationOptions = [.banner, .list, .sound]

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler(Self.options)
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
        let outcome = install(gate: gate)
        await task.end(application)
        switch outcome {
        case .success(let id): logger.info("sound set \(id, privacy: .public) installed")
        case .failure(let failure): logger.error("the sound set cannot be installed: \(failure.reason, privacy: .public)")
        }
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

/// Asks for permission to show alerts and play sounds.
///
/// Every delivery needs it: the composed announcement (the default) is the push's own sound, and
/// a chain (`delivery` `chain` or `auto`) adds local notifications, which use the same permission.
/// A payment app usually asks already where it registers for remote notifications; then nothing
/// more is needed, and this function is only for an app that does not.
func requestNotificationPermission() async -> Bool {
    do {
        return try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound])
    } catch {
        logger.error("notification permission: \(String(describing: error), privacy: .public)")
        return false
    }
}
