import Foundation

/// The data-protection class soundset gives every file and folder it creates in the App Group (and
/// gives again, at install, to what it finds of its own).
///
/// iOS gives a new file its folder's class, and an app's default is "complete until first user
/// authentication": unreadable after a restart until the phone is first unlocked. Extensions do run
/// then, and the lock screen shows the amount anyway, so the default here is `none`: the queue, the
/// installed clips and the composed files (deleted a minute after they play) stay readable, and the
/// first push after a restart is announced. A stricter class makes every push before the first
/// unlock fall back (the reason says that protected data is not available).
public enum GroupFileProtection: String, Sendable, CaseIterable {
    /// Readable at any time (`FileProtectionType.none`).
    case none
    /// Readable once the phone has been unlocked after it started (`.completeUntilFirstUserAuthentication`).
    case completeUntilFirstUserAuthentication
    /// New files can be written while locked; existing ones read only while unlocked (`.completeUnlessOpen`).
    case completeUnlessOpen
    /// Readable only while the phone is unlocked (`.complete`): every push on a locked phone falls back.
    case complete

    #if canImport(Darwin)
        /// Foundation's value for this class.
        public var fileProtectionType: FileProtectionType {
            switch self {
            case .none: .none
            case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
            case .completeUnlessOpen: .completeUnlessOpen
            case .complete: .complete
            }
        }
    #endif
}

/// The class to give, and how it is given: on Apple platforms through `FileManager` (the file's
/// `FileAttributeKey.protectionKey`); on other systems, which have no data protection, nothing, or
/// a test's recorder.
struct GroupProtection: Sendable {
    var level: GroupFileProtection
    /// Gives `level` to the open file or folder `descriptor`, created at `path`.
    var applier: @Sendable (_ descriptor: Int32, _ path: String, _ level: GroupFileProtection) -> Void = GroupProtection.system

    func apply(to descriptor: Int32, path: String) { applier(descriptor, path, level) }

    /// The platform's own: `FileProtectionType` on Apple platforms (a volume without data protection,
    /// such as a Mac's, refuses it, and nothing else changes); nothing elsewhere.
    static let system: @Sendable (Int32, String, GroupFileProtection) -> Void = { _, path, level in
        #if canImport(Darwin)
            try? FileManager.default.setAttributes([.protectionKey: level.fileProtectionType], ofItemAtPath: path)
        #endif
    }
}
