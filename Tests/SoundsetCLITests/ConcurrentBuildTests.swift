import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// Two builds at once, and readers during builds: what `make -j` or two terminals do.
@Suite struct ConcurrentBuildTests {
    /// Two assets folders that build different sets (the second one 6 dB quieter), and each set as
    /// built alone.
    func twoInputs(in folder: URL) throws -> (a: [String: Data], b: [String: Data]) {
        for (name, config) in [("A", "{}"), ("B", #"{"loudness": {"target": -22}}"#)] {
            let assets = try TemporaryDirectory.folder(folder, name)
            try AssetPacks.small(in: assets)
            try Data(config.utf8).write(to: assets.appendingPathComponent("soundset.json"))
            let built = try SoundsetExecutable.run(["build", "--quiet", "--assets", name, "--output", "only-\(name)/Output"], in: folder)
            #expect(built.status == 0, "\(built.stderr)")
        }
        return (setSnapshot(of: folder.appendingPathComponent("only-A/Output")), setSnapshot(of: folder.appendingPathComponent("only-B/Output")))
    }

    @Test func twoBuildsOfOneOutputAtOnceLeaveOneWholeSet() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (a, b) = try twoInputs(in: folder.url)
        #expect(a != b)
        var waited = 0
        for round in 0..<20 {
            let first = try RunningSoundset(["build", "--quiet", "--assets", "A"], in: folder.url)
            let second = try RunningSoundset(["build", "--quiet", "--assets", "B"], in: folder.url)
            let results = [first.wait(), second.wait()]
            for result in results { #expect(result.status == 0, "round \(round): \(result.stderr)") }
            waited += results.filter { $0.stderr.contains("soundset: waiting for another soundset (pid ") }.count
            let state = setSnapshot(of: folder.url.appendingPathComponent("Output"))
            #expect(state == a || state == b, "round \(round): Output is neither set whole")
            // The report beside the set is the set's: written under the same lock, right after the swap.
            let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
            let report = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
            let id = SoundSet(manifest: manifest, folder: folder.url.appendingPathComponent("Output")).id
            #expect(report.contains("<meta name=\"soundset-set\" content=\"\(id)\"/>"), "round \(round)")
        }
        #expect(waited > 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".soundset-") && $0 != ".soundset-cache" }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func outputAndOutputEnAtOnceAreEachWhole() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (a, b) = try twoInputs(in: folder.url)
        for round in 0..<5 {
            try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
            try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output-en"))
            let first = try RunningSoundset(["build", "--quiet", "--no-cache", "--assets", "A", "--output", "Output"], in: folder.url)
            let second = try RunningSoundset(["build", "--quiet", "--no-cache", "--assets", "B", "--output", "Output-en"], in: folder.url)
            #expect(first.wait().status == 0)
            #expect(second.wait().status == 0)
            #expect(setSnapshot(of: folder.url.appendingPathComponent("Output")) == a, "round \(round)")
            #expect(setSnapshot(of: folder.url.appendingPathComponent("Output-en")) == b, "round \(round)")
        }
    }

    /// A check during builds reports what a quiet check reports, never a file half of one set and
    /// half of the other, nor a report of another set beside it; and every build succeeds.
    @Test func checkDuringBuildsSeesOneSet() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let first = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(first.status == 0)
        let before = snapshot(of: folder.url.appendingPathComponent("Output"))
        let quiet = try SoundsetExecutable.run(["check"], in: folder.url)
        // The set swapped in again and again: every build makes it anew, and its report.
        final class Builds: @unchecked Sendable {
            // @unchecked: `results` is guarded by `lock`.
            let lock = NSLock()
            var results: [RunResult] = []
            var running = false
        }
        let builds = Builds()
        let builder = Thread {
            for _ in 0..<12 {
                builds.lock.withLock { builds.running = true }
                let result = try? SoundsetExecutable.run(["build", "--quiet", "--no-cache"], in: folder.url)
                builds.lock.withLock {
                    builds.running = false
                    if let result { builds.results.append(result) }
                }
            }
        }
        builder.start()
        var overlapped = 0
        for run in 0..<16 {
            let busy = builds.lock.withLock { builds.running }
            let during = try SoundsetExecutable.run(["check"], in: folder.url)
            if busy { overlapped += 1 }
            #expect(during.stdout == quiet.stdout, "check \(run) during builds:\n\(during.stdout)")
        }
        while builder.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
        let results = builds.lock.withLock { builds.results }
        #expect(results.count == 12)
        // Each one built the set and said what the first said of it (its warnings), nothing else.
        for (index, result) in results.enumerated() { #expect(result.status == 0 && result.stderr == first.stderr, "build \(index): \(result.stderr)") }
        #expect(overlapped > 0, "no check ran while a build did")
        // Each build made the same set again.
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }

    @Test func aSecondBuildWaitsOrWithNoWaitStops() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        // This test holds the build lock, as a running build would.
        let lock = try LockFile(folder.url.appendingPathComponent(".soundset-cache/lock-Output"))
        try lock.lock()
        lock.note("4242")
        let refused = try SoundsetExecutable.run(["build", "--no-wait"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: Output: is being built by another soundset (pid 4242); wait for it, or run again without --no-wait to wait\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        let waiting = try RunningSoundset(["build"], in: folder.url)
        var said = false
        for _ in 0..<100 where !said {
            Thread.sleep(forTimeInterval: 0.05)
            said = waiting.stderrSoFar.contains("soundset: waiting for another soundset (pid 4242) to finish building Output…")
        }
        #expect(said)
        #expect(waiting.process.isRunning)
        lock.unlock()
        let done = waiting.wait()
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("Output is up to date"))
    }

    @Test func aKilledBuildLeavesNoLockBehind() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        let before = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(before.status == 0)
        let reference = snapshot(of: folder.url.appendingPathComponent("Output"))
        let building = try RunningSoundset(["build", "--quiet", "--no-cache"], in: folder.url)
        // Killed once it holds the lock (its pid is written there when it takes it).
        let lockFile = folder.url.appendingPathComponent(".soundset-cache/lock-Output")
        var holding = false
        for _ in 0..<400 where !holding {
            holding = (try? String(contentsOf: lockFile, encoding: .utf8)) == String(building.process.processIdentifier)
            if !holding { Thread.sleep(forTimeInterval: 0.005) }
        }
        #expect(holding)
        kill(building.process.processIdentifier, SIGKILL)
        _ = building.wait()
        let after = try SoundsetExecutable.run(["build", "--quiet", "--no-wait"], in: folder.url)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
    }
}
