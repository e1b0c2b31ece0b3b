import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// `soundset replay`: a file of pushes, word lines and JSON payloads, run through the announcer in
/// order on the file's clock. The shop's words last 0.4 s, 收款到账 1.5 s; 0.3 s between announcements.
@Suite struct ReplayCommandTests {
    static let pushes = """
        # a burst at opening time
        1000 1 tx-1
        1000 2.22
        1000.5 1 tx-1
        {"aps": {"alert": {"title": "收款到账", "body": "¥1234.56"}, "mutable-content": 1}, "amount": "1234.56", "transactionId": "tx-2", "at": 1001}

        {"aps": {"mutable-content": 1}, "amountMinor": 2300, "at": 1002.25}
        {"aps": {"mutable-content": 1}, "amount": 12.5, "transactionId": "tx-4", "at": 1003}
        """

    static func shop(_ folder: TemporaryDirectory) throws {
        try FakeSets.write(
            in: folder.url.appendingPathComponent("Output"), rate: 8000, prefix: "received", gapMs: 0, announcement: AnnouncementSettings(join: .file),
            frames: { $0 == "received" ? 12000 : 3200 })
        try Data(pushes.utf8).write(to: folder.url.appendingPathComponent("pushes.txt"))
    }

    @Test func oneAlignedLinePerDecisionThenTheTally() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let result = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 8)
        #expect(lines[0] == "    time  amount   id    outcome    delivery     start   wait  reason")
        #expect(lines[1] == "1000.000  1        tx-1  announced  composed  1000.000  0.000")
        // Pushes waiting behind another say the amount alone (a rush).
        #expect(lines[2] == "1000.000  2.22     -     shortened  composed  1002.600  2.600  the amount alone, with no prefix, suffix or lead-in: a rush (it waits behind another announcement)")
        #expect(lines[3] == "1000.500  1        tx-1  duplicate  none      1000.500  0.000  transaction tx-1 was announced 0.5 s ago")
        #expect(
            lines[4]
                == "1001.000  1234.56  tx-2  shortened  composed  1004.900  3.900  without its prefix and suffix to fit the 5 s banner (whole, it lasts 5.90 s)"
        )
        #expect(lines[5] == "1002.250  23.00    -     shortened  composed  1009.600  7.350  the amount alone, with no prefix, suffix or lead-in: a rush (it waits behind another announcement)")
        #expect(
            lines[6]
                == "1003.000  -        tx-4  fallback   none      1011.500  8.500  the push's amount is a number, not a string: send \"amount\": \"123.45\"")
        #expect(lines[7] == "6 pushes: 1 announced, 3 shortened, 1 fallback, 1 duplicate; longest wait 8.500 s (line 8); 0 announcements overlapped")
        // Every announcement and the fallback clip were queued one after another.
        let queue = try String(contentsOf: folder.url.appendingPathComponent("G/soundset/queue.json"), encoding: .utf8)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(queue.utf8)) as? [String: Any])
        #expect((state["announcements"] as? [Any])?.count == 5)
        // tx-1 and tx-2 are remembered, as hashes only: the state keeps no id as sent.
        #expect((state["transactions"] as? String)?.split(separator: ",").count == 2)
        #expect(!queue.contains("tx-"))
    }

    /// A file saved on Windows (CRLF line ends) replays as the same file with LF.
    @Test func crlfLineEndsReadAsLineEnds() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        try Data(Self.pushes.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: folder.url.appendingPathComponent("crlf.txt"))
        let lf = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G1"], in: folder.url)
        let crlf = try SoundsetExecutable.run(["replay", "crlf.txt", "--group", "G2"], in: folder.url)
        #expect(crlf.status == 0, "\(crlf.stderr)")
        #expect(crlf.stdout == lf.stdout)
        #expect(crlf.stdout.contains("6 pushes: 1 announced, 3 shortened, 1 fallback, 1 duplicate"))
    }

    /// A replay runs in an empty group folder: an earlier replay's queue would turn its pushes into
    /// duplicates and waits. A file in the folder's place is no group folder either.
    @Test func aUsedGroupFolderOrAFileIsRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let first = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G"], in: folder.url)
        #expect(first.status == 0)
        let again = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G"], in: folder.url)
        #expect(again.status == 1)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr == "soundset: G is not empty (an earlier replay's queue would carry over): give --group a new folder, or remove it first\n")
        for command in [["replay", "pushes.txt"], ["announce", "1"]] {
            let file = try SoundsetExecutable.run(command + ["--group", "pushes.txt"], in: folder.url)
            #expect(file.status == 1, "\(command)")
            #expect(file.stderr == "soundset: pushes.txt is not a folder: give --group a folder (a new one is made)\n", "\(command)")
        }
    }

    /// Bytes that are not UTF-8 would be read as U+FFFD, making two ids one: the line is named and
    /// nothing is run.
    @Test func aLineThatIsNotUTF8IsNamed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        try Data("1000 1.00 a".utf8 + [0xFF, 0x0A] + "1001 2.00 a".utf8 + [0xFE, 0x0A]).write(to: folder.url.appendingPathComponent("bad.txt"))
        let result = try SoundsetExecutable.run(["replay", "bad.txt", "--group", "G"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr == """
                error: bad.txt:1: is not UTF-8 text: save the file as UTF-8 (a push's JSON is UTF-8)
                error: bad.txt:2: is not UTF-8 text: save the file as UTF-8 (a push's JSON is UTF-8)
                soundset: 2 lines of bad.txt cannot be replayed; nothing was run

                """)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("G").path))
    }

    /// A line is at most what a push's JSON may be (64 KiB, as `announce --payload` reads one): a
    /// longer one is named by its line, with its length, and nothing is run; a line of exactly that
    /// length is a push. The file is read a line at a time: a long line is never held whole.
    @Test func aLineLongerThanAPushsJSONIsNamed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let cap = PushPayload.maxJSONBytes
        /// A push's JSON of exactly `bytes` bytes, padded with spaces inside it.
        func payload(_ bytes: Int, at: Int) -> String {
            let head = #"{"aps": {"mutable-content": 1}, "amount": "1.00", "at": \#(at)"#
            return head + String(repeating: " ", count: bytes - head.utf8.count - 1) + "}"
        }
        let fits = "1000 1 tx-1\n" + payload(cap, at: 1001) + "\n1002 2.00\n"
        try Data(fits.utf8).write(to: folder.url.appendingPathComponent("fits.txt"))
        let replayed = try SoundsetExecutable.run(["replay", "fits.txt", "--group", "G1"], in: folder.url)
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("\n3 pushes: 1 announced, 2 shortened, 0 fallback, 0 duplicate; "), "\(replayed.stdout)")

        // One byte more, and a words line as long, with CRLF line ends: each is named.
        let words = "1003 3.00 " + String(repeating: "x", count: cap)
        let over = "1000 1 tx-1\r\n" + payload(cap + 1, at: 1001) + "\r\n1002 2.00\r\n" + words + "\r\n"
        try Data(over.utf8).write(to: folder.url.appendingPathComponent("over.txt"))
        let refused = try SoundsetExecutable.run(["replay", "over.txt", "--group", "G2"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr == """
                error: over.txt:2: is \(cap + 2) bytes, more than the \(cap) a line may have (a push's JSON is at most \(cap) bytes): write one push a line
                error: over.txt:4: is \(words.utf8.count + 1) bytes, more than the \(cap) a line may have (a push's JSON is at most \(cap) bytes): write one push a line
                soundset: 2 lines of over.txt cannot be replayed; nothing was run

                """)
        #expect(refused.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("G2").path))
    }

    /// A 40 MB line (a file cut wrong, a log's dump) is read in bounded memory: named, not held
    /// (a whole-file read held it several times over, 1.2 GB for 50 MB).
    @Test func aHugeLineIsNotHeldInMemory() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let file = folder.url.appendingPathComponent("huge.txt")
        try Data("1000 1 tx-1\n{\"at\": 1001, \"id\": \"".utf8).write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<40 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data("\"}\n".utf8))
        try handle.close()
        let run = try SoundsetExecutable.runMeasuringMemory([
            "replay", file.path, "--group", folder.url.appendingPathComponent("G").path, "--output", folder.url.appendingPathComponent("Output").path,
        ])
        #expect(run.status == 1)
        #expect(run.maxRSSKilobytes < 50_000, "peak \(run.maxRSSKilobytes) KB")
        let result = try SoundsetExecutable.run(["replay", "huge.txt", "--group", "G"], in: folder.url)
        #expect(
            result.stderr.hasPrefix("error: huge.txt:2: is \(40 << 20 + 22) bytes, more than the \(PushPayload.maxJSONBytes) a line may have"),
            "\(result.stderr)")
    }

    @Test func jsonLinesHaveMillisecondsAndNullIDs() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let result = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G", "--format", "jsonl"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        // The keys a reader looks for come first.
        #expect(
            lines[0].hasPrefix(#"{"line":2,"at":1000,"amount":"1","id":"tx-1","outcome":"announced","delivery":"composed","start":1000,"end":1002.3,"wait":0,"#)
        )
        #expect(objects[1]["id"] is NSNull)
        #expect(objects[4]["id"] is NSNull)
        #expect(objects[4]["amount"] as? String == "23.00")
        #expect(objects[4]["wait"] as? Double == 7.35)
        // A push whose amount does not read has none in JSON (the table's "-" is the table's).
        #expect(objects[5]["amount"] is NSNull)
        // No time with more than three decimals, anywhere.
        #expect(result.stdout.range(of: #"[0-9]\.[0-9]{4,}"#, options: .regularExpression) == nil)
        let tally = try #require(objects[6]["tally"] as? [String: Any])
        #expect(tally["pushes"] as? Int == 6)
        #expect(tally["announced"] as? Int == 1)
        #expect(tally["shortened"] as? Int == 3)
        #expect(tally["fallback"] as? Int == 1)
        #expect(tally["duplicate"] as? Int == 1)
        #expect(tally["longestWait"] as? Double == 8.5)
        #expect(tally["longestWaitLine"] as? Int == 8)
        #expect(tally["overlaps"] as? Int == 0)
    }

    /// Every line that cannot be replayed is named, and nothing is run.
    @Test func badLinesAreNamedAndNothingRuns() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Self.shop(folder)
        let bad = """
            1000 1
            999 2
            1001
            0x10 5
            {"amount": "1", "at": true}
            {"amount": "1"
            [1, 2]
            """
        try Data(bad.utf8).write(to: folder.url.appendingPathComponent("bad.txt"))
        let result = try SoundsetExecutable.run(["replay", "bad.txt", "--group", "G"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                error: bad.txt:2: 999.000 is before the push above it (1000.000): list the pushes in the order they arrive
                error: bad.txt:3: '1001' is not SECONDS AMOUNT [ID] (e.g. 1000.5 123.45 tx-1) or a JSON payload
                error: bad.txt:4: '0x10' is not a time in seconds from 0 to 9999999999, e.g. 1000.5
                error: bad.txt:5: the payload needs "at": the push's arrival in seconds from 0 to 9999999999, e.g. "at": 1000.5
                error: bad.txt:6: the payload is not JSON
                error: bad.txt:7: '[1,' is not a time in seconds from 0 to 9999999999, e.g. 1000.5
                soundset: 6 lines of bad.txt cannot be replayed; nothing was run

                """)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("G").path))

        let missing = try SoundsetExecutable.run(["replay", "nowhere.txt", "--group", "G"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "soundset: nowhere.txt: is missing\n")
        let usage = try SoundsetExecutable.run(["replay", "bad.txt"], in: folder.url)
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("soundset: replay needs --group DIR"))
        let noSet = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G", "--output", "Elsewhere"], in: folder.url)
        #expect(noSet.status == 1)
        #expect(noSet.stderr.hasSuffix("(run soundset build --output Elsewhere first)\n"))
    }
}
