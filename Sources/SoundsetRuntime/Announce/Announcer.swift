import Foundation

/// One push to announce.
public struct AnnouncementRequest: Sendable {
    /// The amount as the push carries it.
    public enum AmountInput: Sendable, Equatable {
        /// Text such as `123.45`, read exactly (see `Amount`).
        case text(String)
        /// Minor units (分, cents).
        case minorUnits(Int64)
        /// The push carries no amount the announcer can read; the reason says what it carries.
        case missing(String)
    }

    public var amount: AmountInput
    /// The transaction's id, when the push carries one: the same id within `dedupeSeconds` is
    /// announced once. Never the push's `request.identifier`, which is the collapse id when the
    /// server sets one.
    public var transactionID: String?
    /// When the push arrived, on the announcer's clock; nil means now.
    public var arrival: Double?

    /// - Parameter transactionID: an empty id is no id (every push carrying "" would otherwise be
    ///   one transaction).
    public init(amount: AmountInput, transactionID: String? = nil, arrival: Double? = nil) {
        self.amount = amount
        self.transactionID = transactionID?.isEmpty == true ? nil : transactionID
        self.arrival = arrival
    }
}

/// Decides what one push plays, with every rule the extension must keep: the queue shared through
/// the group folder, the banner, the wait limit, the 64 pending notifications, duplicates, the
/// fallback, cleanup and the lead-in. It never throws and never traps: a failure is a `fallback`
/// decision with its reason.
public struct Announcer: Sendable {
    /// The set the app ships.
    public let set: SoundSet
    /// The App Group's container.
    public let group: GroupFolder
    /// The rules; the manifest's `announcement` unless given.
    public let settings: AnnouncementSettings
    let clock: any AnnouncerClock
    let makeKey: @Sendable () -> String

    /// - Parameters:
    ///   - settings: defaults to the manifest's `announcement`.
    ///   - clock: where "now" comes from when a request has no arrival time.
    ///   - makeKey: a new unique key per announcement (names its composed file and notifications).
    public init(
        set: SoundSet, group: GroupFolder, settings: AnnouncementSettings? = nil, clock: any AnnouncerClock = SystemClock(),
        makeKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) {
        self.set = set
        self.group = group
        self.settings = settings ?? set.manifest.announcement ?? AnnouncementSettings()
        self.clock = clock
        self.makeKey = makeKey
    }

    /// The decision for a push when the set itself cannot be loaded (its manifest is missing or
    /// not valid): the system's sound, with the reason.
    public static func unavailable(_ reason: String, transactionID: String? = nil, at now: Double) -> AnnouncementDecision {
        let key = UUID().uuidString.lowercased()
        return Context(now: now, key: key, id: transactionID ?? key).failure("the sound set cannot be used: \(reason)", sound: nil)
    }

    /// Decides, and writes what the decision needs (the composed file, the queue), for one push.
    public func announce(_ request: AnnouncementRequest) -> AnnouncementDecision {
        let key = makeKey()
        let id = request.transactionID ?? key
        if let problem = settings.problem {
            return Context(now: request.arrival ?? clock.now(), key: key, id: id).failure("the settings are not valid: \(problem)", sound: nil)
        }
        do {
            try group.prepare()
            // An empty folder or a FIFO where the lock file belongs would fail every push.
            group.removeStray(group.lockFile)
            return try LockFile.withLock(group.lockFile) {
                // The time is read with the lock held, so decisions are made in the order of their times.
                decideHoldingLock(request, Context(now: request.arrival ?? clock.now(), key: key, id: id))
            }
        } catch {
            return Context(now: request.arrival ?? clock.now(), key: key, id: id).failure("the queue cannot be used: \(error.reason)", sound: nil)
        }
    }

    /// Takes back the announcement `key` (a chain the system refused to schedule): the queue no
    /// longer waits for it, counts its notifications, or remembers its transaction.
    public func withdraw(_ key: String) {
        try? LockFile.withLock(group.lockFile) {
            var queue = AnnouncementQueue.load(group, at: clock.now(), horizon: .infinity).queue
            queue.withdraw(key)
            try? queue.save(group)
        }
    }

    /// The time, keys and ids of one decision, and the notes to add to its reason.
    struct Context {
        var now: Double
        var key: String
        var id: String
        var notes: [String] = []

        func decision(
            _ outcome: AnnouncementDecision.Outcome, _ delivery: AnnouncementDecision.Delivery, sound: String? = nil, systemSound: Bool = false,
            start: Double? = nil, seconds: Double = 0, notifications: [AnnouncementDecision.Notification] = [], clips: [String] = [],
            reason: String? = nil
        ) -> AnnouncementDecision {
            let start = start ?? now
            let reasons = [reason].compactMap { $0 } + notes
            return AnnouncementDecision(
                id: id, key: key, outcome: outcome, delivery: delivery, sound: sound, systemSound: systemSound, start: start, end: start + seconds,
                wait: start - now, notifications: notifications, clips: clips, reason: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
        }

        /// A failure: the fallback clip plays at `start`, or the system's sound at once when there is none.
        func failure(_ reason: String, sound: FallbackSound?, start: Double? = nil) -> AnnouncementDecision {
            decision(
                .fallback, .none, sound: sound?.file, systemSound: sound == nil, start: start, seconds: sound?.seconds ?? 0,
                clips: sound.map { [$0.clip] } ?? [], reason: reason)
        }
    }

    /// The fallback clip: its installed file, its name and how long it plays.
    struct FallbackSound {
        var file: String
        var clip: String
        var seconds: Double
    }

    /// The rules in the order the issue gives them: the queue's state, duplicates, the set, the
    /// amount, the banner and delivery, the wait, then the composed file or the chain.
    private func decideHoldingLock(_ request: AnnouncementRequest, _ initial: Context) -> AnnouncementDecision {
        var context = initial
        let now = context.now
        var (queue, note) = AnnouncementQueue.load(group, at: now, horizon: settings.maxWaitSeconds + 60)
        if let note { context.notes.append(note) }
        group.removeLeftovers()
        cleanUp(&queue, at: now)

        if let id = request.transactionID, let seen = queue.seen(id, within: settings.dedupeSeconds, at: now) {
            return saving(queue, context) {
                $0.decision(.duplicate, .none, reason: String(format: "transaction %@ was announced %.1f s ago", ClipNameRules.printable(id), now - seen))
            }
        }

        let installed: InstalledSet
        do { installed = try SoundSetInstaller.installHoldingLock(set, into: group) } catch {
            return saving(queue, context) { $0.failure(error.description, sound: nil) }
        }
        SoundSetInstaller.removeSets(in: group, keeping: queue.setsInUse(at: now).union([installed.id]))
        let fail = { (reason: String) in failing(reason, installed, queue, context) }

        // The banner, delivery and pending rules: the one rule every preview shows (`PlayedAnnouncement`).
        let played: PlayedAnnouncement
        do {
            played = try PlayedAnnouncement.of(
                try readAmount(request.amount), manifest: installed.manifest, settings: settings, pending: queue.pendingNotifications(at: now))
        } catch let failure as PlanningFailure {
            return fail(failure.reason)
        } catch {
            return fail("\(error)")
        }
        let (delivery, plan, outcome, reason) = (played.delivery, played.plan, played.outcome, played.reason)

        let startTime = start(in: queue, at: now)
        guard startTime - now <= settings.maxWaitSeconds else {
            // Handed over at once with no custom sound; it does not extend the queue.
            return saving(queue, context) { $0.decision(.fallback, .none, reason: busy(startTime - now, "an announcement")) }
        }

        var entry = AnnouncementQueue.Entry(
            key: context.key, id: context.id, kind: delivery == .composed ? .composed : .chain, start: startTime, end: startTime, set: installed.id,
            file: nil, notifications: [])
        var notifications: [AnnouncementDecision.Notification] = []
        var seconds = plan.totalSeconds
        if delivery == .composed {
            let leadIn = played.leadInFrames
            let name = GroupFolder.composedName(context.key, container: installed.manifest.container)
            let data: Data
            do { data = try compose(plan, installed, leadIn: leadIn) } catch { return fail("\(error)") }
            do { try RegularFile.replace(group.sounds.appendingPathComponent(name), with: data) } catch {
                return fail("Library/Sounds/\(name) cannot be written (\(error.reason))")
            }
            seconds = Double(leadIn + plan.totalFrames) / Double(plan.sampleRate)
            entry.file = name
        } else {
            do {
                // iOS plays a chain's files as they are: check them first, as the composer does.
                try SoundSetInstaller.mend(Set(plan.steps.map(\.file)), of: installed, from: set, into: group)
                let schedule = try NotificationSchedule(plan: plan, announcementID: context.key)
                notifications = schedule.items.map {
                    AnnouncementDecision.Notification(identifier: $0.identifier, sound: $0.sound, at: startTime + $0.delay)
                }
                seconds = schedule.totalSeconds
            } catch {
                return fail("\(error)")
            }
            entry.notifications = notifications.map(\.at)
        }
        entry.end = startTime + seconds
        queue.announcements.append(entry)
        if let id = request.transactionID { queue.transactions.append(.init(id: id, at: now)) }
        // An announcement the queue cannot record would overlap the next: it is not made.
        do { try queue.save(group) } catch {
            if let file = entry.file { GroupFolder.removeFile(file, in: group.sounds) }
            return context.failure(
                "\(SoundSetLayout.stateName)/queue.json cannot be saved (\(error.reason)), so the announcement would not keep its place in the queue",
                sound: nil)
        }
        return context.decision(
            outcome, delivery, sound: entry.file, start: startTime, seconds: seconds, notifications: notifications, clips: plan.clips, reason: reason)
    }

    /// The composed file; a clip found damaged is copied again from the app's set and the file
    /// composed once more.
    private func compose(_ plan: AnnouncementPlan, _ installed: InstalledSet, leadIn: Int) throws -> Data {
        do { return try Composer.compose(plan, manifest: installed.manifest, soundsFolder: installed.soundsFolder, leadInFrames: leadIn) } catch {
            switch error {
            case .stale, .missing, .unreadable:
                try SoundSetInstaller.mend(Set(plan.steps.map(\.file)), of: installed, from: set, into: group)
                return try Composer.compose(plan, manifest: installed.manifest, soundsFolder: installed.soundsFolder, leadInFrames: leadIn)
            default: throw error
            }
        }
    }

    /// When an announcement arriving at `now` may start: after the last queued one and the spacing.
    private func start(in queue: AnnouncementQueue, at now: Double) -> Double {
        max(now, queue.lastEnd.map { $0 + settings.spacingSeconds } ?? now)
    }

    private func busy(_ wait: Double, _ what: String) -> String {
        String(
            format: "the queue is busy for %.2f s, longer than announcement.maxWaitSeconds (%g s): handed over without %@", wait,
            settings.maxWaitSeconds, what)
    }

    /// A failure after the set was installed: the fallback clip (checked, and mended when damaged)
    /// is queued like an announcement, so it never plays over one; with no fallback clip, the
    /// system's sound plays at once.
    private func failing(_ reason: String, _ installed: InstalledSet, _ queue: AnnouncementQueue, _ context: Context) -> AnnouncementDecision {
        guard let fallback = fallbackSound(installed) else { return saving(queue, context) { $0.failure(reason, sound: nil) } }
        var queue = queue
        let startTime = start(in: queue, at: context.now)
        guard startTime - context.now <= settings.maxWaitSeconds else {
            return saving(queue, context) { $0.decision(.fallback, .none, reason: "\(reason); \(busy(startTime - context.now, "a sound of its own"))") }
        }
        queue.announcements.append(
            .init(
                key: context.key, id: context.id, kind: .clip, start: startTime, end: startTime + fallback.seconds, set: installed.id, file: nil,
                notifications: []))
        return saving(queue, context) { $0.failure(reason, sound: fallback, start: startTime) }
    }

    /// Saves the queue, then makes the decision; a queue that cannot be saved is noted in it.
    private func saving(_ queue: AnnouncementQueue, _ context: Context, _ decide: (Context) -> AnnouncementDecision) -> AnnouncementDecision {
        var context = context
        do { try queue.save(group) } catch {
            context.notes.append("\(SoundSetLayout.stateName)/queue.json cannot be saved (\(error.reason))")
        }
        return decide(context)
    }

    /// Deletes the composed files of announcements that ended a minute ago, and takes in composed
    /// files the queue does not know (left by a crash, or by a queue that was started again): they
    /// are deleted a minute from now, when nothing decided before now can still be playing them.
    private func cleanUp(_ queue: inout AnnouncementQueue, at now: Double) {
        for file in queue.prune(at: now, transactionWindow: settings.dedupeSeconds) { GroupFolder.removeFile(file, in: group.sounds) }
        let known = Set(queue.announcements.compactMap(\.file))
        for name in (try? FileManager.default.contentsOfDirectory(atPath: group.sounds.path)) ?? []
        where GroupFolder.isComposedName(name) && !known.contains(name) {
            queue.announcements.append(.init(key: name, id: "", kind: .stray, start: now, end: now, set: "", file: name, notifications: []))
        }
    }

    /// The fallback clip's installed file, `fallback` or else the prefix, when the set has it and
    /// its file is intact (mended when it is not).
    private func fallbackSound(_ installed: InstalledSet) -> FallbackSound? {
        guard let name = settings.fallback ?? settings.prefix, let clip = installed.manifest.clip(named: name),
            (try? SoundSetInstaller.mend([clip.file], of: installed, from: set, into: group)) != nil
        else { return nil }
        return FallbackSound(file: clip.file, clip: clip.name, seconds: Double(clip.frames) / Double(installed.manifest.sampleRate))
    }

    /// A failure to read the amount or plan it, in words.
    struct PlanningFailure: Error {
        var reason: String
    }

    /// The amount the push carries, read exactly.
    private func readAmount(_ input: AnnouncementRequest.AmountInput) throws(PlanningFailure) -> Amount {
        switch input {
        case .text(let text):
            do { return try Amount(text) } catch {
                throw PlanningFailure(reason: "the amount '\(ClipNameRules.printable(text))' is refused: \(error.explaining(text))")
            }
        case .minorUnits(let units):
            do { return try Amount(minorUnits: units) } catch { throw PlanningFailure(reason: "the amount \(units) minor units is refused: \(error)") }
        case .missing(let reason):
            throw PlanningFailure(reason: reason)
        }
    }
}
