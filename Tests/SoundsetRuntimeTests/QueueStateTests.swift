import Foundation
import SoundsetRuntimeTestSupport
import Testing

@testable import SoundsetRuntime

/// The queue's state is bounded by construction: the fullest state the writer can make is one its
/// reader takes, and what it remembers goes in a fixed order.
@Suite struct QueueStateTests {
    /// Every list at its ceiling, every field at its longest.
    func fullest() -> AnnouncementQueue {
        var queue = AnnouncementQueue()
        queue.clock = 1_765_432_109.123_456_7
        let time = { (index: Int) in 1_765_432_100.123_456_7 + Double(index) * 0.001_234_567 }
        queue.announcements = (0..<AnnouncementQueue.maxAnnouncements).map { index in
            let key = String(repeating: "f", count: 60) + String(format: "%04d", index)
            return AnnouncementQueue.Entry(
                key: key, kind: .chain, start: time(index), end: time(index) + 29.99, set: "0123456789",
                file: GroupFolder.composedName(key, container: .aiff),
                notifications: (0..<NotificationSchedule.maxSteps).map { time(index) + Double($0) * 0.123_456_789_123 },
                transaction: String(repeating: "a", count: 32))
        }
        queue.transactions = (0..<AnnouncementQueue.maxTransactions).map {
            .init(hash: String(format: "%032x", $0), at: -1_765_432_109.123 - Double($0))
        }
        queue.leftovers = (0..<AnnouncementQueue.maxLeftovers).map { index in
            let name = ".ss0123456789-" + String(repeating: "x", count: 190) + String(format: "%03d", index) + ".caf.\(UUID().uuidString).tmp"
            return .init(name: name, seen: time(index))
        }
        return queue
    }

    @Test func theFullestStateFitsItsReader() throws {
        let queue = fullest()
        #expect(queue.leftovers.allSatisfy { AnnouncementQueue.isLeftoverName($0.name) && $0.name.utf8.count <= 255 })
        #expect(queue.problem == nil)
        let data = try JSONEncoder().encode(queue)
        #expect(data.count < AnnouncementQueue.maxBytes, "\(data.count)")
        #expect(data.count > AnnouncementQueue.maxBytes / 4, "\(data.count): the limit is not far above what can be written")
        #expect(try JSONDecoder().decode(AnnouncementQueue.self, from: data) == queue)
        // One more of anything is not a state soundset writes.
        var more = queue
        more.transactions.append(.init(hash: String(repeating: "b", count: 32), at: 1))
        #expect(more.problem == "it holds 1001 transactions, more than the 1000 it keeps")
    }

    @Test func rememberingKeepsTheNewestTransactions() {
        var queue = AnnouncementQueue()
        for index in 0..<1005 { queue.remember(AnnouncementQueue.hash("tx-\(index)"), at: Double(index)) }
        #expect(queue.transactions.count == 1000)
        #expect(queue.seen(AnnouncementQueue.hash("tx-4"), within: 600, at: 1004) == nil)
        #expect(queue.seen(AnnouncementQueue.hash("tx-5"), within: 1000, at: 1004) == 5)
    }

    @Test func aFullQueueDropsWhatEndedLongestAgoOrRefuses() {
        var queue = AnnouncementQueue()
        queue.announcements = (0..<AnnouncementQueue.maxAnnouncements).map { index in
            .init(
                key: "k\(index)", kind: .composed, start: Double(index), end: Double(index) + 1, set: "", file: "soundset-k\(index).caf",
                notifications: [])
        }
        // At 3, the entries that ended at 1 and 2 have played; the one that ended longest ago goes.
        #expect(queue.makeRoom(at: 2.5) == ["soundset-k0.caf"])
        #expect(queue.announcements.count == AnnouncementQueue.maxAnnouncements - 1)
        queue.announcements.append(.init(key: "new", kind: .composed, start: 300, end: 301, set: "", file: nil, notifications: []))
        // Nothing has ended: no room.
        var waiting = queue
        for index in waiting.announcements.indices { waiting.announcements[index].end = 500 }
        #expect(waiting.makeRoom(at: 3) == nil)
    }

    @Test func leftoversAreTakenInUpToTheirCeilingInNameOrder() {
        var queue = AnnouncementQueue()
        let names = (0..<300).map { String(format: "soundset-left-%03d.caf", $0) }.shuffled()
        queue.takeIn(names + ["ding.caf", "ssXYZ-1.caf", "soundset-Upper.caf"], at: 10)
        #expect(queue.leftovers.count == 256)
        #expect(queue.leftovers.first?.name == "soundset-left-000.caf")
        #expect(queue.leftovers.last?.name == "soundset-left-255.caf")
        // A minute later they are deleted, and the rest, still there, taken in.
        let deleted = Set(queue.prune(at: 70, transactionWindow: 600))
        #expect(deleted.count == 256)
        queue.takeIn(names.filter { !deleted.contains($0) }, at: 70)
        #expect(queue.leftovers.map(\.name) == (256..<300).map { String(format: "soundset-left-%03d.caf", $0) })
    }

    @Test func idsAreHashedByTheirBytesToAFixedSize() {
        #expect(AnnouncementQueue.hash("tx-\u{E9}") != AnnouncementQueue.hash("tx-e\u{301}"))
        #expect(AnnouncementQueue.hash(String(repeating: "x", count: 131_072)).utf8.count == 32)
        #expect(AnnouncementQueue.hash("") == "e3b0c44298fc1c149afbf4c8996fb924")
    }
}
