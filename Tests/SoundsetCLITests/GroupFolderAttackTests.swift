import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

/// What someone set on breaking it did to the group folder, through `soundset announce` on a set
/// built as the demo's is (FakeSets): a state grown past its reader, entries that end in years,
/// folders where files belong, links where folders belong, ids in two Unicode forms, the clock set back.
@Suite struct GroupFolderAttackTests {
    /// A folder with a set in `Output`; the group is `G`.
    func shop() throws -> (TemporaryDirectory, SoundSet) {
        let folder = try TemporaryDirectory()
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        return (folder, try SoundSet(folder: folder.url.appendingPathComponent("Output")))
    }

    func announce(_ arguments: [String], in folder: TemporaryDirectory, prefix: [String] = []) throws -> AnnouncementDecision {
        let result = try SoundsetExecutable.run(["announce"] + arguments + ["--group", "G", "--format", "json"], in: folder.url, prefix: prefix)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(AnnouncementDecision.self, from: Data(result.stdout.utf8))
    }

    func queue(_ folder: TemporaryDirectory) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("G/soundset/queue.json"))) as! [String: Any]
    }

    /// 36 pushes with 120 KB transaction ids made a state of 4.3 MB, past the 4 MiB its reader took:
    /// every push after it started the queue again and announced the retry. Ids are kept as hashes.
    @Test func longTransactionIdsKeepTheStateSmall() throws {
        let (folder, _) = try shop()
        defer { folder.remove() }
        let ids = (0..<36).map { String(repeating: "x", count: 120_000 - 3) + String(format: "%03d", $0) }
        for (index, id) in ids.enumerated() {
            let decision = try announce(["1", "--id", id, "--now", "\(1000 + index * 10)"], in: folder)
            #expect(decision.outcome == .announced && decision.reason == nil, "\(index): \(decision.reason ?? "")")
        }
        let size = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("G/soundset/queue.json").path)[.size] as! Int
        #expect(size < 16_384, "\(size)")
        let retry = try announce(["1", "--id", ids[0], "--now", "1360"], in: folder)
        #expect(retry.outcome == .duplicate)
        #expect(retry.reason == "transaction \(String(repeating: "x", count: 64))… (120000 bytes) was announced 360.0 s ago")
    }

    /// Every composed-looking file nobody knows was recorded: 18,000 of them passed the reader's
    /// limit. At most 256 are remembered at once, the rest taken in as those are deleted.
    @Test func leftoversAreRememberedUpToACeiling() throws {
        let (folder, _) = try shop()
        defer { folder.remove() }
        let sounds = try folder.folder("G/Library/Sounds")
        for index in 0..<300 { try Data("left".utf8).write(to: sounds.appendingPathComponent(String(format: "soundset-left-%03d.caf", index))) }
        func leftovers() throws -> Int { (try queue(folder)["leftovers"] as? [Any])?.count ?? -1 }
        func remaining() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: sounds.path).filter { $0.hasPrefix("soundset-left-") }.count }
        #expect(try announce(["1", "--id", "a", "--now", "1000"], in: folder).reason == nil)
        #expect(try leftovers() == 256)
        #expect(try announce(["2", "--id", "b", "--now", "1061"], in: folder).reason == nil)
        #expect(try remaining() == 44)
        #expect(try leftovers() == 44)
        #expect(try announce(["1", "--id", "a", "--now", "1100"], in: folder).outcome == .duplicate)
        _ = try announce(["3", "--now", "1122"], in: folder)
        #expect(try remaining() == 0)
    }

    /// One digit changed in an entry's end blocked the queue for two hours, and 9e10 for good.
    @Test(arguments: [7000.0, 9e10])
    func anEntryLongerThanAnyAnnouncementIsCorruption(added: Double) throws {
        let (folder, _) = try shop()
        defer { folder.remove() }
        let first = try announce(["1", "--now", "1000"], in: folder)
        let url = folder.url.appendingPathComponent("G/soundset/queue.json")
        var text = try String(contentsOf: url, encoding: .utf8)
        let end = try #require(text.range(of: #""end" ?: ?[0-9.]+"#, options: .regularExpression))
        let edited = added > 1e9 ? added : first.end + added
        text.replaceSubrange(end, with: "\"end\":\(edited)")
        try Data(text.utf8).write(to: url)
        let next = try announce(["2", "--now", "1010"], in: folder)
        #expect(next.outcome == .announced)
        #expect(next.start == 1010)
        let shown = String(format: "%g", edited - first.start)
        #expect(shown == (added > 1e9 ? "9e+10" : "7000.25"))
        #expect(next.reason == "soundset/queue.json was corrupt (an announcement lasts \(shown) s, longer than any can (30 s)), so the queue was started again")
    }

    /// A folder with a file in it at queue.json, or at an installed clip, made every push fall back
    /// for good. It is moved aside, whole, and the push goes on.
    @Test func whatStandsInTheWayIsMovedAside() throws {
        let (folder, set) = try shop()
        defer { folder.remove() }
        _ = try announce(["1", "--now", "1000"], in: folder)
        let queue = folder.url.appendingPathComponent("G/soundset/queue.json")
        try FileManager.default.removeItem(at: queue)
        try Data("mine".utf8).write(to: try folder.folder("G/soundset/queue.json/inside").appendingPathComponent("file"))
        let decision = try announce(["1", "--now", "1100"], in: folder)
        #expect(decision.outcome == .announced)
        #expect(decision.reason == "soundset/queue.json was in the way (not a regular file): moved to soundset/aside, so the queue was started again")

        let clip = folder.url.appendingPathComponent("G/Library/Sounds/ss\(set.id)-1.caf")
        try FileManager.default.removeItem(at: clip)
        try Data("mine".utf8).write(to: try folder.folder("G/Library/Sounds/ss\(set.id)-1.caf/inside").appendingPathComponent("file"))
        let played = try announce(["1", "--now", "1200"], in: folder)
        #expect(played.outcome == .announced)
        #expect(played.reason == "Library/Sounds/ss\(set.id)-1.caf was in the way (not a regular file): moved to soundset/aside")
        #expect(try Data(contentsOf: clip) == Data(contentsOf: folder.url.appendingPathComponent("Output/Sounds/1.caf")))
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("G/soundset/aside").path).sorted()
        #expect(aside.count == 2 && aside[0].hasPrefix("queue.json.") && aside[1].hasPrefix("ss\(set.id)-1.caf."))
        #expect(try announce(["1", "--now", "1300"], in: folder).reason == nil)
    }

    /// The clock set back 50 s made pushes fall back busy for up to a minute.
    @Test func theClockSetBackStartsTheQueueAgain() throws {
        let (folder, _) = try shop()
        defer { folder.remove() }
        #expect(try announce(["1", "--id", "a", "--now", "1000"], in: folder).outcome == .announced)
        let back = try announce(["2", "--now", "950"], in: folder)
        #expect(back.outcome == .announced)
        #expect(back.start == 950)
        #expect(back.reason == "soundset/queue.json holds times after now (was the device's time changed?), so the queue was started again")
        // The transactions are kept: a retry is still a duplicate.
        #expect(try announce(["1", "--id", "a", "--now", "951"], in: folder).outcome == .duplicate)
        // A moment back (two pushes decided out of order) is not a clock set back.
        #expect(try announce(["3", "--now", "948"], in: folder).reason?.contains("queue.json") == false)
    }

    /// With soundset/sets a link, the announcer deleted every *.json in the folder it points to; with
    /// Library/Sounds a link, it wrote clips there and deleted files named like its own.
    @Test func linksInPlaceOfItsFoldersAreRefused() throws {
        let (folder, _) = try shop()
        defer { folder.remove() }
        let elsewhere = try folder.folder("elsewhere")
        let precious = ["notes.json", "soundset-abc.caf", "ss0123456789-1.caf"]
        for name in precious { try Data("mine".utf8).write(to: elsewhere.appendingPathComponent(name)) }
        _ = try folder.folder("G/soundset")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("G/soundset/sets").path, withDestinationPath: elsewhere.path)
        let sets = try announce(["1", "--now", "1000"], in: folder)
        #expect(sets.outcome == .fallback)
        #expect(sets.reason == "the queue cannot be used: soundset/sets is a symbolic link: soundset writes only in real folders (replace the link with a folder)")

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("G"))
        _ = try folder.folder("G/Library")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("G/Library/Sounds").path, withDestinationPath: elsewhere.path)
        let sounds = try announce(["1", "--now", "1000"], in: folder)
        #expect(sounds.outcome == .fallback)
        #expect(sounds.reason == "the queue cannot be used: Library/Sounds is a symbolic link: soundset writes only in real folders (replace the link with a folder)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).sorted() == precious.sorted())
        for name in precious { #expect(try Data(contentsOf: elsewhere.appendingPathComponent(name)) == Data("mine".utf8)) }
    }

    /// tx-é composed and decomposed were one transaction; ids are their bytes as sent.
    @Test func idsAreComparedByTheirBytes() throws {
        let (folder, _) = try shop()
        defer { folder.remove() }
        #expect(try announce(["1", "--id", "tx-\u{E9}", "--now", "1000"], in: folder).outcome == .announced)
        let decomposed = try announce(["1", "--id", "tx-e\u{301}", "--now", "1001"], in: folder)
        #expect(decomposed.outcome == .announced)
        #expect(try announce(["1", "--id", "tx-\u{E9}", "--now", "1002"], in: folder).outcome == .duplicate)
        // Bytes that are not UTF-8 would all read as U+FFFD, one id: refused.
        let invalid = try SoundsetExecutable.run(
            ["announce", "1", "--group", "G", "--now", "1003"], in: folder.url,
            prefix: ["/bin/sh", "-c", #"exec "$0" "$@" --id "$(printf 'tx-\377')""#])
        #expect(invalid.status == 64)
        #expect(
            invalid.stderr
                == "soundset: --id is not valid UTF-8: give the transaction id as the server sends it (JSON text is UTF-8), or use --payload FILE\nrun 'soundset announce --help' for usage\n"
        )
    }
}
