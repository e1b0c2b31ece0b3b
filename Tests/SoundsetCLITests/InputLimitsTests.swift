import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

/// What the runtime refuses to read, through the binary: a push whose text repeats a key or whose
/// amount fields disagree falls back as every unreadable amount does (exit 0, the reason printed),
/// and a manifest over the runtime's cap is refused by check and announce alike, by its size.
@Suite struct InputLimitsTests {
    /// `soundset announce --payload -`, the push on standard input.
    func announce(_ push: String, in folder: TemporaryDirectory, now: Int) throws -> RunResult {
        try Data(push.utf8).write(to: folder.url.appendingPathComponent("push.json"))
        let stdin = ["/bin/sh", "-c", "exec \"$0\" \"$@\" < push.json"]
        return try SoundsetExecutable.run(["announce", "--payload", "-", "--group", "G", "--now", "\(now)"], in: folder.url, prefix: stdin)
    }

    @Test func aPushThatRepeatsAKeyOrDisagreesFallsBack() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)

        let repeated = try announce(#"{"aps": {}, "amount": "1.00", "transactionId": "tx-1", "amount": "9999.00"}"#, in: folder, now: 1000)
        #expect(repeated.status == 0, "\(repeated.stderr)")
        let lines = repeated.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("fallback tx-1: ") == true, "\(repeated.stdout)")
        #expect(lines.last == #"reason: the push repeats the key "amount", which JSON readers take differently: send each key once"#)

        let disagreeing = try announce(#"{"aps": {}, "amount": "12.34", "amountMinor": 1235, "transactionId": "tx-2"}"#, in: folder, now: 1100)
        #expect(disagreeing.status == 0, "\(disagreeing.stderr)")
        #expect(disagreeing.stdout.hasPrefix("fallback tx-2: "), "\(disagreeing.stdout)")
        #expect(
            disagreeing.stdout.hasSuffix(
                "\nreason: the push's amount and amountMinor are two different amounts: send one of them, or both for the same amount\n"))

        // The same amount twice over is announced.
        let agreeing = try announce(#"{"aps": {}, "amount": "12.34", "amountMinor": 1234, "transactionId": "tx-3"}"#, in: folder, now: 1200)
        #expect(agreeing.stdout.hasPrefix("announced tx-3: "), "\(agreeing.stdout)")
    }

    /// `soundset replay` reads its JSON lines as text too: the same fallbacks, line by line.
    @Test func replayFallsBackOnARepeatedKeyOrDisagreeingAmounts() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let pushes = """
            {"aps": {}, "amount": "1.00", "transactionId": "tx-1", "amount": "9999.00", "at": 1000}
            {"aps": {}, "amount": "12.34", "amountMinor": 1235, "at": 1010}
            {"aps": {}, "amount": "12.34", "amountMinor": 1234, "at": 1020}
            """
        try Data(pushes.utf8).write(to: folder.url.appendingPathComponent("pushes.txt"))
        let result = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.stdout)")
        guard lines.count == 5 else { return }
        #expect(lines[1].contains(" tx-1 ") && lines[1].contains(" fallback "), "\(lines[1])")
        #expect(lines[1].hasSuffix(#"  the push repeats the key "amount", which JSON readers take differently: send each key once"#))
        #expect(lines[2].contains(" fallback "), "\(lines[2])")
        #expect(lines[2].hasSuffix("  the push's amount and amountMinor are two different amounts: send one of them, or both for the same amount"))
        #expect(lines[3].contains(" 12.34 ") && lines[3].contains(" announced "), "\(lines[3])")
    }

    /// A built set's manifest one byte over 256 KiB (padded with spaces, so it would decode): check
    /// and announce name it, its size, the cap and the fix, and the fix works: the build replaces it.
    @Test func aManifestOverTheCapIsRefusedByCheckAndAnnounceAndReplacedByTheBuild() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let built = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        let manifest = folder.url.appendingPathComponent("Output/manifest.json")
        let original = try Data(contentsOf: manifest)
        let checkedBefore = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(!checkedBefore.stdout.contains("[integrity]"))
        var data = original
        data.append(Data(repeating: UInt8(ascii: " "), count: 262_145 - data.count))
        try data.write(to: manifest)

        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        #expect(
            check.stdout.contains(
                "[integrity] Output/manifest.json: is 262145 bytes, more than the 262144 an app's extension can afford to read: split the set into"
                    + " sets of fewer clips (about 450 fit; a set of fewer whose manifest grew is written small again by soundset build"),
            "\(check.stdout)")

        let announce = try SoundsetExecutable.run(["announce", "1", "--group", "G", "--now", "1000"], in: folder.url)
        #expect(announce.status == 0)
        #expect(
            announce.stdout.hasSuffix(
                "manifest.json: the manifest is 262145 bytes, more than the 262144 an app's extension can afford to read: split the set into"
                    + " sets of fewer clips (about 450 fit; soundset check fails a larger one)\n"), "\(announce.stdout)")

        let rebuilt = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try Data(contentsOf: manifest) == original)
        // The check is back to what it said of the set as built (the small pack lacks words: it says so).
        #expect(try SoundsetExecutable.run(["check"], in: folder.url).stdout == checkedBefore.stdout)
    }
}
