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
    /// server sets one. Compared by its bytes as sent, never after Unicode normalisation.
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
///
/// The group's lock is held only for the decision itself: read the queue, decide with the plan's
/// durations (no audio is needed for that), write the queue. The set is installed before (under the
/// lock only for the renames), and the composed file is written after, under the name the queue
/// already holds, so another process never finds the file without its entry.
public struct Announcer: Sendable {
    /// The set the app ships.
    public let set: SoundSet
    /// The App Group's container.
    public let group: GroupFolder
    /// The rules; the manifest's `announcement` unless given.
    public let settings: AnnouncementSettings
    let clock: any AnnouncerClock
    let makeKey: @Sendable () -> String
    /// How long a push tries to take the group's lock before it falls back, in seconds.
    var lockWait = GroupLock.defaultWait
    /// A test's look inside the decision, called holding the lock.
    var whileDeciding: (@Sendable () -> Void)?
    /// A test's look at the composed file's writing, called after the lock is released.
    var beforeWriting: (@Sendable () -> Void)?
    /// A test's kill: told each step of a push as it is done (`Step`); when it returns true the push
    /// stops there, leaving what a process killed at that moment leaves (`soundset announce` kills
    /// itself there for the kill tests through the binary).
    package var stopAfter: (@Sendable (Step) -> Bool)?

    /// The steps of one push, in order: between any two, a kill leaves the group as it is.
    package enum Step: String, CaseIterable, Sendable {
        /// The set is installed in `Library/Sounds`.
        case installed
        /// The decision is made and the queue saved (the lock released).
        case decided
        /// The composed file's bytes are made, not yet written.
        case composed
        /// The composed file (or the chain's checked clips) is in place: the push can be handed over.
        case written
    }

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

    /// Decides, and writes what the decision needs (the queue, the composed file), for one push.
    /// - Parameter gate: closed when the process is about to be suspended; the group's lock is then
    ///   not taken (see `SuspensionGate`).
    public func announce(_ request: AnnouncementRequest, gate: SuspensionGate? = nil) -> AnnouncementDecision {
        let key = makeKey()
        let early = Context(now: request.arrival ?? clock.now(), key: key, id: request.transactionID ?? key)
        if let problem = settings.problem { return early.failure("the settings are not valid: \(problem)", sound: nil) }
        let open: OpenGroup
        do { open = try group.open() } catch { return early.failure("the queue cannot be used: \(error.reason)", sound: nil) }

        // Before the lock: the set installed, the amount planned, the fallback clip checked when the
        // decision may need it, and Library/Sounds listed (for leftovers and earlier sets).
        var notes: [Reason] = []
        let installed: Result<InstalledSet, InstallError>
        do {
            let (set, moved) = try SoundSetInstaller.ensure(set, in: open, gate: gate, wait: lockWait)
            installed = .success(set)
            notes += moved.map { Reason($0) }
        } catch {
            installed = .failure(error)
        }
        var plans: Result<AnnouncementRules.Plans, PlanningFailure>?
        var fallback: FallbackSound?
        if case .success(let set) = installed {
            let made = Result { () throws(PlanningFailure) in try makePlans(request.amount, set) }
            plans = made
            // A failure with the plans in hand comes only from a chain (its 64 pending, its schedule).
            if (try? made.get()) == nil || settings.delivery != .composed { fallback = fallbackSound(set, open) }
        }
        let listing = open.sounds.names() ?? []
        if stopAfter?(.installed) == true { return early.failure("stopped after the install (a test's kill)", sound: nil) }

        let decided: Decided
        do {
            decided = try GroupLock.withLock(open, gate: gate, wait: lockWait) { () throws(GroupFailure) -> Decided in
                whileDeciding?()
                return try decideHoldingLock(request, key: key, open, installed, plans, fallback, listing, notes + open.takeNotes().map { Reason($0) })
            }
        } catch {
            return early.failure("the queue cannot be used: \(error.reason)", sound: nil)
        }

        // After the lock: what the decision dropped is deleted, and the composed file written (or a
        // chain's files checked) under the names the queue holds.
        for name in decided.deletions { open.sounds.remove(name) }
        if stopAfter?(.decided) == true { return decided.decision }
        guard let work = decided.work, case .success(let set) = installed else { return decided.decision }
        beforeWriting?()
        return carryOut(work, decided, set, open, gate)
    }

    /// What a decision leaves to do after the lock: its composed file written under the name the
    /// queue holds, or its chain's (or rush sound's) installed files checked.
    private func carryOut(
        _ work: Decided.Work, _ decided: Decided, _ set: InstalledSet, _ open: OpenGroup, _ gate: SuspensionGate?
    ) -> AnnouncementDecision {
        switch work {
        case .compose(let plan, let leadIn, let claim):
            // The claim's flock is a lock in the shared container too: it is held only while the gate
            // is open, so a process about to be suspended never holds it (0xdead10cc); once the gate
            // is closed the file is still written (expiry hands over the decided sound), unclaimed.
            var failure: Reason?
            var stopped = false
            let write = {
                do {
                    let data = try compose(plan, set, open, leadIn: leadIn)
                    if stopAfter?(.composed) == true {
                        stopped = true
                        return
                    }
                    try claim.fill(data)
                } catch {
                    failure = Reason((error as? GroupFailure)?.reason ?? "\(error)")
                }
            }
            if let gate {
                if gate.whileOpen(write) == nil {
                    claim.unlock()
                    write()
                }
            } else {
                write()
            }
            if stopped { return decided.decision }
            if let failure { return revise(decided, failure, set, open, gate) }
        case .chain(let plan):
            // iOS plays a chain's files as they are: they are checked first, as the composer does.
            do { try SoundSetInstaller.mend(Set(plan.steps.map(\.file)), of: set, from: self.set, in: open) } catch {
                return revise(decided, Reason(error.description), set, open, gate)
            }
        case .clip(let file):
            do { try SoundSetInstaller.mend([file], of: set, from: self.set, in: open) } catch {
                return revise(decided, Reason(error.description), set, open, gate)
            }
        }
        _ = stopAfter?(.written)
        return decided.decision
    }

    /// Takes back the announcement `key` (a chain the system refused to schedule): the queue no
    /// longer waits for it, counts its notifications, or remembers its transaction.
    public func withdraw(_ key: String, gate: SuspensionGate? = nil) {
        guard let open = try? group.open() else { return }
        _ = try? GroupLock.withLock(open, gate: gate, wait: lockWait) { () throws(GroupFailure) in
            var queue = try AnnouncementQueue.load(open, at: clock.now()).queue
            queue.withdraw(key)
            try queue.save(open)
        }
    }

    /// The time, keys and ids of one decision, and the notes to add to its reason.
    struct Context {
        var now: Double
        var key: String
        var id: String
        var notes: [Reason] = []

        func decision(
            _ outcome: AnnouncementDecision.Outcome, _ delivery: AnnouncementDecision.Delivery, sound: String? = nil, systemSound: Bool = false,
            start: Double? = nil, seconds: Double = 0, notifications: [AnnouncementDecision.Notification] = [], clips: [String] = [],
            reason: Reason? = nil
        ) -> AnnouncementDecision {
            let start = start ?? now
            let reasons = Reason.joined([reason].compactMap { $0 } + notes, separator: "; ")
            return AnnouncementDecision(
                id: id, key: key, outcome: outcome, delivery: delivery, sound: sound, systemSound: systemSound, start: start, end: start + seconds,
                wait: start - now, notifications: notifications, clips: clips, reason: reasons?.text, maskedReason: reasons?.masked)
        }

        /// A failure: the fallback clip plays at `start`, or the system's sound at once when there is none.
        func failure(_ reason: Reason, sound: FallbackSound?, start: Double? = nil) -> AnnouncementDecision {
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

    /// What a decision made under the lock leaves to do after it.
    struct Decided {
        var decision: AnnouncementDecision
        var context: Context
        /// Names in `Library/Sounds` the queue dropped.
        var deletions: [String] = []
        var work: Work?

        enum Work {
            /// Compose `plan` into the file `claim` holds (claimed under the lock, before the queue
            /// naming it was saved: see `AnnouncementQueue.reclaim`).
            case compose(AnnouncementPlan, leadIn: Int, claim: FileClaim)
            /// Check the files of the chain that plays `plan`.
            case chain(AnnouncementPlan)
            /// Check the installed clip file that plays alone (a rush sound).
            case clip(String)
        }
    }

    /// The rules in the order the issue gives them: the queue's state, duplicates, the set, the
    /// amount, the banner and delivery, the wait, then the composed file or the chain.
    private func decideHoldingLock(
        _ request: AnnouncementRequest, key: String, _ open: OpenGroup, _ installed: Result<InstalledSet, InstallError>,
        _ plans: Result<AnnouncementRules.Plans, PlanningFailure>?, _ fallback: FallbackSound?, _ listing: [String], _ notes: [Reason]
    ) throws(GroupFailure) -> Decided {
        // The time is read with the lock held, so decisions are made in the order of their times.
        let context = Context(now: request.arrival ?? clock.now(), key: key, id: request.transactionID ?? key, notes: notes)
        let (taken, reclaimed) = try takeTurn(open, context: context, installed: installed, listing: listing, transaction: request.transactionID)
        var turn = taken
        let now = context.now
        // Composed announcements whose process died before their file was in place never played:
        // they gave their place and their transaction back (above), so a retry is announced.
        if let hash = turn.hash, reclaimed.contains(hash), let id = request.transactionID {
            turn.context.notes.append("an earlier push of transaction \(id: Self.shown(id)) was never heard (its process ended before its sound was in place)")
        }
        if let id = request.transactionID, let hash = turn.hash, let seen = turn.queue.seen(hash, within: settings.dedupeSeconds, at: now) {
            return turn.saving {
                $0.decision(.duplicate, .none, reason: "transaction \(id: Self.shown(id)) was announced \(String(format: "%.1f", now - seen)) s ago")
            }
        }
        let set: InstalledSet
        switch installed {
        case .success(let installed): set = installed
        case .failure(let error): return turn.saving { $0.failure(Reason(error.description), sound: nil) }
        }
        let chosen: AnnouncementRules.Plans
        switch plans {
        case .success(let made)?: chosen = made
        case .failure(let failure)?: return failing(failure.reason, &turn, set: set, fallback: fallback)
        case nil: return failing("the announcement was not planned", &turn, set: set, fallback: fallback)
        }
        return place(chosen, &turn, set: set, fallback: fallback)
    }

    /// One decision's queue under the lock, the names it deletes and its context.
    struct Turn {
        let open: OpenGroup
        var queue: AnnouncementQueue
        var context: Context
        /// The transaction's hash, when the push carries an id.
        let hash: String?
        /// Names in `Library/Sounds` the queue dropped.
        var deletions: [String]

        /// The decision `make` makes, after the queue is saved (a queue that cannot be saved is a
        /// note, not a failure: nothing was queued).
        func saving(_ make: (Context) -> AnnouncementDecision) -> Decided {
            var context = context
            do {
                if let moved = try queue.save(open) { context.notes.append(Reason(moved)) }
            } catch {
                context.notes.append("\(SoundSetLayout.stateName)/queue.json cannot be saved (\(error.reason))")
            }
            return Decided(decision: make(context), context: context, deletions: deletions)
        }
    }

    /// The queue as this decision finds it: loaded, the dead processes' temporary files removed,
    /// their unwritten entries given back (the hashes of their transactions returned), pruned, the
    /// sounds listed taken in, and the sets no entry uses removed.
    private func takeTurn(
        _ open: OpenGroup, context: Context, installed: Result<InstalledSet, InstallError>, listing: [String], transaction: String?
    ) throws(GroupFailure) -> (Turn, reclaimed: Set<String>) {
        var context = context
        let now = context.now
        var (queue, note) = try AnnouncementQueue.load(open, at: now)
        if let note { context.notes.append(Reason(note)) }
        // Temporary files in the state's folders are written only under this lock: any left is a dead process's.
        for folder in [open.state, open.sets] {
            for name in folder.names() ?? [] where RegularFile.replacedName(ofTemporary: name) != nil { folder.remove(name) }
        }
        // Entries whose writer died before their file was in place give their transaction back
        // first: pruned later (a minute after their end), they would leave the id a duplicate.
        let reclaimed = queue.reclaim(unwrittenIn: open.sounds)
        let deletions = queue.prune(at: now, transactionWindow: settings.dedupeSeconds)
        // The files pruned now are deleted below, not left over.
        let pruned = Set(deletions)
        queue.takeIn(listing.filter { !pruned.contains($0) }, at: now)
        queue.clock = max(queue.clock ?? now, now)
        let keeping = (try? installed.get()).map { [$0.id] } ?? []
        SoundSetInstaller.removeSets(in: open, names: listing, keeping: queue.setsInUse(at: now).union(keeping))
        let turn = Turn(open: open, queue: queue, context: context, hash: transaction.map(AnnouncementQueue.hash), deletions: deletions)
        return (turn, reclaimed)
    }

    /// A failure after the set was installed: the fallback clip (checked before the lock) is
    /// queued like an announcement, so it never plays over one; with no fallback clip, the
    /// system's sound plays at once.
    private func failing(_ reason: Reason, _ turn: inout Turn, set: InstalledSet, fallback: FallbackSound?) -> Decided {
        guard let fallback else { return turn.saving { $0.failure(reason, sound: nil) } }
        let now = turn.context.now
        let startTime = start(in: turn.queue, at: now)
        guard startTime - now <= settings.maxWaitSeconds else {
            return turn.saving { $0.decision(.fallback, .none, reason: "\(reason); \(busy(startTime - now, "a sound of its own"))") }
        }
        guard let dropped = turn.queue.makeRoom(at: now) else { return turn.saving { $0.decision(.fallback, .none, reason: "\(reason); \(Self.full)") } }
        turn.deletions += dropped
        turn.queue.announcements.append(
            .init(key: turn.context.key, kind: .clip, start: startTime, end: startTime + fallback.seconds, set: set.id, file: nil, notifications: []))
        return turn.saving { $0.failure(reason, sound: fallback, start: startTime) }
    }

    /// The planned announcement: the banner, delivery and pending rules, a rush when it waits, then
    /// its place in the queue.
    private func place(_ chosen: AnnouncementRules.Plans, _ turn: inout Turn, set: InstalledSet, fallback: FallbackSound?) -> Decided {
        let now = turn.context.now
        // The banner, delivery and pending rules: the one rule every preview shows (`PlayedAnnouncement`).
        var played: PlayedAnnouncement
        do { played = try PlayedAnnouncement.choosing(chosen, settings: settings, pending: turn.queue.pendingNotifications(at: now)) } catch {
            return failing(Reason(error.description), &turn, set: set, fallback: fallback)
        }
        let startTime = start(in: turn.queue, at: now)
        let wait = startTime - now
        // A rush: a push that waits behind another says the amount alone; when even that would end
        // too late for one more push to start within the wait (its rush sound), it plays its rush
        // sound instead.
        let rush = rushSound(set)
        if wait > 0 { played = played.rushed(chosen, settings: settings) }
        var schedule: NotificationSchedule?
        if played.delivery != .composed {
            do { schedule = try NotificationSchedule(plan: played.plan, announcementID: turn.context.key) } catch {
                return failing(Reason("\(error)"), &turn, set: set, fallback: fallback)
            }
        }
        let seconds = schedule?.totalSeconds ?? Double(played.leadInFrames + played.plan.totalFrames) / Double(played.plan.sampleRate)
        let leavesRoom = rush == nil || wait == 0 || wait + seconds + settings.spacingSeconds <= settings.maxWaitSeconds
        if wait > settings.maxWaitSeconds || !leavesRoom {
            guard let rush, wait <= settings.maxWaitSeconds else {
                // Handed over at once with no custom sound; it does not extend the queue.
                return turn.saving { $0.decision(.fallback, .none, reason: Reason(busy(wait, "an announcement"))) }
            }
            return placeRush(rush, &turn, set: set, start: startTime, amountSeconds: seconds)
        }
        guard let dropped = turn.queue.makeRoom(at: now) else { return turn.saving { $0.decision(.fallback, .none, reason: Self.full) } }
        turn.deletions += dropped
        return placeAnnouncement(played, schedule: schedule, &turn, set: set, start: startTime, seconds: seconds, fallback: fallback)
    }

    /// The rush sound in place of an amount that would leave no room for the next push.
    private func placeRush(_ rush: FallbackSound, _ turn: inout Turn, set: InstalledSet, start startTime: Double, amountSeconds seconds: Double) -> Decided {
        let now = turn.context.now
        guard let dropped = turn.queue.makeRoom(at: now) else { return turn.saving { $0.decision(.fallback, .none, reason: Self.full) } }
        turn.deletions += dropped
        turn.queue.announcements.append(
            .init(
                key: turn.context.key, kind: .clip, start: startTime, end: startTime + rush.seconds, set: set.id, file: nil, notifications: [],
                transaction: turn.hash))
        if let hash = turn.hash { turn.queue.remember(hash, at: now) }
        let wait = startTime - now
        let reason = String(
            format:
                "a rush: the queue is busy for %.2f s, and the amount (%.2f s) would leave no room for the next push within announcement.maxWaitSeconds (%g s): its rush sound (%@) plays instead",
            wait, seconds, settings.maxWaitSeconds, rush.clip)
        var decided = turn.saving { $0.failure(Reason(reason), sound: rush, start: startTime) }
        decided.work = .clip(rush.file)
        return decided
    }

    /// The announcement's entry in the queue, its notifications or its composed file's claim, and the
    /// queue saved with it.
    private func placeAnnouncement(
        _ played: PlayedAnnouncement, schedule: NotificationSchedule?, _ turn: inout Turn, set: InstalledSet, start startTime: Double, seconds: Double,
        fallback: FallbackSound?
    ) -> Decided {
        let (delivery, plan, outcome, reason) = (played.delivery, played.plan, played.outcome, played.reason)
        let key = turn.context.key
        var entry = AnnouncementQueue.Entry(
            key: key, kind: delivery == .composed ? .composed : .chain, start: startTime, end: startTime + seconds, set: set.id, file: nil,
            notifications: [], transaction: turn.hash)
        var notifications: [AnnouncementDecision.Notification] = []
        let work: Decided.Work
        if let schedule {
            notifications = schedule.items.map {
                AnnouncementDecision.Notification(identifier: $0.identifier, sound: $0.sound, at: startTime + $0.delay)
            }
            entry.notifications = notifications.map(\.at)
            work = .chain(plan)
        } else {
            let name = GroupFolder.composedName(key, container: set.manifest.container)
            entry.file = name
            // Claimed before the queue naming it is saved: while this process lives, another one
            // finding the entry without its file knows it is being written, not abandoned.
            let claim: FileClaim
            do { claim = try turn.open.sounds.claim(name, protection: turn.open.protection) } catch {
                return failing(Reason(error.reason), &turn, set: set, fallback: fallback)
            }
            work = .compose(plan, leadIn: played.leadInFrames, claim: claim)
        }
        turn.queue.announcements.append(entry)
        if let hash = turn.hash { turn.queue.remember(hash, at: turn.context.now) }
        // An announcement the queue cannot record would overlap the next: it is not made.
        var context = turn.context
        do {
            if let moved = try turn.queue.save(turn.open) { context.notes.append(Reason(moved)) }
        } catch {
            let failed = context.failure(
                "\(SoundSetLayout.stateName)/queue.json cannot be saved (\(error.reason)), so the announcement would not keep its place in the queue",
                sound: nil)
            return Decided(decision: failed, context: context)
        }
        let made = context.decision(
            outcome, delivery, sound: entry.file, start: startTime, seconds: seconds, notifications: notifications, clips: plan.clips,
            reason: reason.map { Reason($0) })
        return Decided(decision: made, context: context, deletions: turn.deletions, work: work)
    }

    /// The reason of a push that finds the queue full.
    static let full: Reason =
        "the queue holds \(AnnouncementQueue.maxAnnouncements) announcements still to play, as many as it keeps: handed over without an announcement"

    /// A transaction id as reasons show it: printable, and cut after 64 characters.
    static func shown(_ id: String) -> String {
        let printable = ClipNameRules.printable(id)
        guard printable.count > 64 else { return printable }
        return "\(printable.prefix(64))… (\(id.utf8.count) bytes)"
    }

    /// An announcement whose composed file could not be written, or whose chain's files could not be
    /// mended, after the lock: its place in the queue goes to the fallback clip (when it fits before
    /// the next announcement), or is given back and the system's sound plays.
    private func revise(_ decided: Decided, _ reason: Reason, _ set: InstalledSet, _ open: OpenGroup, _ gate: SuspensionGate?) -> AnnouncementDecision {
        let key = decided.decision.key
        let start = decided.decision.start
        let candidate = fallbackSound(set, open)
        var played: FallbackSound?
        _ = try? GroupLock.withLock(open, gate: gate, wait: lockWait) { () throws(GroupFailure) in
            var (queue, note) = try AnnouncementQueue.load(open, at: decided.context.now)
            guard note == nil, let index = queue.announcements.firstIndex(where: { $0.key == key }) else { return }
            let next = queue.announcements.filter { $0.start > start }.map(\.start).min()
            if let candidate, next.map({ start + candidate.seconds + settings.spacingSeconds <= $0 }) ?? true {
                queue.announcements[index] = .init(
                    key: key, kind: .clip, start: start, end: start + candidate.seconds, set: set.id, file: nil, notifications: [],
                    transaction: queue.announcements[index].transaction)
                played = candidate
            } else {
                queue.announcements[index].end = queue.announcements[index].start
                queue.announcements[index].file = nil
                queue.announcements[index].notifications = []
            }
            try queue.save(open)
        }
        return decided.context.failure(reason, sound: played, start: played == nil ? nil : start)
    }

    /// The composed file; a clip found damaged is copied again from the app's set and the file
    /// composed once more.
    private func compose(_ plan: AnnouncementPlan, _ installed: InstalledSet, _ open: OpenGroup, leadIn: Int) throws -> Data {
        var refused: GroupFailure?
        func read(_ file: String) throws(ComposeError) -> Data {
            do throws(FileProblem) { return try open.sounds.read(file, maxBytes: Composer.maxClipBytes) } catch {
                if case .system(let code) = error, code == EPERM || code == EACCES { refused = error.failure("\(open.sounds.display)/\(file)") }
                throw error == .missing ? .missing(file) : .unreadable(file, "the clip file \(error.reason)")
            }
        }
        do throws(ComposeError) { return try Composer.compose(plan, manifest: installed.manifest, leadInFrames: leadIn, read: read) } catch {
            // Protected data is not damaged: nothing to mend.
            if let refused { throw refused }
            switch error {
            case .stale, .missing, .unreadable:
                try SoundSetInstaller.mend(Set(plan.steps.map(\.file)), of: installed, from: set, in: open)
                return try Composer.compose(plan, manifest: installed.manifest, leadInFrames: leadIn, read: read)
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

    /// The fallback clip's installed file, `fallback` or else the prefix, when the set has it and
    /// its file is intact (mended when it is not).
    private func fallbackSound(_ installed: InstalledSet, _ open: OpenGroup) -> FallbackSound? {
        guard let name = settings.fallback ?? settings.prefix, let clip = installed.manifest.clip(named: name),
            (try? SoundSetInstaller.mend([clip.file], of: installed, from: set, in: open)) != nil
        else { return nil }
        return FallbackSound(file: clip.file, clip: clip.name, seconds: Double(clip.frames) / Double(installed.manifest.sampleRate))
    }

    /// The rush sound: `announcement.rushSound`, or else the prefix, when the set has it (its file is
    /// checked after the decision, as a chain's are).
    private func rushSound(_ installed: InstalledSet) -> FallbackSound? {
        guard let name = settings.rushSound ?? settings.prefix, let clip = installed.manifest.clip(named: name) else { return nil }
        return FallbackSound(file: clip.file, clip: clip.name, seconds: Double(clip.frames) / Double(installed.manifest.sampleRate))
    }

    /// A failure to read the amount or plan it, in words.
    struct PlanningFailure: Error {
        var reason: Reason
    }

    /// The announcement with its prefix and suffix, and without, as `PlayedAnnouncement` plans it.
    private func makePlans(_ input: AnnouncementRequest.AmountInput, _ installed: InstalledSet) throws(PlanningFailure) -> AnnouncementRules.Plans {
        let amount = try readAmount(input)
        do { return try PlayedAnnouncement.plans(amount, manifest: installed.manifest, settings: settings) } catch {
            throw PlanningFailure(reason: Reason(error.description))
        }
    }

    /// The amount the push carries, read exactly.
    private func readAmount(_ input: AnnouncementRequest.AmountInput) throws(PlanningFailure) -> Amount {
        switch input {
        case .text(let text):
            do { return try Amount(text) } catch {
                throw PlanningFailure(
                    reason: "the amount '\(amount: ClipNameRules.printable(text))' is refused: \(error.explaining(text), masked: error.description)")
            }
        case .minorUnits(let units):
            do { return try Amount(minorUnits: units) } catch {
                throw PlanningFailure(reason: "the amount \(amount: "\(units)") minor units is refused: \(error)")
            }
        case .missing(let reason):
            throw PlanningFailure(reason: Reason(reason))
        }
    }
}
