import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `soundset announce --payload`: captured pushes replayed as the extension reads them, and what a
/// phone that has not been unlocked since it started does to the group's files.
@Suite struct AnnouncePayloadTests {
    func decision(_ result: RunResult) throws -> AnnouncementDecision {
        try JSONDecoder().decode(AnnouncementDecision.self, from: Data(result.stdout.utf8))
    }

    @Test func replaysAPushFromAFileOrStandardInput() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let push = #"{"aps": {"alert": {"title": "收款到账"}, "mutable-content": 1}, "amount": "12.5", "transactionId": "tx-9"}"#
        try Data(push.utf8).write(to: folder.url.appendingPathComponent("push.json"))
        let first = try SoundsetExecutable.run(["announce", "--payload", "push.json", "--group", "G", "--now", "1000", "--format", "json"], in: folder.url)
        #expect(first.status == 0, "\(first.stderr)")
        let made = try decision(first)
        #expect(made.id == "tx-9")
        #expect(made.outcome == .announced)
        #expect(made.clips == ["received", "ten", "2", "point", "5", "yuan"])
        // The same push again, from standard input: a retry.
        let stdin = ["/bin/sh", "-c", "exec \"$0\" \"$@\" < push.json"]
        let again = try SoundsetExecutable.run(["announce", "--payload", "-", "--group", "G", "--now", "1001"], in: folder.url, prefix: stdin)
        #expect(again.stdout == "duplicate tx-9: plays nothing, from 1001.000 to 1001.000 (wait 0.000 s)\nreason: transaction tx-9 was announced 1.0 s ago\n")

        // JSON true is an NSNumber that bridges to 1: refused, not announced as 0.01.
        try Data(#"{"aps": {}, "amountMinor": true, "transactionId": "tx-10"}"#.utf8).write(to: folder.url.appendingPathComponent("bool.json"))
        let boolean = try decision(
            try SoundsetExecutable.run(["announce", "--payload", "bool.json", "--group", "G", "--now", "1010", "--format", "json"], in: folder.url))
        #expect(boolean.outcome == .fallback)
        #expect(boolean.reason == "the push's amountMinor is true or false: send a whole number of minor units from 0 to 99999999999999")
        try Data(#"{"aps": {}, "amountMinor": 12345.0}"#.utf8).write(to: folder.url.appendingPathComponent("whole.json"))
        let whole = try decision(
            try SoundsetExecutable.run(["announce", "--payload", "whole.json", "--group", "G", "--now", "1020", "--format", "json"], in: folder.url))
        #expect(whole.clips == ["received", "1", "hundred", "2", "ten", "3", "point", "4", "5", "yuan"])
    }

    @Test(arguments: [
        (["announce", "1", "--payload", "p.json", "--group", "G"], "soundset: give an AMOUNT or --payload FILE, not both"),
        (["announce", "--payload", "p.json", "--id", "x", "--group", "G"], "soundset: --payload carries the transaction id (transactionId): drop --id"),
        (["announce", "--group", "G"], "soundset: announce needs an AMOUNT, e.g. 123.45, or --payload FILE"),
    ])
    func payloadUsageExits64(arguments: [String], message: String) throws {
        let result = try SoundsetExecutable.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message + "\nrun 'soundset announce --help' for usage\n")
    }

    @Test func aPayloadThatIsNotAPushExits1() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try Data("amount=1".utf8).write(to: folder.url.appendingPathComponent("bad.json"))
        let missing = try SoundsetExecutable.run(["announce", "--payload", "missing.json", "--group", "G"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "soundset: missing.json: is missing\n")
        let bad = try SoundsetExecutable.run(["announce", "--payload", "bad.json", "--group", "G"], in: folder.url)
        #expect(bad.status == 1)
        #expect(bad.stderr == "soundset: bad.json: is not JSON\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("G").path))
    }

    /// Files the process may not open (another user's, standing in for data protection before the
    /// first unlock): the push falls back saying so, nothing is changed, and once they can be opened
    /// the next push is announced.
    @Test(.enabled(if: Unprivileged.available && geteuid() == 0)) func filesThatCannotBeOpenedFallBackAndDamageNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        #expect(try SoundsetExecutable.run(["announce", "1", "--group", "G", "--id", "a", "--now", "1000"], in: folder.url).status == 0)
        try Unprivileged.openUp(folder.url)
        let state = folder.url.appendingPathComponent("G/soundset")
        let files =
            ["queue.lock", "queue.json"].map { state.appendingPathComponent($0).path }
            + (try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("sets").path)).map {
                state.appendingPathComponent("sets/\($0)").path
            }
        for path in files { chmod(path, 0o600) }
        let queue = try Data(contentsOf: state.appendingPathComponent("queue.json"))
        let sounds = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("G/Library/Sounds").path).sorted()

        let locked = try decision(
            try SoundsetExecutable.run(
                ["announce", "2", "--group", "G", "--id", "b", "--now", "1010", "--format", "json"], in: folder.url, prefix: Unprivileged.prefix!))
        #expect(locked.outcome == .fallback)
        #expect(locked.systemSound)
        #expect(
            locked.reason
                == "the queue cannot be used: protected data is not available (the phone has not been unlocked since it started): soundset/queue.lock cannot be opened (permission denied)"
        )
        #expect(try Data(contentsOf: state.appendingPathComponent("queue.json")) == queue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("G/Library/Sounds").path).sorted() == sounds)

        for path in files { chmod(path, 0o666) }
        let unlocked = try decision(
            try SoundsetExecutable.run(
                ["announce", "2", "--group", "G", "--id", "b", "--now", "1020", "--format", "json"], in: folder.url, prefix: Unprivileged.prefix!))
        #expect(unlocked.outcome == .announced)
        #expect(unlocked.reason == nil)
        let retry = try decision(
            try SoundsetExecutable.run(
                ["announce", "1", "--group", "G", "--id", "a", "--now", "1030", "--format", "json"], in: folder.url, prefix: Unprivileged.prefix!))
        #expect(retry.outcome == .duplicate)
    }
}
