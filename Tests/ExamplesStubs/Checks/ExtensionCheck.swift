// Runs the Notification Service Extension of Examples/ against the fakes behind
// Tests/ExamplesStubs, with the demo set beside this program (in an extension, the app's bundle)
// and a temporary folder as the App Group: each push is decided inside an expiring activity, its
// content handed over once, and its log line (.notice, a fallback's .error) reads in the field as
// docs/ios.md shows it, without the amount or the transaction id. An activity that is refused or
// expires meanwhile still hands over once.
//
// `extension-check chain`: the set beside the program chains (delivery chain): every notification
// is added with a trigger over 0 s (the fake, like iOS, stops the process on a 0 s trigger).
// `extension-check zero-trigger`: makes a 0 s trigger, which must stop the process.
import Foundation
@_spi(Testing) import UserNotifications
@_spi(Testing) import os

/// The contents handed over, from any thread.
final class Handed: @unchecked Sendable {
    // @unchecked: `contents` is read and written under `lock`.
    private let lock = NSLock()
    private var contents: [UNNotificationContent] = []
    func add(_ content: UNNotificationContent) { lock.withLock { contents.append(content) } }
    var all: [UNNotificationContent] { lock.withLock { contents } }
}

@main struct ExtensionCheck {
    static func main() async {
        let mode = CommandLine.arguments.dropFirst().first ?? "pushes"
        if mode == "zero-trigger" {
            _ = UNTimeIntervalNotificationTrigger(timeInterval: 0, repeats: false)
            print("examples: a 0 s UNTimeIntervalNotificationTrigger was accepted: on iOS it raises, and the extension is killed")
            exit(1)
        }
        let group = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundset-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: group) }
        FakeSystem.container = group
        var problems: [String] = []

        func push(_ json: String) async -> (handed: [UNNotificationContent], log: LogRecord.Entry?) {
            let userInfo = try! JSONSerialization.jsonObject(with: Data(json.utf8)) as! [AnyHashable: Any]
            let logged = LogRecord.all.count
            let handed = Handed()
            let service = NotificationService()
            let request = UNNotificationRequest(identifier: "collapse-1", content: UNNotificationContent(userInfo: userInfo), trigger: nil)
            service.didReceive(request) { handed.add($0) }
            for _ in 0..<500 where handed.all.isEmpty || LogRecord.all.count == logged { try? await Task.sleep(nanoseconds: 10_000_000) }
            service.serviceExtensionTimeWillExpire()
            try? await Task.sleep(nanoseconds: 50_000_000)
            return (handed.all, LogRecord.all.dropFirst(logged).first)
        }
        func composedFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: group.appendingPathComponent("Library/Sounds").path)) ?? []).filter {
                $0.hasPrefix("soundset-")
            }
        }

        if mode == "chain" {
            let chained = await push(#"{"aps": {"alert": {"title": "收款到账"}, "sound": "default", "mutable-content": 1}, "amount": "2.22", "transactionId": "P-51"}"#)
            let delays = UNUserNotificationCenter.current().addedDelays
            if chained.handed.count != 1 || chained.handed[0].sound != nil {
                problems.append("a chained push was handed over \(chained.handed.count) times, or with a sound (the chain plays it)")
            }
            if delays.count < 3 || delays.contains(where: { $0 <= 0 }) {
                problems.append("the chain added \(delays.count) notifications with delays \(delays): at least 3, every one over 0 s")
            }
            if chained.log?.level != "notice" || chained.log?.shown.hasPrefix("announced chain wait 0.000 s key ") != true {
                problems.append("a chain's log line does not read as docs/ios.md shows it: \(chained.log.map { "\($0)" } ?? "none")")
            }
            finish(problems, "the extension example, chaining: \(delays.count) notifications, each added with a trigger over 0 s, handed over once without a sound")
        }

        let good = await push(#"{"aps": {"alert": {"title": "收款到账"}, "sound": "default", "mutable-content": 1}, "amount": "1.5", "transactionId": "P-41"}"#)
        let sound = good.handed.first?.sound?.name ?? ""
        if good.handed.count != 1 { problems.append("a push was handed over \(good.handed.count) times, not once") }
        if !sound.hasPrefix("soundset-") || !FileManager.default.fileExists(atPath: group.appendingPathComponent("Library/Sounds/\(sound)").path) {
            problems.append("a push of 1.5 was handed over with the sound '\(sound)', not a composed file in the group's Library/Sounds")
        }
        // docs/ios.md: `announced composed wait 0.000 s key 4f0c…: ` (a Double without a format prints as %f: 0.000000).
        if good.log?.shown.range(of: #"^announced composed wait 0\.000 s key [0-9a-f-]{36}: $"#, options: .regularExpression) == nil {
            problems.append("the extension's log line does not read in the field as docs/ios.md shows it: \(good.log?.shown ?? "none")")
        } else if good.log?.level != "notice" {
            problems.append("an announcement is logged at .\(good.log?.level ?? "?"), not .notice (.info stays in memory and Console hides it)")
        }
        if !FakeSystem.recorded.contains("activity: announce a payment") {
            problems.append("the decision does not run inside ProcessInfo.performExpiringActivity")
        }

        let bad = await push(#"{"aps": {"alert": {"title": "收款到账"}, "sound": "default", "mutable-content": 1}, "amount": "12abc", "transactionId": "P-42"}"#)
        let reason = bad.log?.shown ?? ""
        if bad.handed.count != 1 { problems.append("a refused push was handed over \(bad.handed.count) times, not once") }
        if reason.range(of: #"^fallback none wait [0-9]+\.[0-9]{3} s key "#, options: .regularExpression) == nil || !reason.contains("the amount '<amount>' is refused")
            || reason.contains("12abc")
        {
            problems.append("a fallback's reason must read in the field with the amount masked: \(reason)")
        } else if bad.log?.level != "error" {
            problems.append("a fallback is logged at .\(bad.log?.level ?? "?"), not .error")
        }

        // The system grants no time (about to suspend the extension): handed over once, with the
        // system's sound, nothing queued or written.
        FakeSystem.activities = .refused
        let files = composedFiles()
        let refused = await push(#"{"aps": {"alert": {"title": "收款到账"}, "sound": "default", "mutable-content": 1}, "amount": "3", "transactionId": "P-43"}"#)
        if refused.handed.count != 1 || refused.handed.first?.sound == nil || refused.handed.first?.sound?.name != nil {
            problems.append("a push whose activity expired first was handed over \(refused.handed.count) times, or not with the system's sound")
        }
        if refused.log?.level != "error" || refused.log?.shown.hasSuffix("the sound set cannot be used: the extension's time expired first") != true {
            problems.append("a push whose activity expired first is not logged as a fallback with its reason: \(refused.log.map { "\($0)" } ?? "none")")
        }
        if composedFiles() != files { problems.append("a push whose activity expired first wrote a composed file") }

        // The time is granted and expires meanwhile: handed over once, whatever came first.
        FakeSystem.activities = .expireMeanwhile
        let meanwhile = await push(#"{"aps": {"alert": {"title": "收款到账"}, "sound": "default", "mutable-content": 1}, "amount": "4", "transactionId": "P-44"}"#)
        if meanwhile.handed.count != 1 || meanwhile.log == nil {
            problems.append("a push whose activity expired meanwhile was handed over \(meanwhile.handed.count) times, or not logged")
        }
        FakeSystem.activities = .granted
        finish(
            problems,
            "the extension example: decided in an expiring activity (granted, refused, expiring meanwhile), handed over once, logged at .notice or .error as docs/ios.md shows, the amount masked"
        )
    }
}

func finish(_ problems: [String], _ success: String) -> Never {
    if problems.isEmpty {
        print(success)
        exit(0)
    }
    for problem in problems { print("examples: \(problem)") }
    exit(1)
}
