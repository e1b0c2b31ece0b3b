import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The build's own folder, tried as someone set on breaking it would (issue 22): an old set that
/// cannot be removed, a second Ctrl-C in a watch, a take whose header does not say how long it is.
@Suite struct BuildFolderTrustTests {
    /// Runs `chattr` with `arguments`; whether it succeeded.
    static func chattr(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether this machine lets the tests make a folder immutable (root, a file system with the flag).
    static let immutableFolders: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"), let folder = try? TemporaryDirectory("soundset-chattr")
        else { return false }
        defer {
            _ = chattr(["-i", folder.url.path])
            folder.remove()
        }
        return chattr(["+i", folder.url.path])
    }()

    /// Waits up to `seconds` for `condition`.
    func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    /// The staging and retired folders beside Output.
    func leftovers(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".soundset-") && $0 != ".soundset-cache" }.sorted()
    }

    /// `Output/Sounds` made immutable (chattr +i): the build that changes the set swaps the new one
    /// in, but the old one, swapped out, cannot be removed: an error that names it and the fix, and
    /// exit 1; the next build says so again rather than pass it by; once it is removed, all is well.
    @Test(.enabled(if: immutableFolders)) func anOldSetThatCannotBeRemovedIsAnError() throws {
        let folder = try TemporaryDirectory()
        let sounds = folder.url.appendingPathComponent("Output/Sounds")
        var stuck: URL?
        defer {
            _ = Self.chattr(["-R", "-i", sounds.path])
            if let stuck { _ = Self.chattr(["-R", "-i", stuck.path]) }
            folder.remove()
        }
        try AssetPacks.small(in: try folder.folder("Assets"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        #expect(Self.chattr(["+i", sounds.path]))
        try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let changed = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        let left = try leftovers(in: folder.url)
        #expect(left.count == 1 && left[0].hasPrefix(".soundset-staging-Output-"), "\(left)")
        let name = left.first ?? ""
        stuck = folder.url.appendingPathComponent(name)
        #expect(changed.status == 1)
        // After the set's warnings (a small pack lacks clips), the error.
        #expect(
            changed.stderr.hasSuffix(
                "\nerror: \(name): holds the set Output held before this build (Output now holds the new one) and cannot be removed (permission denied): remove it by hand (chattr -R -i \(name) if it is immutable, then rm -rf \(name))\nsoundset: built Output, but 1 problem remains beside it\n"
            ),
            "\(changed.stderr)")
        // The new set is in place.
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        #expect(manifest.loudness.target == -20)
        // The next build does not pass it by.
        let next = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(next.status == 1)
        #expect(
            next.stderr
                == "error: \(name): is left from an earlier build of Output and cannot be removed (permission denied): remove it by hand (chattr -R -i \(name) if it is immutable, then rm -rf \(name)) and build again\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        // As the message says.
        #expect(Self.chattr(["-R", "-i", stuck!.path]))
        let after = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try leftovers(in: folder.url) == [])
    }

    /// After a watch's build has swapped a set in, a second Ctrl-C during a later build (here
    /// waiting for the build lock this test holds) says that Output was not changed: the flag is
    /// the build's, not the process's.
    @Test func aSecondCtrlCInAWatchSaysWhatThisBuildDid() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let watching = try RunningSoundset(["build", "--watch", "--poll-ms", "50"], in: folder.url)
        #expect(eventually(60) { watching.stdoutSoFar.contains("built 4 clips") })
        let manifestURL = folder.url.appendingPathComponent("Output/manifest.json")
        let first = try Data(contentsOf: manifestURL)
        // This test holds the build lock, as another build would: the watch's next build waits.
        let lock = try LockFile(folder.url.appendingPathComponent(".soundset-cache/lock-Output"))
        _ = try lock.lock()
        lock.note("4242")
        defer { lock.unlock() }
        let take = Takes.word(word: 0.35, rate: 16000, levelDb: -20, seed: 99)
        try WAVFile.write(take.samples, to: folder.url.appendingPathComponent("Assets/3.wav"), rate: 16000)
        #expect(eventually(60) { watching.stderrSoFar.contains("soundset: waiting for another soundset (pid 4242) to finish building Output…") })
        watching.process.interrupt()
        #expect(eventually(10) { watching.stderrSoFar.contains("soundset: stopping after the build under way (again to end at once)") })
        watching.process.interrupt()
        let ended = watching.wait()
        #expect(ended.status == 130)
        #expect(ended.stderr.hasSuffix("(again to end at once)\n\nsoundset: interrupted; Output was not changed\n"), "\(ended.stderr)")
        #expect(try Data(contentsOf: manifestURL) == first)
        #expect(try leftovers(in: folder.url) == [])
    }

    /// A legal FLAC whose STREAMINFO gives no length (total samples 0, as a live stream leaves
    /// it; libsndfile reports SF_COUNT_MAX frames) is read by decoding, within the 30 s limit; a
    /// longer one is refused with the length decoding measured.
    @Test func aFLACOfUnknownLengthIsReadByDecoding() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        try FileManager.default.removeItem(at: assets.appendingPathComponent("1.wav"))
        let take = Takes.word(word: 0.3, rate: 16000, levelDb: -20, seed: 7)
        try FLACFile.bytes(take.samples, rate: 16000, unknownLength: true).write(to: assets.appendingPathComponent("1.flac"))
        let built = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        let clip = manifest.clip(named: "1")
        #expect(clip?.source.file == "1.flac")
        #expect((clip?.frames ?? 0) > 0)
        // The same take with its length in the header gives the same clip.
        try FLACFile.bytes(take.samples, rate: 16000).write(to: assets.appendingPathComponent("1.flac"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let known = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        #expect(known.clip(named: "1")?.sha256 == clip?.sha256)

        let long = Signals.tone(440, seconds: 31, rate: 8000)
        try FLACFile.bytes(long, rate: 8000, unknownLength: true).write(to: assets.appendingPathComponent("4.flac"))
        let refused = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: Assets/4.flac: is 31.0 s long by decoding (its header does not give the length); iOS plays the default sound for notification sounds of 30 s or more (cut it to one word or phrase)\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
    }
}
