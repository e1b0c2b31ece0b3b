import Foundation

/// The sound the extension gives the content it hands over.
public enum HandoverSound: Sendable, Equatable {
    /// Keep the sound the push came with (a push that could not wait for the queue).
    case unchanged
    /// No sound: a chain plays the announcement, or a duplicate plays nothing.
    case silent
    /// The system's default sound (a failure with no fallback clip).
    case systemDefault
    /// A file in the group's `Library/Sounds`: `UNNotificationSound(named:)`.
    case named(String)

    /// The sound a decision asks for.
    public init(_ decision: AnnouncementDecision) {
        switch (decision.outcome, decision.sound) {
        case (_, let name?): self = .named(name)
        case (.fallback, nil): self = decision.systemSound ? .systemDefault : .unchanged
        default: self = .silent
        }
    }
}

/// The notification centre, as the flow needs it: on iOS a few lines over `UNUserNotificationCenter`
/// (see `Examples/`), in tests a fake that records.
public protocol NotificationScheduling: Sendable {
    /// Adds a local notification that plays `sound` (a file in the group's `Library/Sounds`) after
    /// `delay` seconds, with the request identifier `identifier`.
    func schedule(identifier: String, sound: String, after delay: Double) async throws
    /// Removes pending notifications that `schedule` added (`removePendingNotificationRequests`).
    func cancel(identifiers: [String])
}

/// Work the system must not suspend half done: on iOS a few lines over
/// `ProcessInfo.performExpiringActivity(withReason:using:)` (see `Examples/`), in tests a fake.
public protocol ExpiringActivity: Sendable {
    /// Calls `block(false)` to do the work, and `block(true)`, perhaps meanwhile on another thread,
    /// when the process is about to be suspended; or only `block(true)` when no time can be granted.
    /// The process is kept running until the `block(false)` call returns.
    func perform(reason: String, _ block: @escaping @Sendable (_ expired: Bool) -> Void)
}

/// Runs the work at once, on the caller's thread: where nothing suspends the process (Linux, the
/// command line).
public struct ImmediateActivity: ExpiringActivity {
    public init() {}
    public func perform(reason: String, _ block: @escaping @Sendable (_ expired: Bool) -> Void) { block(false) }
}

/// What a Notification Service Extension does with one push, with the system's types behind small
/// protocols so every path is tested: decide, write, schedule, then hand over the content once, after
/// the queue's wait or at expiry, whichever comes first.
///
/// `handOver` is the extension's `contentHandler` with the sound applied; it is called exactly once
/// per flow, in every path, including a set that cannot be loaded.
///
/// The decision runs inside `activity` (`performExpiringActivity`), so the process is not suspended
/// while it holds the group's lock; expiry (of the activity, or `expire()`) closes the flow's
/// `SuspensionGate`, which waits for a hold under way and lets no other begin, before anything is
/// handed over.
public final class ExtensionFlow: @unchecked Sendable {
    // @unchecked: the only mutable state, `decided` and `handedOver`, is read and written under `lock`.
    private enum Source {
        case announcer(Announcer)
        case unavailable(String)
    }

    private let source: Source
    private let scheduler: any NotificationScheduling
    private let clock: any AnnouncerClock
    private let sleep: @Sendable (Double) async -> Void
    private let handOver: @Sendable (HandoverSound) -> Void
    private let activity: any ExpiringActivity
    private let gate = SuspensionGate()
    private let lock = NSLock()
    private var decided: HandoverSound?
    private var handedOver = false

    /// Chain notifications due sooner than this are given this delay (iOS refuses a zero interval).
    public static let shortestDelay = 0.01

    /// - Parameters:
    ///   - clock: the announcer's clock; delays are measured on it when each notification is added.
    ///   - sleep: waits a number of seconds (`Task.sleep` by default).
    ///   - activity: what keeps the process from being suspended during the decision
    ///     (`ProcessInfo.performExpiringActivity` in an extension).
    ///   - handOver: the content handler with the sound applied.
    public init(
        announcer: Announcer, scheduler: any NotificationScheduling, clock: any AnnouncerClock = SystemClock(),
        sleep: @escaping @Sendable (Double) async -> Void = ExtensionFlow.taskSleep, activity: any ExpiringActivity = ImmediateActivity(),
        handOver: @escaping @Sendable (HandoverSound) -> Void
    ) {
        self.source = .announcer(announcer)
        self.scheduler = scheduler
        self.clock = clock
        self.sleep = sleep
        self.activity = activity
        self.handOver = handOver
    }

    /// A flow for a push whose set cannot be used (its manifest missing or invalid, no App Group):
    /// `run` hands over the system's sound with `reason`, once, like every other path.
    public init(
        unavailable reason: String, scheduler: any NotificationScheduling, clock: any AnnouncerClock = SystemClock(),
        handOver: @escaping @Sendable (HandoverSound) -> Void
    ) {
        self.source = .unavailable(reason)
        self.scheduler = scheduler
        self.clock = clock
        self.sleep = ExtensionFlow.taskSleep
        self.activity = ImmediateActivity()
        self.handOver = handOver
    }

    /// `Task.sleep` for a number of seconds.
    public static let taskSleep: @Sendable (Double) async -> Void = { seconds in
        try? await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 60)) * 1e9))
    }

    /// Announces `request`: decides, schedules a chain (each notification's delay measured from
    /// now when it is added, so no add delays the clips after it; all of it or none), waits for a
    /// composed sound's turn, and hands over the content.
    @discardableResult
    public func run(_ request: AnnouncementRequest) async -> AnnouncementDecision {
        let decision: AnnouncementDecision
        switch source {
        case .unavailable(let reason):
            decision = Announcer.unavailable(reason, transactionID: request.transactionID, at: request.arrival ?? clock.now())
        case .announcer where lock.withLock({ handedOver }):
            // Expired before anything was decided: no composed file, no place in the queue.
            return expired(request)
        case .announcer(let announcer):
            decision = await decide(request, with: announcer)
        }
        var sound = HandoverSound(decision)
        if !(await scheduleChain(decision)) {
            if case .announcer(let announcer) = source { announcer.withdraw(decision.key, gate: gate) }
            sound = .systemDefault
        }
        lock.withLock { decided = sound }
        // A composed file, or a failure's fallback clip, plays in its turn in the queue.
        if decision.sound != nil {
            let wait = decision.start - clock.now()
            if wait > 0 { await sleep(wait) }
        }
        finish(sound)
        return decision
    }

    /// The decision for a push whose flow expired before it was decided.
    private func expired(_ request: AnnouncementRequest) -> AnnouncementDecision {
        Announcer.unavailable("the extension's time expired first", transactionID: request.transactionID, at: clock.now())
    }

    /// The announcer's decision, made inside the expiring activity: when the activity expires first,
    /// the expired decision; when it expires meanwhile, the gate closes (after a hold under way) and
    /// the decision finishes without taking the lock again.
    private func decide(_ request: AnnouncementRequest, with announcer: Announcer) async -> AnnouncementDecision {
        let gate = self.gate
        let once = ResumeOnce()
        return await withCheckedContinuation { (continuation: CheckedContinuation<AnnouncementDecision, Never>) in
            activity.perform(reason: "announce a payment") { expired in
                if expired {
                    gate.close()
                    if once.claim() { continuation.resume(returning: self.expired(request)) }
                    return
                }
                guard once.claim() else { return }
                continuation.resume(returning: announcer.announce(request, gate: gate))
            }
        }
    }

    /// Adds every notification of a chain, or, when the system refuses one, removes those added:
    /// half an amount is worse than none.
    private func scheduleChain(_ decision: AnnouncementDecision) async -> Bool {
        var added: [String] = []
        for notification in decision.notifications {
            do {
                let delay = max(Self.shortestDelay, notification.at - clock.now())
                try await scheduler.schedule(identifier: notification.identifier, sound: notification.sound, after: delay)
                added.append(notification.identifier)
            } catch {
                scheduler.cancel(identifiers: added)
                return false
            }
        }
        return true
    }

    /// `serviceExtensionTimeWillExpire`: hands over at once, with the decided sound if there is
    /// one (an announcement a little early rather than none), else with the push's own. A decision
    /// holding the group's lock finishes first (milliseconds), and none takes it afterwards: the
    /// process may be suspended once the content is handed over.
    public func expire() {
        gate.close()
        finish(lock.withLock { decided } ?? .unchanged)
    }

    private func finish(_ sound: HandoverSound) {
        let first = lock.withLock {
            defer { handedOver = true }
            return !handedOver
        }
        if first { handOver(sound) }
    }
}

/// Lets the first of the activity's two calls resume the flow's continuation: the work's call, when
/// it starts before expiry, else the expiry's.
private final class ResumeOnce: @unchecked Sendable {
    // @unchecked: `claimed` is read and written under `lock`.
    private let lock = NSLock()
    private var claimed = false

    /// Whether the caller is the first.
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
