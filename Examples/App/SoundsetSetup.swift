import Foundation
import SoundsetRuntime
import UserNotifications
import os

// The app's side of soundset. Call `installAnnouncementSounds()` once at launch:
//
//     func application(_ application: UIApplication,
//                      didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
//         installAnnouncementSounds()
//         return true
//     }
//
// or from a SwiftUI `App`'s `init()`. Needs `Shared/AppGroup.swift` in the app target.

private var logger: Logger { Logger(subsystem: "com.example.pay", category: "soundset") }

/// Copies the set the app ships (`Output/`, a folder reference in the app target) into the App
/// Group's `Library/Sounds`, each clip under a name that begins with the set's id, and removes
/// earlier sets no queued announcement still plays.
///
/// The extension installs the set itself when it is missing, but doing it here keeps the first
/// copy after an update out of a push's 30 s and memory budget. When the set is already
/// installed this costs a stat per file.
func installAnnouncementSounds() {
    // Off the main thread: the first install after an update copies every clip.
    Task.detached(priority: .utility) {
        guard let folder = Bundle.main.url(forResource: "Output", withExtension: nil) else {
            logger.error("Output is not in the app bundle: add it to the app target as a folder reference")
            return
        }
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: AppGroup.identifier) else {
            logger.error("no container for \(AppGroup.identifier, privacy: .public): add the App Groups capability to the app")
            return
        }
        do {
            let set = try SoundSet(folder: folder)
            let installed = try SoundSetInstaller.install(set, into: GroupFolder(container))
            logger.info("sound set \(installed.id, privacy: .public) installed")
        } catch {
            // ManifestError or InstallError; both say which file is wrong and what to ship.
            logger.error("the sound set cannot be installed: \(String(describing: error), privacy: .public)")
        }
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
