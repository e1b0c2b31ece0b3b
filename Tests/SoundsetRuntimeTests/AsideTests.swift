import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What stands where soundset's own files belong is moved into `soundset/aside`: said in the
/// decision's reason, the lock file included, and only the newest 16 kept.
@Suite struct AsideTests {
    static let movedQueue = "soundset/queue.json was in the way (not a regular file): moved to soundset/aside, so the queue was started again"
    static let movedLock = "soundset/queue.lock was in the way (not a regular file): moved to soundset/aside"

    func aside(_ shop: Shop) -> URL { shop.group.state.appendingPathComponent("aside") }

    /// 40 folders in the queue's place, each with a file saying which it was, moved aside one push at
    /// a time: 16 remain, the last 16, whole; three entries an earlier version named without a stamp
    /// went first.
    @Test func asideKeepsTheNewestSixteen() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let queue = shop.group.state.appendingPathComponent("queue.json")
        let aside = aside(shop)
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        for old in 0..<3 {
            let entry = aside.appendingPathComponent("queue.json.\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: entry.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
            try Data("old \(old)".utf8).write(to: entry.appendingPathComponent("deep/er/which"))
        }
        for index in 0..<40 {
            // The last push saved the queue there.
            if index > 0 { try FileManager.default.removeItem(at: queue) }
            try FileManager.default.createDirectory(at: queue.appendingPathComponent("inside"), withIntermediateDirectories: true)
            try Data("\(index)".utf8).write(to: queue.appendingPathComponent("inside/which"))
            let decision = shop.announce("1", at: 1000 + Double(index) * 100)
            #expect(decision.outcome == .announced)
            #expect(decision.reason == Self.movedQueue)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: aside.path)
        #expect(kept.count == 16)
        let which = kept.compactMap { try? String(contentsOf: aside.appendingPathComponent("\($0)/inside/which"), encoding: .utf8) }
        #expect(Set(which) == Set((24..<40).map(String.init)))
        #expect(kept.allSatisfy { $0.hasPrefix("queue.json.") })
    }

    /// A folder in the lock file's place, met by the install of a new group's first push, and a FIFO
    /// there, met by a later push's decision: each is moved aside, and the push says so as it says
    /// every other thing moved aside.
    @Test func aMovedAsideLockIsSaid() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let lock = shop.group.state.appendingPathComponent("queue.lock")
        try FileManager.default.createDirectory(at: lock.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let first = shop.announce("1", at: 1000)
        #expect(first.outcome == .announced)
        #expect(first.reason == Self.movedLock)

        try FileManager.default.removeItem(at: lock)
        #expect(mkfifo(lock.path, 0o644) == 0)
        let second = shop.announce("2", at: 2000)
        #expect(second.outcome == .announced)
        #expect(second.reason == Self.movedLock)
        #expect(try FileManager.default.contentsOfDirectory(atPath: aside(shop).path).filter { $0.hasPrefix("queue.lock.") }.count == 2)
        // Said once: the next push finds a lock file in place.
        #expect(shop.announce("3", at: 3000).reason == nil)
    }
}
