// Runs the app's side of Examples/ against the fakes behind Tests/ExamplesStubs: a push SDK sets
// the notification centre's delegate first, then the launch sets soundset's, which shows and plays
// a payment in the foreground and forwards every other callback to the SDK's; the install runs in
// a background task, ended once, and logs its line (readable in the device's log, at .notice)
// before the task ends: the app, launched in the background, is suspended at the end. Permission
// is asked with alert, sound and badge, a denial logged; the device token reads as hex; and an SDK
// that takes the delegate afterwards is reported, when the app becomes active, as an error.
import Foundation
@_spi(Testing) import UIKit
@_spi(Testing) import UserNotifications
@_spi(Testing) import os

/// A push SDK's delegate (JPush, Getui, Firebase): records what it is given.
final class PushSDKDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked: `calls` is read and written under `lock`.
    private let lock = NSLock()
    private var calls: [String] = []
    var received: [String] { lock.withLock { calls } }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) {
        lock.withLock { calls.append("willPresent \(notification.request.identifier)") }
        completionHandler([.list])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        lock.withLock { calls.append("didReceive \(response.notification.request.identifier)") }
        completionHandler()
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {
        lock.withLock { calls.append("openSettingsFor") }
    }
}

/// A notification whose `userInfo` is decoded from JSON text, as APNs delivers it.
func notification(_ identifier: String, _ json: String) -> UNNotification {
    let userInfo = try! JSONSerialization.jsonObject(with: Data(json.utf8)) as! [AnyHashable: Any]
    return UNNotification(request: UNNotificationRequest(identifier: identifier, content: UNNotificationContent(userInfo: userInfo), trigger: nil))
}

@main struct AppCheck {
    @MainActor static func main() async {
        var problems: [String] = []
        let group = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundset-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: group) }
        FakeSystem.container = group
        let center = UNUserNotificationCenter.current()
        // The push SDK sets itself up first; the app was launched in the background (by a push).
        let sdk = PushSDKDelegate()
        center.delegate = sdk
        FakeSystem.inBackground = true
        setUpAnnouncements()

        // The install: one background task, ended once, its line logged before the end.
        let application = UIApplication.shared
        for _ in 0..<500 where application.ended.isEmpty { try? await Task.sleep(nanoseconds: 10_000_000) }
        if application.begun != 1 || application.ended != [1] {
            problems.append("the install began \(application.begun) background task(s) and ended \(application.ended): it must run in one, ended once")
        }
        // Read once the task has ended: everything the install logs is logged by then.
        let installLines = LogRecord.all.filter { $0.text.hasPrefix("sound set ") || $0.text.hasPrefix("the sound set ") }
        let sounds = (try? FileManager.default.contentsOfDirectory(atPath: group.appendingPathComponent("Library/Sounds").path)) ?? []
        if installLines.count != 1 || !installLines[0].shown.hasPrefix("sound set ") || !installLines[0].shown.hasSuffix(" installed")
            || !sounds.contains(where: { $0.hasPrefix("ss") })
        {
            problems.append("the install did not install the set, or its log line does not read in the device's log: \(installLines.map(\.shown))")
        } else if installLines[0].level != "notice" {
            problems.append("the install logs at .\(installLines[0].level), not .notice (.info stays in memory and Console hides it)")
        } else if installLines[0].whileSuspended {
            problems.append("the install logs after its background task ended: the app may be suspended by then, and the line is written late or never")
        }
        FakeSystem.inBackground = false

        // The delegate: soundset's, keeping the SDK's.
        if center.delegate !== ForegroundAnnouncements.shared || ForegroundAnnouncements.shared.forwardingTo !== sdk {
            problems.append("setUpAnnouncements() does not set soundset's delegate keeping the SDK's it replaced")
        }
        if let delegate = center.delegate {
            func present(_ push: UNNotification) async -> UNNotificationPresentationOptions {
                await withCheckedContinuation { (done: CheckedContinuation<UNNotificationPresentationOptions, Never>) in
                    delegate.userNotificationCenter(center, willPresent: push) { done.resume(returning: $0) }
                }
            }
            let payment = await present(notification("pay", #"{"aps": {"alert": "收款到账", "sound": "default"}, "amount": "1.5"}"#))
            if payment != [.banner, .list, .sound] {
                problems.append("willPresent returns options \(payment.rawValue) for a payment, not [.banner, .list, .sound]: an announcement in the foreground is not heard")
            }
            let chat = await present(notification("chat", #"{"aps": {"alert": "hello"}}"#))
            if chat != [.list] { problems.append("willPresent of another push returns \(chat.rawValue), not the SDK's answer [.list]") }
            let chatPush = notification("chat", #"{"aps": {"alert": "hello"}}"#)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                delegate.userNotificationCenter(center, didReceive: UNNotificationResponse(notification: chatPush)) { done.resume() }
            }
            delegate.userNotificationCenter(center, openSettingsFor: nil)
            if sdk.received != ["willPresent chat", "didReceive chat", "openSettingsFor"] {
                problems.append("the SDK's delegate got \(sdk.received), not every callback soundset does not handle (willPresent chat, didReceive chat, openSettingsFor)")
            }
        } else {
            problems.append("the app sets no UNUserNotificationCenter delegate at launch: a push that arrives while the app is open is neither shown nor heard")
        }

        // Becoming active with the delegate ours: nothing said. Another SDK set up later takes it: an error.
        let before = LogRecord.all.count
        if !checkAnnouncementDelegate() || LogRecord.all.count != before {
            problems.append("checkAnnouncementDelegate() reports a problem while the delegate is soundset's")
        }
        let later = PushSDKDelegate()
        center.delegate = later
        NotificationCenter.default.post(name: UIApplication.didBecomeActiveNotification, object: nil)
        for _ in 0..<500 where LogRecord.all.count == before { try? await Task.sleep(nanoseconds: 10_000_000) }
        let replaced = LogRecord.all.dropFirst(before).first
        if replaced?.level != "error" || replaced?.shown.contains("PushSDKDelegate, not soundset's") != true {
            problems.append("an SDK that took the delegate after setUpAnnouncements() is not logged as an error when the app becomes active: \(replaced.map { "\($0)" } ?? "nothing")")
        }

        // Permission and the device token.
        center.grantsAuthorization = false
        let logged = LogRecord.all.count
        await askForPaymentNotifications()
        if center.authorizationRequests.last != [.alert, .sound, .badge] {
            problems.append("permission is asked with \(center.authorizationRequests.last.map { "\($0.rawValue)" } ?? "nothing"), not [.alert, .sound, .badge]")
        }
        if application.remoteRegistrations != 1 { problems.append("the app registered for remote notifications \(application.remoteRegistrations) times, not once") }
        let denial = LogRecord.all.dropFirst(logged).first
        if denial?.level != "error" || denial?.shown.hasPrefix("notifications are not allowed") != true {
            problems.append("a denied permission is not logged as an error: \(denial.map { "\($0)" } ?? "nothing")")
        }
        if deviceTokenHex(Data([0x00, 0xab, 0x10, 0xff])) != "00ab10ff" { problems.append("deviceTokenHex is not the bytes in lower-case hex") }

        finish(
            problems,
            "the app example: a foreground delegate with [.banner, .list, .sound] for payments that forwards the rest to the SDK's and reports one set up later, the set installed in a background task ended once after its .notice line, permission with a badge, the token in hex"
        )
    }
}

func finish(_ problems: [String], _ success: String) {
    if problems.isEmpty {
        print(success)
        exit(0)
    }
    for problem in problems { print("examples: \(problem)") }
    exit(1)
}
