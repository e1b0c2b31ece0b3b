import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// `soundset announce` killed for real (SIGKILL, as iOS kills an extension) after each step of a
/// push and after each page of the queue's save, then the push retried 30 s later, as a server
/// retries: every transaction is heard exactly once, and no earlier one is forgotten.
@Suite struct KillTests {
    /// A group that has heard `tx-0` ... `tx-199`, 5 s apart.
    func groupWithHistory(in folder: URL) throws {
        try FakeSets.write(in: folder.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let lines = (0..<200).map { "\(1000 + $0 * 5) 1 tx-\($0)" }.joined(separator: "\n")
        try Data(lines.utf8).write(to: folder.appendingPathComponent("pushes.txt"))
        let replay = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G"], in: folder)
        #expect(replay.status == 0, "\(replay.stderr)")
    }

    func outcome(_ result: RunResult) throws -> AnnouncementDecision {
        try JSONDecoder().decode(AnnouncementDecision.self, from: Data(result.stdout.utf8))
    }

    @Test func aKillAtEveryStepAndEveryPageOfTheSaveIsHeardOnceOnTheRetry() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try groupWithHistory(in: folder.url)
        let pristine = folder.url.appendingPathComponent("G.pristine")
        try FileManager.default.copyItem(at: folder.url.appendingPathComponent("G"), to: pristine)
        let now = 1000 + 200 * 5
        let push = ["announce", "12", "--group", "G", "--id", "tx-new", "--format", "json"]

        // The size of the queue the push saves, to kill after its last page too.
        let whole = try SoundsetExecutable.run(push + ["--now", "\(now)"], in: folder.url)
        #expect(try outcome(whole).outcome == .announced)
        let saved = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("G/soundset/queue.json").path)[.size] as! Int
        #expect(saved > 4096)  // two pages at least: a kill between them
        let pages = Array(stride(from: 4096, to: saved, by: 4096)) + [saved]
        let points = ["installed", "decided", "composed"] + pages.map { "queue.json@\($0)" } + ["written"]

        for point in points {
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("G"))
            try FileManager.default.copyItem(at: pristine, to: folder.url.appendingPathComponent("G"))
            let killed = try SoundsetExecutable.run(push + ["--now", "\(now)"], in: folder.url, environment: ["SOUNDSET_KILL_AFTER": point])
            #expect(killed.status == 9 && killed.stdout.isEmpty, "\(point): \(killed.status)")
            let retry = try outcome(try SoundsetExecutable.run(push + ["--now", "\(now + 30)"], in: folder.url))
            if point == "written" {
                #expect(retry.outcome == .duplicate, "\(point)")
            } else {
                #expect(retry.outcome == .announced, "\(point): \(retry.outcome) \(retry.reason ?? "")")
                let file = folder.url.appendingPathComponent("G/Library/Sounds/\(retry.sound ?? "none")")
                #expect(FileManager.default.fileExists(atPath: file.path), "\(point)")
            }
            // Heard once: a later retry is a duplicate, and so is every earlier transaction.
            #expect(try outcome(try SoundsetExecutable.run(push + ["--now", "\(now + 31)"], in: folder.url)).outcome == .duplicate, "\(point)")
            for old in [110, 150, 199] {
                let earlier = try SoundsetExecutable.run(
                    ["announce", "1", "--group", "G", "--id", "tx-\(old)", "--now", "\(now + 32)", "--format", "json"], in: folder.url)
                #expect(try outcome(earlier).outcome == .duplicate, "\(point): tx-\(old)")
            }
        }
    }

    /// Killed before its file was in place, retried five minutes later, after other pushes pruned
    /// the entry: still heard once.
    @Test func aRetryMinutesLaterIsHeardOnce() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let push = ["announce", "12", "--group", "G", "--id", "tx-1", "--format", "json"]
        let killed = try SoundsetExecutable.run(push + ["--now", "1000"], in: folder.url, environment: ["SOUNDSET_KILL_AFTER": "decided"])
        #expect(killed.status == 9)
        #expect(try outcome(try SoundsetExecutable.run(["announce", "3", "--group", "G", "--now", "1100", "--format", "json"], in: folder.url)).outcome == .announced)
        #expect(try outcome(try SoundsetExecutable.run(push + ["--now", "1300"], in: folder.url)).outcome == .announced)
        #expect(try outcome(try SoundsetExecutable.run(push + ["--now", "1301"], in: folder.url)).outcome == .duplicate)
    }
}
