import Foundation
import SoundsetRuntime
import UserNotifications
import os

// The Notification Service Extension's side of soundset: glue only. Every decision (queue, banner,
// wait, 64 pending, duplicates, fallback, cleanup) is the runtime's, tested in
// Tests/SoundsetRuntimeTests. Needs `Shared/AppGroup.swift` in the extension target.
//
// The push (docs/push.json): an alert that the extension may change, with the system's sound for
// when it cannot, and custom keys beside "aps", read by `PushPayload` (tested in the runtime, from
// JSON text as APNs delivers it):
//
//     {"aps": {"alert": {"title": "收款到账", "body": "¥123.45"}, "sound": "default", "mutable-content": 1},
//      "amount": "123.45", "transactionId": "P20240101-0001"}
//
//     "mutable-content": 1         the extension runs only for an alert push that carries it
//     "sound": "default"           what the merchant hears when the extension is killed or its time
//                                  runs out before it hands the content over: iOS then delivers
//                                  the original push, with this sound; without it, nothing is heard
//     "amount": "123.45"           the amount as a string, read exactly; a JSON number is refused
//                                  (123.45 as a double is not exact)
//     "amountMinor": 12345         or the amount as a whole number of minor units (分, cents);
//                                  true, 12345.5 and -5 are refused
//     "transactionId": "P20240101-0001"
//                                  the payment's id, the same on every retry of that payment: the
//                                  only thing duplicates are recognised by
//
// `request.identifier` is never the transaction id: it is the apns-collapse-id when the server sets one.
//
// The log (Console, subsystem com.example.pay.notification-service): one line a push, at `.notice`
// (`.error` for a fallback; `.info` stays in memory and Console hides it), as docs/ios.md shows it:
//
//     fallback none wait 0.000 s key 4f0c…: the amount '<amount>' is refused: …
//
// outcome, delivery, wait (in seconds, to the millisecond: a Double without a format prints as
// %f, 0.000000) and key are public; the reason is logged with the amount and transaction id masked
// (`maskedReason`), so it reads in the field without showing who paid what.

private var logger: Logger { Logger(subsystem: "com.example.pay.notification-service", category: "soundset") }

final class NotificationService: UNNotificationServiceExtension {
    /// The push being announced, shared with `serviceExtensionTimeWillExpire` (which the system may
    /// call on another thread) under a lock.
    private let current = CurrentFlow()

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        let handover = Handover(content: content, contentHandler: contentHandler)
        let announcement = PushPayload.request(from: request.content.userInfo)
        let flow = Self.flow(handOver: { sound in handover(sound) })
        current.set(flow)
        Task {
            // Decides inside ProcessInfo.performExpiringActivity (holding the group's lock for
            // milliseconds), schedules a chain, waits for a composed sound's turn in the queue,
            // then hands over once.
            let decision = await flow.run(announcement)
            if decision.outcome == .fallback {
                logger.error(
                    "\(decision.outcome.rawValue, privacy: .public) \(decision.delivery.rawValue, privacy: .public) wait \(decision.wait, format: .fixed(precision: 3), privacy: .public) s key \(decision.key, privacy: .public): \(decision.maskedReason ?? "", privacy: .public)"
                )
            } else {
                logger.notice(
                    "\(decision.outcome.rawValue, privacy: .public) \(decision.delivery.rawValue, privacy: .public) wait \(decision.wait, format: .fixed(precision: 3), privacy: .public) s key \(decision.key, privacy: .public): \(decision.maskedReason ?? "", privacy: .public)"
                )
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // Hands over at once with the decided sound, else the push's own, once no decision holds the
        // group's lock; `run` finishing later does not call the handler again.
        current.get()?.expire()
    }

    /// The flow for this push: over the set in the containing app (in an extension `Bundle.main`
    /// is the .appex) and the App Group; when either is missing, a flow that hands over the
    /// system's sound with the reason, still exactly once.
    static func flow(handOver: @escaping @Sendable (HandoverSound) -> Void) -> ExtensionFlow {
        let setFolder = SoundSet.appBundle(containing: Bundle.main.bundleURL).appendingPathComponent("Output", isDirectory: true)
        guard let group = AppGroup.folder else {
            let reason = "no container for \(AppGroup.identifier) (add the App Groups capability)"
            return ExtensionFlow(unavailable: reason, scheduler: LocalNotifications(), handOver: handOver)
        }
        do {
            let set = try SoundSet(folder: setFolder)
            return ExtensionFlow(
                announcer: Announcer(set: set, group: group), scheduler: LocalNotifications(), activity: ExpiringExtensionActivity(),
                handOver: handOver)
        } catch {
            return ExtensionFlow(unavailable: String(describing: error), scheduler: LocalNotifications(), handOver: handOver)
        }
    }
}

/// The flow of the push being announced, read and written under a lock.
private final class CurrentFlow: @unchecked Sendable {
    // @unchecked: `flow` is read and written under `lock`.
    private let lock = NSLock()
    private var flow: ExtensionFlow?

    func set(_ flow: ExtensionFlow) { lock.withLock { self.flow = flow } }
    func get() -> ExtensionFlow? { lock.withLock { flow } }
}

/// The push's content and its handler, for the flow's `@Sendable` hand-over (the UserNotifications
/// types are not `Sendable`). The flow calls it exactly once, from any thread.
private final class Handover: @unchecked Sendable {
    // @unchecked: the flow calls `callAsFunction` exactly once, so `content` is changed by one thread.
    private let content: UNMutableNotificationContent
    private let contentHandler: (UNNotificationContent) -> Void

    init(content: UNMutableNotificationContent, contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.content = content
        self.contentHandler = contentHandler
    }

    func callAsFunction(_ sound: HandoverSound) {
        switch sound {
        case .named(let name): content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
        case .systemDefault: content.sound = .default
        case .silent: content.sound = nil  // a chain plays the announcement, or a duplicate plays nothing
        case .unchanged: break  // the sound the push came with
        }
        // Sounds through Focus (not through the mute switch). Needs the Time Sensitive
        // Notifications capability; without it iOS delivers the push as active.
        if #available(iOS 15.0, *) { content.interruptionLevel = .timeSensitive }
        contentHandler(content)
    }
}

/// The decision runs as an expiring activity: the extension is not suspended while it holds the
/// group's lock, and when the system is about to suspend it, the runtime stops short of the lock.
private struct ExpiringExtensionActivity: ExpiringActivity {
    func perform(reason: String, _ block: @escaping @Sendable (Bool) -> Void) {
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)
    }
}

/// The chain's local notifications: one per clip, each added with its delay measured by the flow.
private struct LocalNotifications: NotificationScheduling {
    func schedule(identifier: String, sound: String, after delay: Double) async throws {
        let content = UNMutableNotificationContent()  // sound only: the push itself carries the text
        content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: sound))
        if #available(iOS 15.0, *) { content.interruptionLevel = .timeSensitive }
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: delay, repeats: false)
        try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger))
    }

    func cancel(identifiers: [String]) {
        UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: identifiers)
    }
}
