// Runs the app's side of Examples/ against the fakes behind Tests/ExamplesStubs: the launch sets a
// notification centre delegate whose foreground options play the sound, the install runs in a
// background task that is ended, installs the demo set beside this program (the app's bundle) into
// the App Group, and what it logs reads in the device's log.
import Foundation
@_spi(Testing) import UIKit
@_spi(Testing) import UserNotifications
@_spi(Testing) import os

@main struct AppCheck {
    @MainActor static func main() async {
        var problems: [String] = []
        let group = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("soundset-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: group) }
        FakeSystem.container = group
        setUpAnnouncements()

        let center = UNUserNotificationCenter.current()
        if let delegate = center.delegate {
            let push = UNNotification(request: UNNotificationRequest(identifier: "p", content: UNNotificationContent(userInfo: [:]), trigger: nil))
            let options = await withCheckedContinuation { (done: CheckedContinuation<UNNotificationPresentationOptions, Never>) in
                delegate.userNotificationCenter(center, willPresent: push) { done.resume(returning: $0) }
            }
            if options != [.banner, .list, .sound] {
                problems.append("willPresent returns options \(options.rawValue), not [.banner, .list, .sound]: an announcement in the foreground is not heard")
            }
        } else {
            problems.append("the app sets no UNUserNotificationCenter delegate at launch: a push that arrives while the app is open is neither shown nor heard")
        }

        let application = UIApplication.shared
        for _ in 0..<500 where application.ended.isEmpty { try? await Task.sleep(nanoseconds: 10_000_000) }
        if application.begun != 1 || application.ended != [1] {
            problems.append("the install began \(application.begun) background task(s) and ended \(application.ended): it must run in one, ended once")
        }
        let shown = LogRecord.all.map(\.shown)
        let sounds = (try? FileManager.default.contentsOfDirectory(atPath: group.appendingPathComponent("Library/Sounds").path)) ?? []
        if shown.count != 1 || !shown[0].hasPrefix("sound set ") || !shown[0].hasSuffix(" installed") || !sounds.contains(where: { $0.hasPrefix("ss") }) {
            problems.append("the install did not install the set, or its log line does not read in the device's log: \(shown)")
        }
        finish(
            problems, "the app example: a foreground delegate with [.banner, .list, .sound], the set installed in a background task ended once, logged readable"
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
