import Foundation
import SoundsetRuntime

/// The App Group the app and its Notification Service Extension share. Add this file to both
/// targets; the id must match the App Groups capability of both.
enum AppGroup {
    static let identifier = "group.com.example.pay"

    /// The data-protection class of what soundset writes in the group. `none` keeps announcements
    /// working on a phone that has not been unlocked since it started (the lock screen shows the
    /// amount anyway); a stricter class makes those pushes play the system's sound (docs/ios.md).
    static let protection: GroupFileProtection = .none

    /// The group's folder, or nil when the target lacks the App Groups capability.
    static var folder: GroupFolder? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier).map { GroupFolder($0, protection: protection) }
    }
}
