import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct AnnounceCommandTests {
    func decision(_ result: RunResult) throws -> AnnouncementDecision {
        try JSONDecoder().decode(AnnouncementDecision.self, from: Data(result.stdout.utf8))
    }

    @Test func announcesWhatTheExtensionWouldWithEveryDocumentedKey() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let result = try SoundsetExecutable.run(["announce", "12.5", "--group", "G", "--id", "tx-9", "--now", "1000", "--format", "json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(Set(object.keys) == ["id", "key", "outcome", "delivery", "sound", "systemSound", "start", "end", "wait", "notifications", "clips", "reason"])
        #expect(object["reason"] is NSNull)
        let made = try decision(result)
        #expect(made.id == "tx-9")
        #expect(made.outcome == .announced)
        #expect(made.delivery == .composed)
        #expect(made.clips == ["received", "ten", "2", "point", "5", "yuan"])
        #expect(made.start == 1000)
        let frames = made.clips.map { manifest.clip(named: $0)!.frames }.reduce(0, +)
        // Printed to the millisecond.
        #expect(made.end == ((1000 + Double(frames) / 8000) * 1000).rounded() / 1000)
        // The set is installed in G/Library/Sounds and the composed file written there.
        let sounds = folder.url.appendingPathComponent("G/Library/Sounds")
        let composed = try SoundData(parsing: Data(contentsOf: sounds.appendingPathComponent(made.sound!)), name: "composed")
        #expect(composed.frames == frames)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("G/soundset/queue.json").path))
        #expect(!FileManager.default.fileExists(atPath: sounds.appendingPathComponent("queue.json").path))

        // The same transaction again is a duplicate; text output says so.
        let again = try SoundsetExecutable.run(["announce", "12.5", "--group", "G", "--id", "tx-9", "--now", "1001"], in: folder.url)
        #expect(again.status == 0)
        #expect(again.stdout == "duplicate tx-9: plays nothing, from 1001.000 to 1001.000 (wait 0.000 s)\nreason: transaction tx-9 was announced 1.0 s ago\n")
        // A push with no transaction id: its line names none (the queue key is no id the server sent).
        let anonymous = try SoundsetExecutable.run(["announce", "3", "--group", "G", "--now", "2000"], in: folder.url)
        #expect(anonymous.status == 0)
        #expect(anonymous.stdout.hasPrefix("announced: composed soundset-"), "\(anonymous.stdout)")
    }

    @Test func chainsAndFallsBackWithExitZero() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let chain = try decision(
            try SoundsetExecutable.run(
                ["announce", "3", "--group", "G", "--now", "50", "--delivery", "chain", "--prefix", "none", "--format", "json"], in: folder.url))
        #expect(chain.delivery == .chain)
        #expect(chain.clips == ["3", "yuan"])
        #expect(chain.notifications.count == 2)
        #expect(chain.notifications[0].at == 50)
        #expect(chain.notifications[0].identifier.hasSuffix(".0"))
        #expect(chain.sound == nil)

        let bad = try SoundsetExecutable.run(["announce", "1e5", "--group", "G", "--now", "60"], in: folder.url)
        #expect(bad.status == 0)
        // No transaction id: none is printed (#30; the queue key was printed in its place).
        #expect(bad.stdout.hasPrefix("fallback: plays ss"))
        #expect(bad.stdout.hasSuffix("reason: the amount '1e5' is refused: the amount has an exponent: write 100000\n"))

        let noSet = try SoundsetExecutable.run(["announce", "1", "--group", "G", "--output", "Nowhere", "--now", "70", "--format", "json"], in: folder.url)
        #expect(noSet.status == 0)
        let none = try decision(noSet)
        #expect(none.outcome == .fallback)
        #expect(none.systemSound)
        #expect(none.reason?.hasPrefix("the sound set cannot be used: ") == true)
        #expect(
            none.reason?.hasSuffix("manifest.json: cannot read the manifest: the file is missing or unreadable (run soundset build --output Nowhere first)")
                == true)
    }

    @Test(arguments: [
        (["announce", "1"], "soundset: announce needs --group DIR (the folder that stands in for the App Group)"),
        (["announce", "1", "--group", "G", "--now", "soon"], "soundset: --now needs a time in seconds from 0 to 9999999999, e.g. 1000.5"),
        (["announce", "1", "--group", "G", "--now", "nan"], "soundset: --now needs a time in seconds from 0 to 9999999999, e.g. 1000.5"),
        (["announce", "1", "--group", "G", "--now", "0x10"], "soundset: --now needs a time in seconds from 0 to 9999999999, e.g. 1000.5"),
        (["announce", "1", "--group", "G", "--now", "1e3"], "soundset: --now needs a time in seconds from 0 to 9999999999, e.g. 1000.5"),
        (["announce", "1", "--group", "G", "--now", "10000000000"], "soundset: --now needs a time in seconds from 0 to 9999999999, e.g. 1000.5"),
        (["announce", "1", "--group", "G", "--delivery", "push"], "soundset: --delivery must be composed, chain or auto"),
        (
            ["announce", "1", "--group", "G", "--prefix", "../x"],
            "soundset: --prefix '../x' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed"
        ),
    ])
    func badUsageExits64(arguments: [String], message: String) throws {
        let result = try SoundsetExecutable.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message + "\nrun 'soundset \(arguments[0]) --help' for usage\n")
    }

    @Test func helpDocumentsEveryOptionAndKey() throws {
        let help = try SoundsetExecutable.run(["announce", "--help"])
        #expect(help.status == 0)
        for text in [
            "--group DIR", "--output DIR", "--id ID", "--payload FILE", "--now SECONDS", "--delivery", "composed|chain|auto", "--prefix NAME|none",
            "--format text|json",
            "notifications [{identifier, sound, at}]", "exit codes: 0 a decision was printed",
        ] {
            #expect(help.stdout.contains(text), "\(text)")
        }
    }

    /// Ten pushes at once, each its own process, on one group folder: the file lock orders them.
    @Test func tenProcessesAtOnceQueueWithoutOverlap() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        var runs: [(Process, URL)] = []
        for index in 0..<10 {
            let process = Process()
            process.executableURL = SoundsetExecutable.url
            process.arguments = ["announce", "\(index + 1)", "--group", "G", "--now", "5000", "--format", "json"]
            process.currentDirectoryURL = folder.url
            let out = folder.url.appendingPathComponent("out-\(index)")
            #expect(FileManager.default.createFile(atPath: out.path, contents: nil))
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = FileHandle.nullDevice
            runs.append((process, out))
        }
        for (process, _) in runs { try process.run() }
        for (process, _) in runs { process.waitUntilExit() }
        let decisions = try runs.map { process, out in
            #expect(process.terminationStatus == 0)
            return try JSONDecoder().decode(AnnouncementDecision.self, from: Data(contentsOf: out))
        }
        #expect(decisions.allSatisfy { $0.delivery == .composed })
        let ordered = decisions.sorted { $0.start < $1.start }
        // The first plays whole; the nine waiting behind it say the amount alone (a rush).
        #expect(ordered[0].outcome == .announced && ordered.dropFirst().allSatisfy { $0.outcome == .shortened })
        #expect(ordered[0].start == 5000)
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
            #expect(later.start >= earlier.end + 0.3 - 1e-9, "\(earlier.start)-\(earlier.end) then \(later.start)")
        }
        #expect(Set(decisions.compactMap(\.sound)).count == 10)
        #expect(Set(decisions.map(\.id)).count == 10)
        let state = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("G/soundset/queue.json"))) as! [String: Any]
        #expect((state["announcements"] as! [Any]).count == 10)
        #expect(state["schemaVersion"] as? Int == 3)
        let composed = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("G/Library/Sounds").path)
            .filter { $0.hasPrefix("soundset-") }
        #expect(composed.count == 10)
    }
}
