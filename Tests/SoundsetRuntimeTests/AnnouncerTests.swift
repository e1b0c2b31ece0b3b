import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// A shop's set (8 kHz; every word 0.4 s, 收款到账 `received` 1.5 s) and an App Group folder.
struct Shop {
    let folder: TemporaryDirectory
    let set: SoundSet
    let group: GroupFolder
    let clock = ManualClock(1000)
    let keys = CountingKeys()

    init(
        _ settings: AnnouncementSettings = AnnouncementSettings(join: .file), word: Int = 3200, phrase: Int = 12000, label: String = "shop",
        group makeGroup: (URL) -> GroupFolder = { GroupFolder($0) }
    ) throws {
        folder = try TemporaryDirectory(label)
        let setFolder = folder.url.appendingPathComponent("Output")
        try FakeSets.write(
            in: setFolder, rate: 8000, prefix: settings.prefix ?? "received", gapMs: settings.gapMs, announcement: settings,
            frames: { $0 == "received" ? phrase : word })
        set = try SoundSet(folder: setFolder)
        group = makeGroup(folder.url.appendingPathComponent("Group"))
    }

    func announcer(_ settings: AnnouncementSettings? = nil) -> Announcer {
        let keys = self.keys
        return Announcer(set: set, group: group, settings: settings, clock: clock, makeKey: { keys.make() })
    }

    func announce(_ amount: String, id: String? = nil, at time: Double? = nil, _ settings: AnnouncementSettings? = nil) -> AnnouncementDecision {
        announcer(settings).announce(AnnouncementRequest(amount: .text(amount), transactionID: id, arrival: time))
    }

    var soundFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: group.sounds.path)) ?? []).sorted() }
    var composedFiles: [String] { soundFiles.filter { $0.hasPrefix("soundset-") } }
    var queueText: String { (try? String(contentsOf: group.state.appendingPathComponent("queue.json"), encoding: .utf8)) ?? "" }
}

@Suite struct AnnouncerTests {
    @Test func announcesOneComposedFileThatPlaysTheWholeAnnouncement() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let decision = shop.announce("1", at: 1000)
        #expect(decision.outcome == .announced)
        #expect(decision.delivery == .composed)
        #expect(decision.clips == ["received", "1", "yuan"])
        #expect(decision.sound == "soundset-k0.caf")
        #expect(decision.systemSound == false)
        #expect(decision.start == 1000)
        #expect(decision.wait == 0)
        #expect(abs(decision.end - 1002.3) < 1e-9)
        #expect(decision.reason == nil)
        #expect(decision.notifications.isEmpty)
        // The composed file, in Library/Sounds, holds the installed clips end to end.
        let composed = try SoundData(parsing: Data(contentsOf: shop.group.sounds.appendingPathComponent("soundset-k0.caf")), name: "x")
        #expect(composed.frames == 12000 + 2 * 3200)
        #expect(shop.soundFiles.contains("ss\(shop.set.id)-received.caf"))
    }

    @Test func aBurstQueuesWithoutOverlapTheAmountAloneThenTheRushSoundThenNothing() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let decisions = (0..<20).map { _ in shop.announce("1", at: 1000) }
        // The first plays whole (2.3 s); each after it waits, so it says the amount alone (0.8 s) and
        // starts 0.3 s after the one before: 1002.6, 1003.7, ... 1018.0 (the sixteenth). The
        // seventeenth would start at 1019.1 and end, with its spacing, after maxWaitSeconds (20), so
        // that no push after it could start in time: it plays the rush sound (received, 1.5 s); the
        // eighteenth would wait 20.9 s and falls back with no sound of its own.
        #expect(decisions[0].outcome == .announced && decisions[0].clips == ["received", "1", "yuan"])
        for (index, decision) in decisions[1..<16].enumerated() {
            #expect(decision.outcome == .shortened && decision.clips == ["1", "yuan"], "\(index)")
            #expect(abs(decision.start - (1002.6 + Double(index) * 1.1)) < 1e-9, "\(index)")
            #expect(decision.reason == "the amount alone, with no prefix, suffix or lead-in: a rush (it waits behind another announcement)")
        }
        let rushed = decisions[16]
        #expect(rushed.outcome == .fallback && rushed.delivery == .none && !rushed.systemSound)
        #expect(rushed.sound == "ss\(shop.set.id)-received.caf" && rushed.clips == ["received"])
        #expect(abs(rushed.start - 1019.1) < 1e-9 && abs(rushed.end - 1020.6) < 1e-9)
        #expect(
            rushed.reason
                == "a rush: the queue is busy for 19.10 s, and the amount (0.80 s) would leave no room for the next push within announcement.maxWaitSeconds (20 s): its rush sound (received) plays instead"
        )
        let heard = decisions[0..<17]
        for (earlier, later) in zip(heard, heard.dropFirst()) { #expect(later.start >= earlier.end + 0.3 - 1e-9) }
        #expect(heard.allSatisfy { $0.wait <= 20 })
        #expect(Set(decisions[0..<16].compactMap(\.sound)).count == 16)
        for decision in decisions.dropFirst(17) {
            #expect(decision.outcome == .fallback)
            #expect(decision.delivery == .none)
            #expect(decision.sound == nil)
            #expect(decision.systemSound == false)
            #expect(decision.reason == "the queue is busy for 20.90 s, longer than announcement.maxWaitSeconds (20 s): handed over without an announcement")
        }
        // The fallbacks did not extend the queue: a push at 1001 waits for the rush sound (19.9 s),
        // not for the twentieth, and plays a rush sound of its own.
        let next = shop.announce("1", at: 1001)
        #expect(next.sound == "ss\(shop.set.id)-received.caf" && abs(next.start - 1020.9) < 1e-9)
        #expect(Set(decisions.map(\.id)).count == 20)
    }

    @Test func theSameTransactionTwiceIsAnnouncedOnce() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let first = shop.announce("88", id: "tx-1", at: 1000)
        let retry = shop.announce("88", id: "tx-1", at: 1004.5)
        #expect(first.outcome == .announced)
        #expect(first.id == "tx-1")
        #expect(retry.outcome == .duplicate)
        #expect(retry.delivery == .none)
        #expect(retry.sound == nil)
        #expect(retry.reason == "transaction tx-1 was announced 4.5 s ago")
        #expect(shop.composedFiles.count == 1)
        // Another transaction of the same amount is a payment of its own.
        #expect(shop.announce("88", id: "tx-2", at: 1005).outcome == .announced)
        // After dedupeSeconds the id is forgotten.
        #expect(shop.announce("88", id: "tx-1", at: 1000 + 600).outcome == .announced)
    }

    @Test func twoPushesWithoutAnIdAreTwoPayments() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let a = shop.announce("12", at: 1000)
        let b = shop.announce("12", at: 1000)
        #expect(a.outcome == .announced)
        #expect(b.outcome == .shortened)  // it waits behind a: the amount alone
        #expect(a.id != b.id)
        #expect(a.sound != b.sound)
        #expect(b.start >= a.end + 0.3 - 1e-9)
    }

    @Test func theBannerDropsThePrefixAndThenDeliveryDecides() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        // 1234: 8 words, 3.2 s; with 收款到账 4.7 s: fits the 5 s banner.
        let whole = shop.announce("1234", at: 1000)
        #expect(whole.outcome == .announced)
        #expect(whole.clips.first == "received")
        // 12345: 4.0 s alone, 5.5 s whole: the prefix goes.
        let short = shop.announce("12345", at: 2000)
        #expect(short.outcome == .shortened)
        #expect(short.delivery == .composed)
        #expect(short.clips == ["1", "ten_thousand", "2", "thousand", "3", "hundred", "4", "ten", "5", "yuan"])
        #expect(short.reason == "without its prefix and suffix to fit the 5 s banner (whole, it lasts 5.50 s)")
        #expect(abs(short.end - short.start - 4.0) < 1e-9)
        // 12345.67: 5.2 s even alone. Composed (the default) plays it and says the banner cuts it ...
        let cut = shop.announce("12345.67", at: 3000)
        #expect(cut.outcome == .shortened)
        #expect(cut.delivery == .composed)
        #expect(cut.clips.first == "1")
        #expect(cut.reason == "the amount alone lasts 5.20 s, over the 5 s banner: the banner will cut it")
        // ... auto chains it whole ...
        let auto = shop.announce("12345.67", at: 4000, AnnouncementSettings(prefix: "received", join: .file, delivery: .auto))
        #expect(auto.outcome == .announced)
        #expect(auto.delivery == .chain)
        #expect(auto.sound == nil)
        #expect(auto.clips.first == "received")
        #expect(auto.reason == "the amount alone lasts 5.20 s, over the 5 s banner: chained")
        #expect(auto.notifications.count == 14)
        // ... and chain always chains.
        let chain = shop.announce("1", at: 5000, AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        #expect(chain.delivery == .chain)
        #expect(chain.notifications.map(\.at) == [5000, 5001.5, 5001.9])
        #expect(chain.notifications.map(\.sound) == ["received", "1", "yuan"].map { "ss\(shop.set.id)-\($0).caf" })
        #expect(chain.notifications.map(\.identifier) == ["k4.0", "k4.1", "k4.2"])
        #expect(chain.end == 5002.3)
    }

    @Test func theCopyRulePlaysInstalledCopies() throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        defer { shop.folder.remove() }
        let decision = shop.announce("2.22", at: 1000)
        #expect(decision.clips == ["received", "2", "point", "2", "2Copy", "yuan"])
        let id = shop.set.id
        #expect(decision.notifications.map(\.sound) == ["received", "2", "point", "2", "2Copy", "yuan"].map { "ss\(id)-\($0).caf" })
        #expect(Set(decision.notifications.map(\.identifier)).count == 6)
    }

    @Test func aChainNeverMakesMoreThanSixtyFourPending() throws {
        // 0.1 s words and a 1 s banner: 12345.67 needs 13 clips alone (1.3 s), 14 with the prefix.
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, bannerSeconds: 1), word: 800, phrase: 800)
        defer { shop.folder.remove() }
        let chain = AnnouncementSettings(prefix: "received", join: .file, delivery: .chain, bannerSeconds: 1)
        let chains = (0..<4).map { _ in shop.announce("12345.67", at: 1000, chain) }
        // The first whole; the three waiting behind it say the amount alone (a rush): 13 each.
        #expect(chains.allSatisfy { $0.delivery == .chain })
        #expect(chains.map(\.notifications.count) == [14, 13, 13, 13])
        // 53 pending: the next chain, 14 whole, would make 67.
        let refused = shop.announce("12345.67", at: 1000, chain)
        #expect(refused.outcome == .fallback)
        #expect(refused.reason == "a chain of 14 would make 67 notifications pending, more than iOS keeps (64)")
        #expect(refused.sound == "ss\(shop.set.id)-received.caf")
        // Under auto it is composed instead (and the banner cuts it).
        let auto = shop.announce("12345.67", at: 1000, AnnouncementSettings(prefix: "received", join: .file, delivery: .auto, bannerSeconds: 1))
        #expect(auto.delivery == .composed)
        #expect(auto.outcome == .shortened)
        #expect(
            auto.reason
                == "a chain of 14 would make 67 notifications pending, more than iOS keeps (64): composed instead; the amount alone lasts 1.30 s, over the 1 s banner: the banner will cut it"
        )
        // Notifications that fired no longer count: a chain an hour later is scheduled.
        #expect(shop.announce("12345.67", at: 4600, chain).delivery == .chain)
    }

    @Test func aCorruptOrUnreadableStateIsReplaced() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        _ = shop.announce("1", at: 1000)
        try Data("{\"schemaVersion\": 1, \"announcements\": [oops".utf8).write(to: shop.group.state.appendingPathComponent("queue.json"))
        let decision = shop.announce("1", at: 1001)
        #expect(decision.outcome == .announced)
        #expect(decision.reason == "soundset/queue.json was corrupt (not a queue's JSON), so the queue was started again")
        // The state is whole again: the next push queues behind the last one.
        let next = shop.announce("1", at: 1001)
        #expect(next.reason == "the amount alone, with no prefix, suffix or lead-in: a rush (it waits behind another announcement)")
        #expect(abs(next.start - (decision.end + 0.3)) < 1e-9)
        // A state naming a file outside Library/Sounds is corrupt too, and nothing is deleted.
        let victim = shop.folder.url.appendingPathComponent("precious.txt")
        try Data("keep".utf8).write(to: victim)
        let hostile = """
            {"schemaVersion": 2, "transactions": [], "leftovers": [], "announcements": [{"key": "x", "kind": "composed", "start": 0, "end": 0,
             "set": "", "file": "../../precious.txt", "notifications": []}]}
            """
        try Data(hostile.utf8).write(to: shop.group.state.appendingPathComponent("queue.json"))
        #expect(
            shop.announce("1", at: 5000).reason
                == "soundset/queue.json was corrupt (an announcement has a key, set, file or transaction that soundset does not write), so the queue was started again"
        )
        #expect(FileManager.default.fileExists(atPath: victim.path))
    }

    @Test func aStaleClipOrABadAmountFallsBackWithTheReason() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let bad = shop.announce("12abc", at: 1000)
        #expect(bad.outcome == .fallback)
        #expect(bad.delivery == .none)
        #expect(bad.sound == "ss\(shop.set.id)-received.caf")
        #expect(bad.clips == ["received"])
        #expect(bad.reason == "the amount '12abc' is refused: the amount is not a number: write digits with at most one point, like 123.45")

        // The manifest says clip 1 has 3 more frames than its file.
        var manifest = shop.set.manifest
        let index = manifest.clips.firstIndex { $0.name == "1" }!
        manifest.clips[index].frames += 3
        let stale = Announcer(set: SoundSet(manifest: manifest, folder: shop.set.folder), group: shop.group, clock: shop.clock)
        let decision = stale.announce(AnnouncementRequest(amount: .minorUnits(100), arrival: 1010))
        #expect(decision.outcome == .fallback)
        #expect(decision.reason?.hasPrefix("ss") == true)
        #expect(decision.reason?.contains("-1.caf: clip '1' is not the file the manifest describes (3200 frames, the manifest says 3203)") == true)
        #expect(decision.sound?.hasSuffix("-received.caf") == true)

        // A set with no fallback clip plays the system's sound.
        let plain = try Shop(AnnouncementSettings(prefix: "received", join: .file), label: "plain")
        defer { plain.folder.remove() }
        var bare = plain.set.manifest
        bare.clips.removeAll { $0.name == "received" || $0.name == "7" }
        bare.announcement?.prefix = nil
        let lacking = Announcer(set: SoundSet(manifest: bare, folder: plain.set.folder), group: plain.group)
        let missing = lacking.announce(AnnouncementRequest(amount: .text("7"), arrival: 1000))
        #expect(missing.outcome == .fallback)
        #expect(missing.sound == nil)
        #expect(missing.systemSound)
        #expect(missing.reason == "the sound set has no clip for 7 (record it and run soundset build)")
        #expect(lacking.announce(AnnouncementRequest(amount: .minorUnits(-5), arrival: 1000)).reason == "the amount -5 minor units is refused: the amount is negative")
    }

    @Test func aComposedFileThatCannotBeWrittenFallsBack() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        _ = shop.announce("1", at: 1000)  // installs, uses k0
        // k1's composed file name is taken by a folder: the rename fails as a full disk would.
        try FileManager.default.createDirectory(at: shop.group.sounds.appendingPathComponent("soundset-k1.caf/x"), withIntermediateDirectories: true)
        let decision = shop.announce("1", at: 1100)
        #expect(decision.outcome == .fallback)
        #expect(decision.reason?.hasPrefix("Library/Sounds/soundset-k1.caf cannot be written (") == true)
        #expect(decision.sound?.hasSuffix("-received.caf") == true)
    }

    @Test func composedFilesAreDeletedAMinuteAfterTheyEnd() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try FileManager.default.createDirectory(at: shop.group.sounds, withIntermediateDirectories: true)
        try Data("the app's own".utf8).write(to: shop.group.sounds.appendingPathComponent("ding.caf"))
        let first = shop.announce("1", at: 1000)
        #expect(shop.composedFiles == ["soundset-k0.caf"])
        _ = shop.announce("2", at: first.end + 59.9)
        #expect(shop.composedFiles == ["soundset-k0.caf", "soundset-k1.caf"])
        _ = shop.announce("3", at: first.end + 60)
        #expect(shop.composedFiles == ["soundset-k1.caf", "soundset-k2.caf"])
        // A composed file the queue does not know (a crash before the state was saved) goes a minute later.
        try Data("stray".utf8).write(to: shop.group.sounds.appendingPathComponent("soundset-orphan.caf"))
        _ = shop.announce("4", at: 5000)
        #expect(shop.composedFiles.contains("soundset-orphan.caf"))
        _ = shop.announce("5", at: 5060)
        #expect(!shop.composedFiles.contains("soundset-orphan.caf"))
        // The app's own sounds in Library/Sounds are never touched.
        #expect(try Data(contentsOf: shop.group.sounds.appendingPathComponent("ding.caf")) == Data("the app's own".utf8))
    }

    @Test func theLeadInIsSilenceBeforeTheFirstClip() throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, leadInMs: 500))
        defer { shop.folder.remove() }
        let decision = shop.announce("1", at: 1000)
        #expect(abs(decision.end - decision.start - 2.8) < 1e-9)
        let composed = try SoundData(parsing: Data(contentsOf: shop.group.sounds.appendingPathComponent(decision.sound!)), name: "x")
        #expect(composed.frames == 4000 + 12000 + 2 * 3200)
        #expect(composed.samples.prefix(8000).allSatisfy { $0 == 0 })
        let prefix = try SoundData(parsing: Data(contentsOf: shop.group.sounds.appendingPathComponent("ss\(shop.set.id)-received.caf")), name: "p")
        #expect(composed.samples.dropFirst(8000).prefix(24000) == prefix.samples)
    }

    @Test func aSetChangedBetweenPushesIsInstalledUnderNewNamesAndTheOldOneRemovedWhenUnused() throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        defer { shop.folder.remove() }
        let old = shop.set.id
        let chain = shop.announce("1", at: 1000)
        #expect(chain.notifications.allSatisfy { $0.sound.hasPrefix("ss\(old)-") })
        // The app ships a new take of 1.
        let newFolder = shop.folder.url.appendingPathComponent("Output2")
        try FakeSets.write(
            in: newFolder, rate: 8000, prefix: "received", gapMs: 0, announcement: AnnouncementSettings(prefix: "received", join: .file),
            frames: { $0 == "received" ? 12000 : $0 == "1" ? 3000 : 3200 })
        let newSet = try SoundSet(folder: newFolder)
        #expect(newSet.id != old)
        let updated = Announcer(set: newSet, group: shop.group, clock: shop.clock)
        let decision = updated.announce(AnnouncementRequest(amount: .text("1"), arrival: 1001))
        #expect(decision.sound?.hasPrefix("soundset-") == true)
        #expect(shop.soundFiles.contains("ss\(newSet.id)-1.caf"))
        // The old set's clips stay while its chain may still play ...
        #expect(shop.soundFiles.contains("ss\(old)-1.caf"))
        // ... and go once it cannot.
        _ = updated.announce(AnnouncementRequest(amount: .text("1"), arrival: chain.end + 60))
        #expect(!shop.soundFiles.contains { $0.hasPrefix("ss\(old)-") })
        #expect(shop.soundFiles.contains("ss\(newSet.id)-received.caf"))
    }

    @Test func anAnnouncementRequestTakesMinorUnits() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        #expect(shop.announcer().announce(AnnouncementRequest(amount: .minorUnits(1230), arrival: 1000)).clips == ["received", "ten", "2", "point", "3", "yuan"])
    }
}

extension AnnouncerTests {
    /// Twelve pushes handled at once on threads of one process: the file lock orders them too.
    @Test func pushesOnManyThreadsAtOnceAreOrdered() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let announcer = shop.announcer()
        let lock = NSLock()
        nonisolated(unsafe) var decisions: [AnnouncementDecision] = []
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            let decision = announcer.announce(AnnouncementRequest(amount: .text("\(index % 9 + 1)"), arrival: 1000))
            lock.withLock { decisions.append(decision) }
        }
        // One whole, eleven the amount alone (a rush): all twelve fit within maxWaitSeconds.
        let played = decisions.filter { $0.outcome == .announced || $0.outcome == .shortened }.sorted { $0.start < $1.start }
        #expect(played.count == 12)
        #expect(decisions.filter { $0.outcome == .announced }.count == 1)
        for (earlier, later) in zip(played, played.dropFirst()) { #expect(later.start >= earlier.end + 0.3 - 1e-9) }
        #expect(Set(played.compactMap(\.sound)).count == 12)
        #expect(shop.composedFiles.count == 12)
    }
}

extension AnnouncerTests {
    @Test func aFailuresFallbackClipWaitsItsTurnInTheQueue() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let first = shop.announce("1", at: 1000)
        let bad = shop.announce("1.234", at: 1000)
        #expect(bad.outcome == .fallback)
        #expect(bad.sound == "ss\(shop.set.id)-received.caf")
        #expect(abs(bad.start - (first.end + 0.3)) < 1e-9)
        #expect(abs(bad.end - bad.start - 1.5) < 1e-9)
        #expect(abs(bad.wait - 2.6) < 1e-9)
        // The next announcement waits for the fallback clip too.
        let next = shop.announce("2", at: 1000)
        #expect(abs(next.start - (bad.end + 0.3)) < 1e-9)
        // A failure that would wait too long keeps the push's own sound, and says both.
        let impatient = AnnouncementSettings(prefix: "received", join: .file, maxWaitSeconds: 1)
        let late = shop.announce("x", at: 1000, impatient)
        #expect(late.sound == nil)
        #expect(late.systemSound == false)
        #expect(
            late.reason
                == "the amount 'x' is refused: the amount is not a number: write digits with at most one point, like 123.45; the queue is busy for 5.50 s, longer than announcement.maxWaitSeconds (1 s): handed over without a sound of its own"
        )
    }

    @Test func anEmptyTransactionIdIsNoId() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        #expect(shop.announce("5", id: "", at: 1000).outcome == .announced)
        #expect(shop.announce("5", id: "", at: 1001).outcome == .shortened)  // a second payment, waiting: the amount alone
    }

    @Test func aPushWithoutAnAmountFallsBackWithWhatItCarries() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let decision = shop.announcer().announce(try PushPayload.request(fromJSON: Data(#"{"aps": {}, "amount": 9.5}"#.utf8), arrival: 1000))
        #expect(decision.outcome == .fallback)
        #expect(decision.reason == "the push's amount is a number, not a string: send \"amount\": \"123.45\"")
    }
}

/// What someone set on breaking it tried.
@Suite struct AnnouncerAttackTests {
    @Test func aRetryDecidedBeforeTheFirstIsStillADuplicate() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        #expect(shop.announce("5", id: "TX1", at: 1000).outcome == .announced)
        let earlier = shop.announce("5", id: "TX1", at: 999.9)
        #expect(earlier.outcome == .duplicate)
        #expect(earlier.reason == "transaction TX1 was announced -0.1 s ago")
    }

    @Test func aClockSetBackOrAStateFromAnotherClockStartsTheQueueAgain() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        _ = shop.announce("1", at: 1000)
        let back = shop.announce("2", at: 500)
        #expect(back.outcome == .announced)
        #expect(back.start == 500)
        #expect(back.reason == "soundset/queue.json holds times after now (was the device's time changed?), so the queue was started again")
        // A hand-edited end far in the future cannot lock the queue.
        var text = shop.queueText
        let end = text.range(of: #""end":[0-9.]+"#, options: .regularExpression)!
        text.replaceSubrange(end, with: "\"end\":1e300")
        try Data(text.utf8).write(to: shop.group.state.appendingPathComponent("queue.json"))
        let after = shop.announce("3", at: 600)
        #expect(after.outcome == .announced)
        #expect(after.start == 600)
        #expect(after.reason == "soundset/queue.json was corrupt (an announcement has a time no clock reads), so the queue was started again")
    }

    @Test func aDamagedInstalledClipIsCopiedAgain() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        _ = shop.announce("1", at: 1000)
        let installed = shop.group.sounds.appendingPathComponent("ss\(shop.set.id)-5.caf")
        let source = try Data(contentsOf: shop.set.soundsFolder.appendingPathComponent("5.caf"))
        var bytes = try Data(contentsOf: installed)
        bytes[bytes.count - 1] ^= 0x55
        try bytes.write(to: installed)
        // Composed: mended, then composed.
        let composed = shop.announce("5", at: 2000)
        #expect(composed.outcome == .announced)
        #expect(try Data(contentsOf: installed) == source)
        // Chain: its files are checked too, and mended.
        try bytes.write(to: installed)
        let chain = shop.announce("5", at: 3000, AnnouncementSettings(prefix: "received", join: .file, delivery: .chain))
        #expect(chain.delivery == .chain)
        #expect(try Data(contentsOf: installed) == source)
        // The fallback clip, damaged, is mended before it is offered.
        let prefix = shop.group.sounds.appendingPathComponent("ss\(shop.set.id)-received.caf")
        try Data(repeating: 1, count: try Data(contentsOf: prefix).count).write(to: prefix)
        let bad = shop.announce("5.555", at: 4000)
        #expect(bad.sound == "ss\(shop.set.id)-received.caf")
        #expect(try Data(contentsOf: prefix) == Data(contentsOf: shop.set.soundsFolder.appendingPathComponent("received.caf")))
        // A damaged clip in the app's own set cannot be mended: the push falls back, and says which.
        try bytes.write(to: installed)
        try bytes.write(to: shop.set.soundsFolder.appendingPathComponent("5.caf"))
        let stale = shop.announce("5", at: 5000)
        #expect(stale.outcome == .fallback)
        #expect(stale.reason == "Sounds/5.caf: clip '5' differs from the manifest's sha256 (ship the build's whole Output folder in the app)")
    }

    @Test func cleanUpDeletesOnlyWhatItWrote() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let sounds = shop.group.sounds
        try FileManager.default.createDirectory(at: sounds.appendingPathComponent("soundset-dir"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: sounds.appendingPathComponent("soundset-dir/data"))
        try FileManager.default.createDirectory(at: sounds.appendingPathComponent("soundset-abc.caf"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: sounds.appendingPathComponent("ss0123456789-x.caf"), withIntermediateDirectories: true)
        for name in ["soundset-important.txt", "soundset-Upper.caf", ".notes.tmp", ".ding.caf.\(UUID().uuidString).tmp"] {
            try Data("keep".utf8).write(to: sounds.appendingPathComponent(name))
        }
        let leftover = ".ss\(shop.set.id)-2.caf.\(UUID().uuidString).tmp"
        try Data("half".utf8).write(to: sounds.appendingPathComponent(leftover))
        let stateLeftover = ".queue.json.\(UUID().uuidString).tmp"
        try FileManager.default.createDirectory(at: shop.group.state, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: shop.group.state.appendingPathComponent(stateLeftover))
        _ = shop.announce("1", at: 1000)
        _ = shop.announce("1", at: 1100)
        _ = shop.announce("1", at: 1200)
        for name in ["soundset-dir/data", "soundset-abc.caf", "ss0123456789-x.caf", "soundset-important.txt", "soundset-Upper.caf", ".notes.tmp"] {
            #expect(FileManager.default.fileExists(atPath: sounds.appendingPathComponent(name).path), "\(name)")
        }
        #expect(!shop.soundFiles.contains(leftover))
        #expect(!FileManager.default.fileExists(atPath: shop.group.state.appendingPathComponent(stateLeftover).path))
        #expect(shop.soundFiles.contains { $0.hasPrefix(".ding.caf.") })
    }

    @Test func aQueueStateThatIsNotAFileIsMovedAside() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let queue = shop.group.state.appendingPathComponent("queue.json")
        try FileManager.default.createDirectory(at: queue, withIntermediateDirectories: true)
        let first = shop.announce("1", at: 1000)
        #expect(first.outcome == .announced)
        #expect(first.reason == "soundset/queue.json was in the way (not a regular file): moved to soundset/aside, so the queue was started again")
        #expect(shop.announce("1", at: 1000).start > first.end)
        // A folder with files in it is moved aside too, whole: nothing in it is deleted.
        try FileManager.default.removeItem(at: queue)
        try FileManager.default.createDirectory(at: queue.appendingPathComponent("x"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: queue.appendingPathComponent("x/data"))
        let moved = shop.announce("1", at: 2000)
        #expect(moved.outcome == .announced)
        #expect(moved.reason == "soundset/queue.json was in the way (not a regular file): moved to soundset/aside, so the queue was started again")
        let aside = try FileManager.default.contentsOfDirectory(atPath: shop.group.state.appendingPathComponent("aside").path)
        #expect(aside.count == 2)
        #expect(aside.contains { (try? Data(contentsOf: shop.group.state.appendingPathComponent("aside/\($0)/x/data"))) == Data("keep".utf8) })
        #expect(shop.announce("1", at: 2000).reason == "the amount alone, with no prefix, suffix or lead-in: a rush (it waits behind another announcement)")
    }

    @Test func aHalfCopiedSetIsRemoved() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try FileManager.default.removeItem(at: shop.set.soundsFolder.appendingPathComponent("yuan.caf"))
        #expect(throws: InstallError.source(file: "Sounds/yuan.caf", reason: "the clip file is missing")) {
            try SoundSetInstaller.install(shop.set, into: shop.group)
        }
        #expect(shop.soundFiles.isEmpty)
    }

    @Test func aManifestCannotNameAClipLikeAnothersCopy() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        var manifest = shop.set.manifest
        var shadow = manifest.clips.first { $0.name == "5" }!
        shadow.name = "2Copy"
        shadow.file = "x.caf"
        shadow.copy = nil
        manifest.clips.append(shadow)
        #expect(manifest.problem == "clip '2Copy' is named like the copy of clip '2'")
        manifest.clips.removeLast()
        manifest.clips[0].file = "0\u{202E}fac.caf"
        #expect(manifest.problem == "clip '0' names the file '0\\u{202E}fac.caf', which is not a plain file name inside Sounds/")
    }
}
