import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// A notification centre and content handler that record what would happen.
final class Recorder: NotificationScheduling, @unchecked Sendable {
    // @unchecked: every property is read and written under `lock`.
    private let lock = NSLock()
    private var scheduledItems: [(identifier: String, sound: String, delay: Double)] = []
    private var handovers: [HandoverSound] = []
    private var cancelledIdentifiers: [String] = []
    let clock: ManualClock
    /// Seconds each `schedule` call takes on the clock (a slow `add`).
    let addTakes: Double
    /// The system refuses the add of this step (0 the first).
    let failingAt: Int?

    init(clock: ManualClock, addTakes: Double = 0, failingAt: Int? = nil) {
        self.clock = clock
        self.addTakes = addTakes
        self.failingAt = failingAt
    }

    func schedule(identifier: String, sound: String, after delay: Double) async throws {
        let count = lock.withLock { scheduledItems.count }
        clock.advance(addTakes)
        if count == failingAt { throw CancellationError() }
        lock.withLock { scheduledItems.append((identifier, sound, delay)) }
    }

    func cancel(identifiers: [String]) { lock.withLock { cancelledIdentifiers += identifiers } }

    var cancelled: [String] { lock.withLock { cancelledIdentifiers } }

    func handOver(_ sound: HandoverSound) { lock.withLock { handovers.append(sound) } }

    var scheduled: [(identifier: String, sound: String, delay: Double)] { lock.withLock { scheduledItems } }
    var handedOver: [HandoverSound] { lock.withLock { handovers } }
}

/// A sleep that returns only when a test releases it, recording how long it was asked for.
final class Gate: @unchecked Sendable {
    // @unchecked: every property is read and written under `lock`.
    private let lock = NSLock()
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var asked: [Double] = []

    func sleep(_ seconds: Double) async {
        await withCheckedContinuation { continuation in
            lock.withLock {
                asked.append(seconds)
                waiting.append(continuation)
            }
        }
    }

    var requests: [Double] { lock.withLock { asked } }

    func release() {
        let all = lock.withLock {
            defer { waiting = [] }
            return waiting
        }
        all.forEach { $0.resume() }
    }

    /// Waits until `count` sleeps are pending.
    func pending(_ count: Int) async {
        while lock.withLock({ waiting.count }) < count { await Task.yield() }
    }
}

@Suite struct ExtensionFlowTests {
    func flow(_ shop: Shop, _ recorder: Recorder, sleep: @escaping @Sendable (Double) async -> Void = { _ in }, settings: AnnouncementSettings? = nil)
        -> ExtensionFlow
    {
        ExtensionFlow(announcer: shop.announcer(settings), scheduler: recorder, clock: shop.clock, sleep: sleep, handOver: recorder.handOver)
    }

    @Test func aComposedAnnouncementIsHandedOverOnceAfterItsWait() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let recorder = Recorder(clock: shop.clock)
        let gate = Gate()
        _ = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1")))
        #expect(recorder.handedOver == [.named("soundset-k0.caf")])
        // The second waits 2.6 s for the first (2.3 s and 0.3 s of spacing), then hands over.
        let second = flow(shop, recorder, sleep: gate.sleep)
        let task = Task { await second.run(AnnouncementRequest(amount: .text("2"))) }
        await gate.pending(1)
        #expect(abs(gate.requests[0] - 2.6) < 1e-9)
        #expect(recorder.handedOver.count == 1)
        gate.release()
        let decision = await task.value
        #expect(decision.sound == "soundset-k1.caf")
        #expect(recorder.handedOver == [.named("soundset-k0.caf"), .named("soundset-k1.caf")])
        #expect(recorder.scheduled.isEmpty)
    }

    @Test func aChainIsScheduledFromTheClockWithoutDrift() async throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        defer { shop.folder.remove() }
        // Every add takes 0.05 s: each delay is measured when it is added, so the clips still fire
        // at 1000, 1001.5 and 1001.9, not 0.05 s later each.
        let recorder = Recorder(clock: shop.clock, addTakes: 0.05)
        let decision = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1")))
        #expect(recorder.scheduled.map(\.identifier) == ["k0.0", "k0.1", "k0.2"])
        #expect(recorder.scheduled.map(\.sound) == decision.notifications.map(\.sound))
        let delays = recorder.scheduled.map(\.delay)
        #expect(delays[0] == ExtensionFlow.shortestDelay)
        #expect(abs(delays[1] - (1.5 - 0.05)) < 1e-9)
        #expect(abs(delays[2] - (1.9 - 0.10)) < 1e-9)
        #expect(recorder.handedOver == [.silent])
    }

    @Test func everyPathHandsOverExactlyOnce() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        // Duplicate, bad amount (fallback clip), a queue too long (the push's own sound), chain
        // scheduling refused by the system (the system's sound).
        let recorder = Recorder(clock: shop.clock)
        _ = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1"), transactionID: "t"))
        _ = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1"), transactionID: "t"))
        _ = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1e5")))
        let impatient = AnnouncementSettings(prefix: "received", join: .file, maxWaitSeconds: 0)
        _ = await flow(shop, recorder, settings: impatient).run(AnnouncementRequest(amount: .text("1")))
        let refusing = Recorder(clock: shop.clock, failingAt: 0)
        _ = await flow(shop, refusing, settings: AnnouncementSettings(prefix: "received", join: .file, delivery: .chain, maxWaitSeconds: 25))
            .run(AnnouncementRequest(amount: .text("1")))
        #expect(
            recorder.handedOver == [.named("soundset-k0.caf"), .silent, .named("ss\(shop.set.id)-received.caf"), .unchanged])
        #expect(refusing.handedOver == [.systemDefault])
    }

    @Test func expiryHandsOverOnceWithTheDecidedSound() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let recorder = Recorder(clock: shop.clock)
        _ = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1")))
        let gate = Gate()
        let waiting = flow(shop, recorder, sleep: gate.sleep)
        let task = Task { await waiting.run(AnnouncementRequest(amount: .text("2"))) }
        await gate.pending(1)
        waiting.expire()
        #expect(recorder.handedOver == [.named("soundset-k0.caf"), .named("soundset-k1.caf")])
        waiting.expire()
        gate.release()
        _ = await task.value
        #expect(recorder.handedOver.count == 2)

        // Expiry before anything was decided keeps the push's own sound; the run then hands over nothing.
        let early = Recorder(clock: shop.clock)
        let flow = self.flow(shop, early)
        flow.expire()
        _ = await flow.run(AnnouncementRequest(amount: .text("3")))
        #expect(early.handedOver == [.unchanged])
    }

    @Test func aChainTheSystemRefusesIsWithdrawnWhole() async throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        defer { shop.folder.remove() }
        // The third add fails: the two added are removed, the queue forgets the chain, and the push
        // plays the system's sound rather than half an amount.
        let refusing = Recorder(clock: shop.clock, failingAt: 2)
        let decision = await flow(shop, refusing).run(AnnouncementRequest(amount: .text("1")))
        #expect(decision.delivery == .chain)
        #expect(refusing.cancelled == ["k0.0", "k0.1"])
        #expect(refusing.handedOver == [.systemDefault])
        let next = shop.announce("2", at: shop.clock.now())
        #expect(next.start == shop.clock.now())
        #expect(!shop.queueText.contains("k0"))
    }

    @Test func aSetThatCannotBeLoadedHandsOverTheSystemSoundOnce() async throws {
        let clock = ManualClock(50)
        let recorder = Recorder(clock: clock)
        let flow = ExtensionFlow(unavailable: "no manifest", scheduler: recorder, clock: clock, handOver: recorder.handOver)
        let decision = await flow.run(AnnouncementRequest(amount: .text("1"), transactionID: "t-1"))
        flow.expire()
        #expect(recorder.handedOver == [.systemDefault])
        #expect(decision.outcome == .fallback)
        #expect(decision.id == "t-1")
        #expect(decision.start == 50)
        #expect(decision.reason == "the sound set cannot be used: no manifest")
    }

    @Test func aQueuedFallbackClipWaitsItsTurn() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let recorder = Recorder(clock: shop.clock)
        _ = await flow(shop, recorder).run(AnnouncementRequest(amount: .text("1")))
        let gate = Gate()
        let bad = flow(shop, recorder, sleep: gate.sleep)
        let task = Task { await bad.run(AnnouncementRequest(amount: .text("1.234"))) }
        await gate.pending(1)
        #expect(abs(gate.requests[0] - 2.6) < 1e-9)
        #expect(recorder.handedOver.count == 1)
        gate.release()
        _ = await task.value
        #expect(recorder.handedOver.last == .named("ss\(shop.set.id)-received.caf"))
    }

    @Test func expiryBeforeTheDecisionTakesNoPlaceInTheQueue() async throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let recorder = Recorder(clock: shop.clock)
        let flow = self.flow(shop, recorder)
        flow.expire()
        let decision = await flow.run(AnnouncementRequest(amount: .text("3")))
        #expect(decision.outcome == .fallback)
        #expect(decision.reason == "the sound set cannot be used: the extension's time expired first")
        #expect(shop.composedFiles.isEmpty)
        #expect(shop.announce("3", at: 1000).start == 1000)
    }

    @Test func aWithdrawnChainsTransactionMayBeRetried() async throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        defer { shop.folder.remove() }
        let refusing = Recorder(clock: shop.clock, failingAt: 0)
        _ = await flow(shop, refusing).run(AnnouncementRequest(amount: .text("1"), transactionID: "T"))
        #expect(shop.announce("1", id: "T", at: 1001).outcome == .announced)
    }
}
