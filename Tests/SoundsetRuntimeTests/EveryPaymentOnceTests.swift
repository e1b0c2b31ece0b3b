import Foundation
import SoundsetRuntimeTestSupport
import Testing

@testable import SoundsetRuntime

/// Every payment heard exactly once: the queue's state survives a kill at any byte of its save, a
/// push killed between any two of its steps is heard on its retry, and a damaged state keeps the
/// ids that read whole.
@Suite struct EveryPaymentOnceTests {
    /// A shop with `count` transactions already heard (`tx-0` ...), each 5 s after the last.
    func shopWithTransactions(_ count: Int) throws -> Shop {
        let shop = try Shop(AnnouncementSettings(join: .file, dedupeSeconds: 86_400))
        let announcer = shop.announcer()
        for index in 0..<count {
            _ = announcer.announce(AnnouncementRequest(amount: .text("1"), transactionID: "tx-\(index)", arrival: 1000 + Double(index) * 5))
        }
        return shop
    }

    /// A kill inside the save's write leaves the old queue.json and a part of the new one under a
    /// temporary name: at every page boundary of a real save, the next push reads the old queue
    /// whole (no note, every earlier id a duplicate), the cut push's retry is announced once, and
    /// the temporary file is removed.
    @Test func aKillAtEveryPageOfTheSaveLeavesTheOldQueueWhole() throws {
        let shop = try shopWithTransactions(300)
        defer { shop.folder.remove() }
        let state = shop.group.state
        let queueURL = state.appendingPathComponent("queue.json")
        let old = try Data(contentsOf: queueURL)
        // The save the next push makes, to cut at each page.
        let time = 1000.0 + 300 * 5
        _ = shop.announce("2", id: "tx-new", at: time)
        let new = try Data(contentsOf: queueURL)
        #expect(new != old && new.count > 3 * 4096)
        #expect(new.last == UInt8(ascii: "}"))  // written whole, not padded for a later write in place
        var pages = Array(stride(from: 0, to: new.count, by: 4096))
        pages.append(new.count)
        for cut in pages {
            try old.write(to: queueURL)
            let temporary = state.appendingPathComponent(".queue.json.\(UUID().uuidString).tmp")
            try new.prefix(cut).write(to: temporary)
            let retry = shop.announce("2", id: "tx-new", at: time + 1)
            #expect(retry.outcome != .duplicate && retry.reason?.contains("queue.json") != true, "cut at \(cut)")
            #expect(!FileManager.default.fileExists(atPath: temporary.path), "cut at \(cut)")
            #expect(shop.announce("2", id: "tx-new", at: time + 2).outcome == .duplicate, "cut at \(cut)")
            for index in stride(from: 0, to: 300, by: 37) {
                #expect(shop.announce("1", id: "tx-\(index)", at: time + 3).outcome == .duplicate, "cut at \(cut), tx-\(index)")
            }
        }
    }

    /// A state damaged anyway (a disk's error, an older version's torn write in place: a new head
    /// on an old tail) keeps every transaction id that reads whole: none is heard twice.
    @Test func aDamagedStateKeepsEveryIdThatReadsWhole() throws {
        let shop = try shopWithTransactions(400)
        defer { shop.folder.remove() }
        let queueURL = shop.group.state.appendingPathComponent("queue.json")
        let old = try Data(contentsOf: queueURL)
        _ = shop.announce("2", id: "tx-new", at: 3100)
        let new = try Data(contentsOf: queueURL)
        let hashes = (0..<400).map { AnnouncementQueue.hash("tx-\($0)") } + [AnnouncementQueue.hash("tx-new")]
        for cut in stride(from: 4096, to: min(old.count, new.count), by: 4096) {
            let torn = new.prefix(cut) + old.dropFirst(cut)
            // The ids whose text lies whole in the new head or in the old tail.
            let whole = hashes.filter { hash in
                if let token = Self.token(hash, in: new), token.upperBound <= cut { return true }
                if let token = Self.token(hash, in: old), token.lowerBound >= cut { return true }
                return false
            }
            #expect(!whole.isEmpty)
            try torn.write(to: queueURL)
            let open = try shop.group.open()
            let (queue, note) = try AnnouncementQueue.load(open, at: 3101)
            let kept = Set(queue.transactions.map(\.hash))
            #expect(whole.allSatisfy(kept.contains), "cut at \(cut): \(whole.filter { !kept.contains($0) }.count) ids lost")
            if let note { #expect(note.hasSuffix("transaction ids that read whole)"), "cut at \(cut)") }
        }
        // Through the announcer: a state whose announcements are damaged but whose ids are whole.
        try Data(new.prefix(new.count / 2)).write(to: queueURL)
        let retry = shop.announce("1", id: "tx-7", at: 3102)
        #expect(retry.outcome == .duplicate)
    }

    /// Where `hash`'s transaction stands in a saved queue, its delimiters (`"` or `,`) included.
    static func token(_ hash: String, in data: Data) -> Range<Int>? {
        guard let found = data.range(of: Data("\(hash) ".utf8)), found.lowerBound > 0,
            let close = data[found.upperBound...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: ",") })
        else { return nil }
        return (found.lowerBound - 1)..<(close + 1)
    }

    /// A state an earlier version wrote (schema 2: the ids a list of strings) is read, not started
    /// again: its ids stay duplicates, and the next save writes schema 3.
    @Test func aStateOfTheEarlierSchemaIsReadWithItsIds() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let hash = AnnouncementQueue.hash("tx-old")
        let earlier = #"{"schemaVersion": 2, "clock": 990, "announcements": [], "transactions": ["\#(hash) 990000"], "leftovers": []}"#
        _ = try shop.group.open()
        try Data(earlier.utf8).write(to: shop.group.state.appendingPathComponent("queue.json"))
        let retry = shop.announce("1", id: "tx-old", at: 1000)
        #expect(retry.outcome == .duplicate)
        #expect(retry.reason == "transaction tx-old was announced 10.0 s ago")
        #expect(shop.queueText.contains(#""schemaVersion":3"#) && shop.queueText.contains(#""transactions":"\#(hash) 990000""#))
    }

    /// A push stopped (killed) after each of its steps, then retried 30 s later: heard exactly once.
    @Test func aPushKilledBetweenAnyTwoStepsIsHeardOnceOnItsRetry() throws {
        for step in Announcer.Step.allCases {
            let shop = try Shop()
            defer { shop.folder.remove() }
            var killed = shop.announcer()
            killed.stopAfter = { $0 == step }
            let first = killed.announce(AnnouncementRequest(amount: .text("12"), transactionID: "tx-1", arrival: 1000))
            let placed = shop.composedFiles
            let retry = shop.announce("12", id: "tx-1", at: 1030)
            let again = shop.announce("12", id: "tx-1", at: 1031)
            switch step {
            case .installed:
                // Nothing was decided: the retry is the first announcement.
                #expect(first.outcome == .fallback && placed.isEmpty)
                #expect(retry.outcome == .announced && retry.reason == nil)
            case .decided, .composed:
                // Decided and saved, but its file never in place: it never played.
                #expect(first.outcome == .announced && placed.isEmpty, "\(step)")
                #expect(retry.outcome == .announced, "\(step)")
                #expect(retry.reason == "an earlier push of transaction tx-1 was never heard (its process ended before its sound was in place)")
                #expect(shop.composedFiles == [retry.sound!], "\(step)")
                #expect(!shop.queueText.contains(first.key), "\(step)")
            case .written:
                #expect(first.outcome == .announced && placed == [first.sound!])
                #expect(retry.outcome == .duplicate)
            }
            #expect(again.outcome == .duplicate, "\(step)")
        }
    }

    /// A push killed before its file was in place is heard on a retry long after its entry would
    /// have been pruned (a minute after its end), even when other pushes were decided in between.
    @Test func aKilledPushIsHeardOnARetryMinutesLater() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        var killed = shop.announcer()
        killed.stopAfter = { $0 == .decided }
        _ = killed.announce(AnnouncementRequest(amount: .text("12"), transactionID: "tx-1", arrival: 1000))
        #expect(shop.announce("3", at: 1100).outcome == .announced)
        let retry = shop.announce("12", id: "tx-1", at: 1300)
        #expect(retry.outcome == .announced)
        #expect(shop.announce("12", id: "tx-1", at: 1301).outcome == .duplicate)
    }

    /// A retry arriving while the first push's process is still writing its file is a duplicate:
    /// the claim's lock says the writer is alive.
    @Test func aRetryWhileTheFirstIsStillWritingIsADuplicate() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let open = try shop.group.open()
        nonisolated(unsafe) var claim: FileClaim?
        var writer = shop.announcer()
        // The writer stops after its decision, as if still composing: its claim is held here.
        writer.stopAfter = { $0 == .decided }
        let first = writer.announce(AnnouncementRequest(amount: .text("12"), transactionID: "tx-1", arrival: 1000))
        #expect(shop.composedFiles.isEmpty)
        // (The claim the announcer held ended with it; a live writer's is taken again the same way.)
        claim = try open.sounds.claim(first.sound!, protection: open.protection)
        #expect(open.sounds.isClaimed(first.sound!))
        #expect(shop.announce("12", id: "tx-1", at: 1001).outcome == .duplicate)
        claim = nil
        #expect(!open.sounds.isClaimed(first.sound!))
        #expect(shop.announce("12", id: "tx-1", at: 1002).outcome == .announced)
        _ = claim
    }
}

extension EveryPaymentOnceTests {
    /// Whether a live claim stands in `Library/Sounds`.
    static func anyClaimed(_ open: OpenGroup) -> Bool {
        (open.sounds.names() ?? []).compactMap(RegularFile.replacedName(ofTemporary:)).contains { open.sounds.isClaimed($0) }
    }

    /// The gate closing (the process is about to be suspended) between the decision and the file:
    /// the claim's flock is let go first (held while suspended, it gets the process killed:
    /// 0xdead10cc), the file is still written (expiry hands over the decided sound), and a retry is
    /// a duplicate.
    @Test func aGateClosedBeforeTheFileIsWrittenLetsTheClaimGoAndWrites() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let gate = SuspensionGate()
        nonisolated(unsafe) let open = try shop.group.open()
        nonisolated(unsafe) var lockedWhileWriting: Bool?
        var announcer = shop.announcer()
        announcer.beforeWriting = { gate.close() }
        announcer.stopAfter = { step in
            // Composed, not yet written: is the claim still locked?
            if step == .composed { lockedWhileWriting = Self.anyClaimed(open) }
            return false
        }
        let first = announcer.announce(AnnouncementRequest(amount: .text("12"), transactionID: "tx-1", arrival: 1000), gate: gate)
        #expect(first.outcome == .announced && first.sound == "soundset-k0.caf")
        #expect(lockedWhileWriting == false)
        #expect(shop.composedFiles == ["soundset-k0.caf"])
        #expect(!shop.soundFiles.contains { $0.hasSuffix(".tmp") })
        #expect(shop.announce("12", id: "tx-1", at: 1030).outcome == .duplicate)
        // With the gate open, the claim is locked while the file is made.
        var open2 = shop.announcer()
        nonisolated(unsafe) var lockedOpen: Bool?
        open2.stopAfter = { step in
            if step == .composed { lockedOpen = Self.anyClaimed(open) }
            return false
        }
        _ = open2.announce(AnnouncementRequest(amount: .text("13"), transactionID: "tx-2", arrival: 1040), gate: SuspensionGate())
        #expect(lockedOpen == true)
    }
}

/// A lunch rush on a demo-like pack: the demo's clip lengths (its words' speech, 0.23-0.41 s;
/// 收款到账 1.30 s) and its settings (prefix, 0.3 s spacing, maxWaitSeconds 25).
@Suite struct LunchRushTests {
    static let seconds: [String: Double] = [
        "0": 0.407, "1": 0.259, "2": 0.259, "3": 0.340, "4": 0.285, "5": 0.318, "6": 0.271, "7": 0.310, "8": 0.233, "9": 0.323,
        "ten": 0.343, "hundred": 0.263, "thousand": 0.365, "ten_thousand": 0.319, "hundred_million": 0.259, "point": 0.323,
        "yuan": 0.310, "received": 1.296,
    ]

    /// A set of the demo's clip lengths with `settings`, and an announcer on a group beside it.
    static func demoLike(_ settings: AnnouncementSettings) throws -> (TemporaryDirectory, Announcer) {
        let folder = try TemporaryDirectory("rush")
        try FakeSets.write(
            in: folder.url, rate: 8000, prefix: "received", gapMs: 25, announcement: settings,
            frames: { Int((seconds[$0] ?? 0.3) * 8000) })
        let keys = CountingKeys()
        let announcer = Announcer(
            set: try SoundSet(folder: folder.url), group: GroupFolder(folder.url.appendingPathComponent("Group")), clock: ManualClock(1000),
            makeKey: { keys.make() })
        return (folder, announcer)
    }

    /// Seeds 1-8 draw ten amounts from 1.00-99.99; seed 0 is ten times the longest two-digit
    /// amount, 99.99 (9 十 9 点 9 9 元).
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 7, 8])
    func tenPushesAtOnceAreAllHeardInOrderMostWithTheirAmounts(seed: UInt64) throws {
        let settings = AnnouncementSettings(prefix: "received", join: .file, gapMs: 25, maxWaitSeconds: 25)
        let (folder, announcer) = try Self.demoLike(settings)
        defer { folder.remove() }
        var generator = SplitMix64(seed: seed)
        let amounts = (0..<10).map { _ in seed == 0 ? "99.99" : String(format: "%.2f", Double(Int.random(in: 100...9999, using: &generator)) / 100) }
        let decisions = amounts.enumerated().map { index, amount in
            announcer.announce(AnnouncementRequest(amount: .text(amount), transactionID: "tx-\(index)", arrival: 1000))
        }
        let withAmounts = decisions.filter { $0.outcome == .announced || $0.outcome == .shortened }
        #expect(decisions.allSatisfy { $0.sound != nil }, "\(amounts)")
        #expect(withAmounts.count >= 8, "\(amounts): \(decisions.map(\.outcome))")
        #expect(decisions.allSatisfy { $0.wait <= 25 })
        for (earlier, later) in zip(decisions, decisions.dropFirst()) { #expect(later.start >= earlier.end + 0.3 - 1e-9, "\(amounts)") }
        // The rush sound is the prefix alone, and only after the amounts.
        let firstRush = decisions.firstIndex { $0.outcome == .fallback } ?? 10
        #expect(decisions[firstRush...].allSatisfy { $0.clips == ["received"] })
    }
}

extension LunchRushTests {
    /// Chained announcements (`delivery` chain) in a rush say the amount alone too, and the burst
    /// ends in the rush sound, not in silence.
    @Test func aChainedRushSaysTheAmountAloneThenTheRushSound() throws {
        let settings = AnnouncementSettings(prefix: "received", join: .file, gapMs: 25, delivery: .chain, maxWaitSeconds: 25)
        let (folder, announcer) = try Self.demoLike(settings)
        defer { folder.remove() }
        let decisions = (0..<10).map { index in
            announcer.announce(AnnouncementRequest(amount: .text("99.99"), transactionID: "tx-\(index)", arrival: 1000))
        }
        #expect(decisions[0].delivery == .chain && decisions[0].clips.first == "received")
        let chained = decisions.dropFirst().filter { $0.delivery == .chain }
        #expect(!chained.isEmpty && chained.allSatisfy { $0.outcome == .shortened && $0.clips.first == "9" })
        let rushed = decisions.filter { $0.outcome == .fallback }
        #expect(!rushed.isEmpty && rushed.allSatisfy { $0.clips == ["received"] && $0.sound != nil && $0.wait <= 25 })
        #expect(decisions.filter { $0.sound != nil || $0.delivery == .chain }.count == 10)
    }
}
