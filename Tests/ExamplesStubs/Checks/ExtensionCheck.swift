// Runs the Notification Service Extension of Examples/ against the fakes behind
// Tests/ExamplesStubs, with the demo set beside this program (in an extension, the app's bundle)
// and a temporary folder as the App Group: each push is decided inside an expiring activity, its
// content handed over once, and its log line readable in the field without the amount or the
// transaction id.
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
        let group = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundset-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: group) }
        FakeSystem.container = group
        var problems: [String] = []

        func push(_ json: String) async -> (handed: [UNNotificationContent], log: String?) {
            let userInfo = try! JSONSerialization.jsonObject(with: Data(json.utf8)) as! [AnyHashable: Any]
            let logged = LogRecord.all.count
            let handed = Handed()
            let service = NotificationService()
            let request = UNNotificationRequest(identifier: "collapse-1", content: UNNotificationContent(userInfo: userInfo), trigger: nil)
            service.didReceive(request) { handed.add($0) }
            for _ in 0..<500 where handed.all.isEmpty || LogRecord.all.count == logged { try? await Task.sleep(nanoseconds: 10_000_000) }
            service.serviceExtensionTimeWillExpire()
            try? await Task.sleep(nanoseconds: 50_000_000)
            return (handed.all, LogRecord.all.dropFirst(logged).first?.shown)
        }

        let good = await push(#"{"aps": {"alert": {"title": "收款到账"}, "mutable-content": 1}, "amount": "1.5", "transactionId": "P-41"}"#)
        let sound = good.handed.first?.sound?.name ?? ""
        if good.handed.count != 1 { problems.append("a push was handed over \(good.handed.count) times, not once") }
        if !sound.hasPrefix("soundset-") || !FileManager.default.fileExists(atPath: group.appendingPathComponent("Library/Sounds/\(sound)").path) {
            problems.append("a push of 1.5 was handed over with the sound '\(sound)', not a composed file in the group's Library/Sounds")
        }
        if good.log?.hasPrefix("announced composed wait 0.0 s key ") != true {
            problems.append("the extension's log line does not read in the field: \(good.log ?? "none")")
        }
        if !FakeSystem.recorded.contains("activity: announce a payment") {
            problems.append("the decision does not run inside ProcessInfo.performExpiringActivity")
        }

        let bad = await push(#"{"aps": {"alert": {"title": "收款到账"}, "mutable-content": 1}, "amount": "12abc", "transactionId": "P-42"}"#)
        let reason = bad.log ?? ""
        if bad.handed.count != 1 { problems.append("a refused push was handed over \(bad.handed.count) times, not once") }
        if !reason.hasPrefix("fallback none wait ") || !reason.contains("the amount '<amount>' is refused") || reason.contains("12abc") {
            problems.append("a fallback's reason must read in the field with the amount masked: \(reason)")
        }
        finish(problems, "the extension example: decided in an expiring activity, handed over once, logged readable with the amount masked")
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
