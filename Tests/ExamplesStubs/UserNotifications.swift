import Foundation
// The part of UserNotifications that Examples/ uses, with Apple's documented signatures
// (https://developer.apple.com/documentation/usernotifications), so `make examples` type-checks on
// Linux. Where the SDK's protocol requirement is optional, it is required here: the Examples must
// implement it, with the SDK's signature. Behind it, a fake notification centre that keeps its
// delegate and records what is added; what the checks need to make (a notification, a request's
// content) is `@_spi(Testing)`, out of the Examples' reach.
@_exported import FoundationAppleAdditions

public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

open class UNNotificationSound: NSObject {
    /// The sound's name; nil for the default sound.
    @_spi(Testing) public let name: String?
    public init(named name: UNNotificationSoundName) { self.name = name.rawValue }
    private init(default: Void) { name = nil }
    nonisolated(unsafe) private static let defaultSound = UNNotificationSound(default: ())
    open class var `default`: UNNotificationSound { defaultSound }
}

public enum UNNotificationInterruptionLevel: UInt, Sendable {
    case passive, active, timeSensitive, critical
}

open class UNNotificationContent: NSObject {
    fileprivate var storedUserInfo: [AnyHashable: Any] = [:]
    fileprivate var storedSound: UNNotificationSound?
    fileprivate var storedLevel = UNNotificationInterruptionLevel.active

    @_spi(Testing) public init(userInfo: [AnyHashable: Any]) {
        storedUserInfo = userInfo
        super.init()
    }
    override init() { super.init() }

    open var userInfo: [AnyHashable: Any] { storedUserInfo }
    open var sound: UNNotificationSound? { storedSound }
    @available(iOS 15.0, *) open var interruptionLevel: UNNotificationInterruptionLevel { storedLevel }
    open override func mutableCopy() -> Any {
        let copy = UNMutableNotificationContent()
        copy.storedUserInfo = storedUserInfo
        copy.storedSound = storedSound
        copy.storedLevel = storedLevel
        return copy
    }
}

open class UNMutableNotificationContent: UNNotificationContent {
    public override init() { super.init() }
    open override var userInfo: [AnyHashable: Any] {
        get { storedUserInfo }
        set { storedUserInfo = newValue }
    }
    open override var sound: UNNotificationSound? {
        get { storedSound }
        set { storedSound = newValue }
    }
    @available(iOS 15.0, *) open override var interruptionLevel: UNNotificationInterruptionLevel {
        get { storedLevel }
        set { storedLevel = newValue }
    }
}

open class UNNotificationTrigger: NSObject {}

open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger {
    @_spi(Testing) public let timeInterval: TimeInterval
    /// As on iOS, which raises NSInternalInconsistencyException ("time interval must be greater than
    /// 0", and at least 60 when repeating): the process stops, so an Example that schedules a
    /// zero-second trigger fails `make examples`.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        guard timeInterval > 0 else { fatalError("UNTimeIntervalNotificationTrigger: time interval must be greater than 0 (\(timeInterval))") }
        guard !repeats || timeInterval >= 60 else { fatalError("UNTimeIntervalNotificationTrigger: time interval must be at least 60 if repeating") }
        self.timeInterval = timeInterval
    }
}

open class UNNotificationRequest: NSObject {
    private let storedIdentifier: String
    private let storedContent: UNNotificationContent
    private let storedTrigger: UNNotificationTrigger?
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        storedIdentifier = identifier
        storedContent = content
        storedTrigger = trigger
    }
    open var identifier: String { storedIdentifier }
    open var content: UNNotificationContent { storedContent }
    open var trigger: UNNotificationTrigger? { storedTrigger }
}

open class UNNotification: NSObject {
    private let storedRequest: UNNotificationRequest
    @_spi(Testing) public init(request: UNNotificationRequest) { storedRequest = request }
    open var request: UNNotificationRequest { storedRequest }
    open var date: Date { Date() }
}

public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

public struct UNAuthorizationOptions: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
}

open class UNNotificationResponse: NSObject {
    private let storedNotification: UNNotification
    private let storedAction: String
    @_spi(Testing) public init(notification: UNNotification, actionIdentifier: String = UNNotificationDefaultActionIdentifier) {
        storedNotification = notification
        storedAction = actionIdentifier
    }
    open var notification: UNNotification { storedNotification }
    open var actionIdentifier: String { storedAction }
}

public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

/// Every requirement is optional in the SDK (`@objc optional`), which Linux cannot declare: here
/// each is required, so a delegate of the Examples implements all three with the SDK's signatures,
/// and code that calls another delegate's must read the method as an optional value first
/// (`let forward: ((…) -> Void)? = other.userNotificationCenter(_:willPresent:withCompletionHandler:)`),
/// which compiles against both.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void)
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

open class UNUserNotificationCenter: NSObject {
    nonisolated(unsafe) private static let instance = UNUserNotificationCenter()
    private let lock = NSLock()
    private var added: [String] = []

    private var asked: [UNAuthorizationOptions] = []
    private var answer = true

    open class func current() -> UNUserNotificationCenter { instance }
    weak open var delegate: (any UNUserNotificationCenterDelegate)?
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        lock.withLock {
            asked.append(options)
            return answer
        }
    }

    /// What the merchant answers when asked for permission (true: allowed).
    @_spi(Testing) public var grantsAuthorization: Bool {
        get { lock.withLock { answer } }
        set { lock.withLock { answer = newValue } }
    }
    /// The options of each permission request.
    @_spi(Testing) public var authorizationRequests: [UNAuthorizationOptions] { lock.withLock { asked } }
    private var delays: [TimeInterval] = []
    open func add(_ request: UNNotificationRequest) async throws {
        lock.withLock {
            added.append(request.identifier)
            if let trigger = request.trigger as? UNTimeIntervalNotificationTrigger { delays.append(trigger.timeInterval) }
        }
    }
    /// The time intervals of the requests added with a time-interval trigger.
    @_spi(Testing) public var addedDelays: [TimeInterval] { lock.withLock { delays } }
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {}

    /// The identifiers of the requests added.
    @_spi(Testing) public var addedRequests: [String] { lock.withLock { added } }
}

open class UNNotificationServiceExtension: NSObject {
    public override init() {}
    open func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {}
    open func serviceExtensionTimeWillExpire() {}
}
