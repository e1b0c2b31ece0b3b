import Foundation
import SoundsetRuntime
import UserNotifications
import os

// The Notification Service Extension's side of soundset: glue only. Every decision (queue, banner,
// wait, 64 pending, duplicates, fallback, cleanup) is the runtime's, tested in
// Tests/SoundsetRuntimeTests. Needs `Shared/AppGroup.swift` in the extension target.
//
// The push: custom keys beside "aps" ("aps" needs "mutable-content": 1 and an "alert"), read by
// `PushPayload` (tested in the runtime):
//
//     "amount": "123.45"           the amount as a string, read exactly; a JSON number is refused
//                                  (123.45 as a double is not exact)
//     "amountMinor": 12345         or the amount as an integer in minor units (分, cents)
//     "transactionId": "P20240101-0001"
//                                  the payment's id, the same on every retry of that payment: the
//                                  only thing duplicates are recognised by
//
// `request.identifier` is never the transaction id: it is the apns-collapse-id when the server sets one.

private var logger: Logger { Logger(subsystem: "com.example.pay.notification-service", category: "soundset") }

final class NotificationService: UNNotificationServiceExtension {
    /// The push being announced, for `serviceExtensionTimeWillExpire`.
    private var flow: ExtensionFlow?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            contentHandler(request.content)
            return
        }
        let handover = Handover(content: content, contentHandler: contentHandler)
        let announcement = PushPayload.request(from: request.content.userInfo)
        let flow = Self.flow(handOver: { sound in handover(sound) })
        self.flow = flow
        Task {
            // Decides (holding the group's lock for milliseconds), schedules a chain, waits for a
            // composed sound's turn in the queue, then hands over once.
            let decision = await flow.run(announcement)
            logger.info("\(decision.outcome.rawValue, privacy: .public) \(decision.delivery.rawValue, privacy: .public): \(decision.reason ?? "")")
        }
    }

    override func serviceExtensionTimeWillExpire() {
        // Hands over at once with the decided sound, else the push's own; `run` finishing later
        // does not call the handler again.
        flow?.expire()
    }

    /// The flow for this push: over the set in the containing app (in an extension `Bundle.main`
    /// is the .appex) and the App Group; when either is missing, a flow that hands over the
    /// system's sound with the reason, still exactly once.
    static func flow(handOver: @escaping @Sendable (HandoverSound) -> Void) -> ExtensionFlow {
        let setFolder = SoundSet.appBundle(containing: Bundle.main.bundleURL).appendingPathComponent("Output", isDirectory: true)
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: AppGroup.identifier) else {
            let reason = "no container for \(AppGroup.identifier) (add the App Groups capability)"
            return ExtensionFlow(unavailable: reason, scheduler: LocalNotifications(), handOver: handOver)
        }
        do {
            let set = try SoundSet(folder: setFolder)
            return ExtensionFlow(announcer: Announcer(set: set, group: GroupFolder(container)), scheduler: LocalNotifications(), handOver: handOver)
        } catch {
            return ExtensionFlow(unavailable: String(describing: error), scheduler: LocalNotifications(), handOver: handOver)
        }
    }
}

/// The push's content and its handler, for the flow's `@Sendable` hand-over (the UserNotifications
/// types are not `Sendable`). The flow calls it exactly once, from any thread.
private final class Handover: @unchecked Sendable {
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
