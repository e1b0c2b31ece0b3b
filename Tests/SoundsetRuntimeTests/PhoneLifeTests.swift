import Foundation
import SoundsetRuntimeTestSupport
import Testing

@testable import SoundsetRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The protection class given to each file and folder, by inode: Linux has no data protection, so
/// the tests record what the runtime asks for and compare it with everything in the group.
final class ProtectionLog: @unchecked Sendable {
    // @unchecked: `classes` is read and written under `lock`.
    private let lock = NSLock()
    private var classes: [UInt64: GroupFileProtection] = [:]

    func record(_ descriptor: Int32, _ path: String, _ level: GroupFileProtection) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        lock.withLock { classes[UInt64(info.st_ino)] = level }
    }

    func level(of path: String) -> GroupFileProtection? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return lock.withLock { classes[UInt64(info.st_ino)] }
    }
}

/// How often each path was given a class.
final class PathLog: @unchecked Sendable {
    // @unchecked: `times` is read and written under `lock`.
    private let lock = NSLock()
    private var times: [String: Int] = [:]

    func record(_ descriptor: Int32, _ path: String, _ level: GroupFileProtection) { lock.withLock { times[path, default: 0] += 1 } }
    var counts: [String: Int] { lock.withLock { times } }
}

/// A stand-in for the system refusing to open files: data protection before the first unlock.
final class Refusal: @unchecked Sendable {
    // @unchecked: `prefix` is read and written under `lock`.
    private let lock = NSLock()
    private var prefix: String?

    func refuse(below prefix: String?) { lock.withLock { self.prefix = prefix } }

    /// EPERM for files (names with a dot) below the prefix: data protection keeps a file's contents,
    /// not its folder, from being read.
    func code(for path: String) -> Int32? {
        lock.withLock { prefix.map { path.hasPrefix($0) && path.split(separator: "/").last?.contains(".") == true } == true ? EPERM : nil }
    }
}

/// Every path below `folder`, relative to it.
func everything(below folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
}

/// Whether the group's lock is free: taken and released from a descriptor of its own.
func lockIsFree(_ group: GroupFolder) -> Bool {
    guard let lock = try? LockFile(group.state.appendingPathComponent("queue.lock")), let taken = try? lock.lock(wait: false) else { return false }
    if taken { lock.unlock() }
    return taken
}

/// What someone found by living with the phone: data protection before the first unlock, a process
/// suspended holding the lock, the payload's types, logs.
@Suite struct PhoneLifeTests {
    @Test func everyFileAndFolderTheRuntimeCreatesGetsTheProtectionClass() throws {
        let log = ProtectionLog()
        let shop = try Shop(
            AnnouncementSettings(prefix: "received", join: .file),
            group: { GroupFolder($0, protection: .completeUnlessOpen, protector: log.record, refusal: nil) })
        defer { shop.folder.remove() }
        _ = shop.announce("1", at: 1000)
        _ = shop.announce("2.22", at: 1000, AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        _ = shop.announce("x", at: 1000)
        let items = everything(below: shop.group.url)
        #expect(items.contains("soundset/queue.json") && items.contains("soundset/queue.lock") && items.contains("Library/Sounds"))
        #expect(items.contains { $0.hasPrefix("Library/Sounds/soundset-") })
        #expect(items.contains("soundset/sets/\(shop.set.id).json"))
        for item in items {
            #expect(log.level(of: shop.group.url.appendingPathComponent(item).path) == .completeUnlessOpen, "\(item)")
        }
    }

    @Test func anInstallGivesTheClassAgainToWhatItFinds() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        _ = shop.announce("1", at: 1000)
        let log = ProtectionLog()
        let strict = GroupFolder(shop.group.url, protection: .complete, protector: log.record, refusal: nil)
        try SoundSetInstaller.install(shop.set, into: strict, now: 1001)
        for item in everything(below: shop.group.url) where item != "Library" {
            #expect(log.level(of: shop.group.url.appendingPathComponent(item).path) == .complete, "\(item)")
        }
    }

    @Test func theExtensionGivesTheClassAgainOncePerProcessOnEverythingOfItsOwn() async throws {
        // A group an earlier version wrote with the app's default class (the recorder sees none of it).
        let shop = try Shop()
        defer { shop.folder.remove() }
        _ = shop.announce("1", id: "tx-0", at: 1000)
        let before = everything(below: shop.group.url).filter { $0 != "Library" }
        #expect(before.contains("soundset/queue.json") && before.contains("Library/Sounds/ss\(shop.set.id)-1.caf"))

        // The phone was updated and restarted overnight; the merchant has not opened the app. One
        // extension process, three pushes, each with its own GroupFolder and flow, as the extension
        // makes them.
        let log = PathLog()
        func push(_ amount: String, at time: Double, in process: ProtectionRenewal, refusal: Refusal? = nil) async -> AnnouncementDecision {
            let group = GroupFolder(shop.group.url, protection: .none, protector: log.record, refusal: refusal?.code, renewal: process)
            let recorder = Recorder(clock: shop.clock)
            let flow = ExtensionFlow(
                announcer: Announcer(set: shop.set, group: group, clock: shop.clock), scheduler: recorder, clock: shop.clock, sleep: { _ in },
                handOver: recorder.handOver)
            return await flow.run(AnnouncementRequest(amount: .text(amount), transactionID: "tx-\(amount)", arrival: time))
        }
        let process = ProtectionRenewal()
        for (amount, time) in [("2", 1100.0), ("3", 1110), ("4", 1120)] {
            #expect(await push(amount, at: time, in: process).outcome == .announced)
        }
        let root = shop.group.url.path + "/"
        let counts = log.counts
        // Every folder and file of soundset's that was there is given the class, once; nothing else
        // is given it but what the pushes created (their own files, each once, as it is made).
        for item in before { #expect(counts[root + item] == 1, "\(item): \(counts[root + item] ?? 0) times") }
        for (path, count) in counts where !before.contains(String(path.dropFirst(root.count))) {
            #expect(count == 1 && path.hasPrefix(root) && !path.hasSuffix("/Library"), "\(path): \(count) times")
        }

        // Another process (the next day's) gives it again, once.
        let next = ProtectionRenewal()
        for (amount, time) in [("5", 1200.0), ("6", 1210)] { _ = await push(amount, at: time, in: next) }
        #expect(log.counts[root + "Library/Sounds/ss\(shop.set.id)-1.caf"] == 2)
        #expect(log.counts[root + "soundset/sets/\(shop.set.id).json"] == 2)

        // Before the first unlock the files cannot be opened: the push falls back, and the process
        // tries again at its next push, after the unlock.
        let locked = Refusal()
        locked.refuse(below: "soundset/")
        let third = ProtectionRenewal()
        let queueCount = log.counts[root + "soundset/queue.json"] ?? 0
        #expect(await push("7", at: 1300, in: third, refusal: locked).outcome == .fallback)
        #expect(log.counts[root + "soundset/queue.json"] ?? 0 == queueCount)
        locked.refuse(below: nil)
        #expect(await push("8", at: 1310, in: third, refusal: locked).outcome == .announced)
        #expect(log.counts[root + "soundset/queue.json"] == queueCount + 1)
        _ = await push("9", at: 1320, in: third, refusal: locked)
        #expect(log.counts[root + "soundset/queue.json"] == queueCount + 1)
    }

    @Test func protectedDataFallsBackWithTheReasonAndDamagesNothing() throws {
        let refusal = Refusal()
        let shop = try Shop(group: { GroupFolder($0, protection: .none, protector: { _, _, _ in }, refusal: refusal.code) })
        defer { shop.folder.remove() }
        #expect(shop.announce("1", id: "tx-1", at: 1000).outcome == .announced)
        let queue = try Data(contentsOf: shop.group.state.appendingPathComponent("queue.json"))
        let sounds = shop.soundFiles

        // The phone restarted and is locked: every file below soundset/ is refused.
        refusal.refuse(below: "soundset/")
        let locked = shop.announce("2", id: "tx-2", at: 1010)
        #expect(locked.outcome == .fallback)
        #expect(locked.systemSound)
        #expect(
            locked.reason
                == "the queue cannot be used: protected data is not available (the phone has not been unlocked since it started): soundset/queue.lock cannot be opened (operation not permitted)"
        )
        // Only Library/Sounds refused: the set cannot be checked or copied.
        refusal.refuse(below: "Library/Sounds/")
        let sounding = shop.announce("3", id: "tx-3", at: 1020)
        #expect(sounding.outcome == .fallback)
        #expect(sounding.reason?.hasPrefix("protected data is not available (the phone has not been unlocked since it started): Library/Sounds/") == true)
        // The composed file's claim, under the lock, is the first file refused.
        #expect(sounding.reason?.hasSuffix("cannot be written (operation not permitted)") == true)
        #expect(try Data(contentsOf: shop.group.state.appendingPathComponent("queue.json")) != queue)  // its own entry, given back
        #expect(shop.soundFiles == sounds)

        // Unlocked: the next push is announced, and the queue remembers the first transaction.
        refusal.refuse(below: nil)
        let unlocked = shop.announce("2", id: "tx-2", at: 1030)
        #expect(unlocked.outcome == .announced)
        #expect(unlocked.reason == nil)
        #expect(shop.announce("1", id: "tx-1", at: 1030).outcome == .duplicate)
    }

    @Test func theLockIsHeldOnlyForTheDecision() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let group = shop.group
        let seen = Recording()
        var announcer = shop.announcer()
        announcer.whileDeciding = {
            seen.add("deciding: lock free \(lockIsFree(group))")
        }
        announcer.beforeWriting = {
            let queue = (try? String(contentsOf: group.state.appendingPathComponent("queue.json"), encoding: .utf8)) ?? ""
            let file = group.sounds.appendingPathComponent("soundset-k0.caf")
            seen.add(
                "writing: lock free \(lockIsFree(group)), queued \(queue.contains("soundset-k0.caf")), file \(FileManager.default.fileExists(atPath: file.path))"
            )
        }
        let decision = announcer.announce(AnnouncementRequest(amount: .text("1"), arrival: 1000))
        #expect(decision.sound == "soundset-k0.caf")
        #expect(seen.items == ["deciding: lock free false", "writing: lock free true, queued true, file false"])
        #expect(shop.composedFiles == ["soundset-k0.caf"])
    }

    @Test func anInstallCopiesWithoutTheLockAndTakesItOnlyToRename() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        // Someone else holds the lock: the install copies its clips meanwhile, under temporary names.
        try FileManager.default.createDirectory(at: shop.group.state, withIntermediateDirectories: true)
        let held = try LockFile(shop.group.state.appendingPathComponent("queue.lock"))
        try held.lock()
        let done = DispatchSemaphore(value: 0)
        let result = Recording()
        let set = shop.set
        let group = shop.group
        DispatchQueue.global().async {
            // Waiting for the lock as long as the test may take to see the copies (a loaded machine).
            do { _ = try SoundSetInstaller.ensure(set, in: try group.open(), gate: nil, wait: 120, now: 1000) } catch { result.add("\(error)") }
            done.signal()
        }
        let files = shop.set.manifest.clips.count + shop.set.manifest.clips.compactMap(\.copy).count
        var copied = 0
        for _ in 0..<6000 where copied < files {
            Thread.sleep(forTimeInterval: 0.01)
            copied = shop.soundFiles.filter { $0.hasSuffix(".tmp") }.count
        }
        let installed = shop.soundFiles.filter { $0.hasPrefix("ss") }
        held.unlock()
        done.wait()
        #expect(copied == files)
        #expect(installed.isEmpty)
        #expect(result.items.isEmpty)
        #expect(shop.soundFiles.count == copied && !shop.soundFiles.contains { $0.hasSuffix(".tmp") })
    }

    @Test func aLockHeldTooLongIsAFallbackWithTheReason() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try SoundSetInstaller.install(shop.set, into: shop.group, now: 1000)
        let held = try LockFile(shop.group.state.appendingPathComponent("queue.lock"))
        try held.lock()
        defer { held.unlock() }
        var announcer = shop.announcer()
        announcer.lockWait = 0.2
        let decision = announcer.announce(AnnouncementRequest(amount: .text("1"), arrival: 1000))
        #expect(decision.outcome == .fallback)
        #expect(decision.systemSound)
        #expect(decision.reason == "the queue cannot be used: soundset/queue.lock was held by another process for more than 0.2 s")
    }

    @Test func expiryWaitsForADecisionHoldingTheLockAndHandsOverUnlocked() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try SoundSetInstaller.install(shop.set, into: shop.group, now: 1000)
        let group = shop.group
        let deciding = DispatchSemaphore(value: 0)
        var announcer = shop.announcer()
        announcer.whileDeciding = {
            deciding.signal()
            Thread.sleep(forTimeInterval: 0.3)
        }
        let handed = Recording()
        let flow = ExtensionFlow(
            announcer: announcer, scheduler: Recorder(clock: shop.clock), clock: shop.clock, sleep: { _ in },
            handOver: { sound in handed.add("\(sound), lock free \(lockIsFree(group))") })
        let run = Task.detached { await flow.run(AnnouncementRequest(amount: .text("1"))) }
        await Task.detached { deciding.wait() }.value
        flow.expire()
        // Handed over once the hold ended: with the push's own sound, or the decided one if it came first.
        #expect(handed.items.count == 1 && handed.items[0].hasSuffix(", lock free true"), "\(handed.items)")
        let decision = await run.value
        #expect(decision.outcome == .announced)
        #expect(handed.items.count == 1)
    }

    @Test func anActivityThatExpiresFirstTakesNoPlaceInTheQueue() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let handed = Recording()
        let flow = ExtensionFlow(
            announcer: shop.announcer(), scheduler: Recorder(clock: shop.clock), clock: shop.clock, sleep: { _ in },
            activity: FakeActivity(expiresFirst: true), handOver: { handed.add("\($0)") })
        let decision = await flow.run(AnnouncementRequest(amount: .text("1"), transactionID: "t"))
        #expect(decision.reason == "the sound set cannot be used: the extension's time expired first")
        #expect(handed.items == ["systemDefault"])
        #expect(shop.composedFiles.isEmpty)
        #expect(shop.announce("1", id: "t", at: 1000).outcome == .announced)
    }

    @Test func anActivityExpiringDuringTheDecisionClosesTheGateAfterTheHold() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try SoundSetInstaller.install(shop.set, into: shop.group, now: 1000)
        let group = shop.group
        let activity = FakeActivity(expiresFirst: false)
        var announcer = shop.announcer()
        let events = Recording()
        announcer.whileDeciding = {
            activity.expireNow { events.add("expiry returned, lock free \(lockIsFree(group))") }
            Thread.sleep(forTimeInterval: 0.2)
            events.add("decided")
        }
        let flow = ExtensionFlow(
            announcer: announcer, scheduler: Recorder(clock: shop.clock), clock: shop.clock, sleep: { _ in }, activity: activity,
            handOver: { _ in })
        let decision = await flow.run(AnnouncementRequest(amount: .text("1")))
        await Task.detached { activity.waitForExpiry() }.value
        #expect(decision.outcome == .announced)
        #expect(events.items == ["decided", "expiry returned, lock free true"])
        // The gate is closed: the flow takes the lock no more (a refused chain is not withdrawn through it).
        #expect(decision.sound == "soundset-k0.caf")
    }

    @Test func theLogsReasonMasksTheAmountAndTheTransaction() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let bad = shop.announce("12abc", id: "P-77", at: 1000)
        #expect(bad.reason == "the amount '12abc' is refused: the amount is not a number: write digits with at most one point, like 123.45")
        #expect(bad.maskedReason == "the amount '<amount>' is refused: the amount is not a number: write digits with at most one point, like 123.45")
        let exponent = shop.announce("1e5", at: 1000)
        #expect(exponent.reason == "the amount '1e5' is refused: the amount has an exponent: write 100000")
        #expect(exponent.maskedReason == "the amount '<amount>' is refused: the amount has an exponent: write it in plain digits (1200, not 1.2e3)")
        _ = shop.announce("5", id: "P-78", at: 1000)
        let duplicate = shop.announce("5", id: "P-78", at: 1001)
        #expect(duplicate.reason == "transaction P-78 was announced 1.0 s ago")
        #expect(duplicate.maskedReason == "transaction <transaction id> was announced 1.0 s ago")
        // The state keeps neither amounts nor ids.
        #expect(!shop.queueText.contains("P-7") && !shop.queueText.contains("12abc"))
    }
}

/// Strings recorded from any thread, in order.
final class Recording: @unchecked Sendable {
    // @unchecked: `list` is read and written under `lock`.
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}

/// `performExpiringActivity` as iOS runs it: the work on a thread of its own, and the expiry's call
/// on another, at the moment a test chooses (or at once, instead of the work).
final class FakeActivity: ExpiringActivity, @unchecked Sendable {
    // @unchecked: `block` is read and written under `lock`.
    private let lock = NSLock()
    private var block: (@Sendable (Bool) -> Void)?
    private let expiresFirst: Bool
    private let expired = DispatchSemaphore(value: 0)

    init(expiresFirst: Bool) { self.expiresFirst = expiresFirst }

    func perform(reason: String, _ block: @escaping @Sendable (Bool) -> Void) {
        lock.withLock { self.block = block }
        DispatchQueue.global().async { block(self.expiresFirst) }
    }

    /// Calls the block with `true` on another thread, then `after`.
    func expireNow(then after: @escaping @Sendable () -> Void) {
        let block = lock.withLock { self.block }
        DispatchQueue.global().async {
            block?(true)
            after()
            self.expired.signal()
        }
    }

    func waitForExpiry() { expired.wait() }
}
