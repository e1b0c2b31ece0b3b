import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What an attack review found in the state outputs share: the locks behind links and of other
/// users, one output's cache entries in another's build, a set committed without its cache, a
/// folder put at Output during a build, bind mounts, files edited under their old times.
@Suite struct SharedStateTests {
    func builtFolder() throws -> (TemporaryDirectory, [String: Data]) {
        let folder = try TemporaryDirectory()
        try AssetPacks.small(in: try folder.folder("Assets"))
        let result = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return (folder, snapshot(of: folder.url.appendingPathComponent("Output")))
    }

    /// Whether `running` is still running after `seconds`.
    func stillRunning(_ running: RunningSoundset, after seconds: Double) -> Bool {
        Thread.sleep(forTimeInterval: seconds)
        return running.process.isRunning
    }

    /// A check through a linked --output waits for the swap lock of the folder the link points to,
    /// the one a build of it takes.
    @Test func aCheckThroughALinkTakesItsTargetsLock() throws {
        let (folder, _) = try builtFolder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("Linked").path, withDestinationPath: "Output")
        let lock = try LockFile(folder.url.appendingPathComponent(".soundset-cache/swap-Output"))
        try lock.lock()
        let check = try RunningSoundset(["check", "--output", "Linked"], in: folder.url)
        #expect(stillRunning(check, after: 0.5))
        lock.unlock()
        let result = check.wait()
        #expect(result.stdout.contains("[completeness]") && !result.stdout.contains("[integrity]"), "\(result.stdout)")
    }

    /// A swap lock that is not a regular file stops the build before the swap and the check at once,
    /// naming it; neither goes on unlocked.
    @Test func aSwapLockThatIsNoFileIsAnError() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        let swap = folder.url.appendingPathComponent(".soundset-cache/swap-Output")
        try FileManager.default.removeItem(at: swap)
        #expect(mkfifo(swap.path, 0o644) == 0)
        try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let build = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(build.status == 1)
        #expect(
            build.stderr.hasSuffix(
                "error: \(swap.path): cannot be locked for the swap (swap-Output is not a regular file); remove it if it is not a regular file, and check that its folder is writable\nsoundset: build failed with 1 problem; Output was not changed\n"
            ), "\(build.stderr)")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        #expect(
            check.stdout.hasPrefix(
                "[integrity] \(swap.path): cannot be locked for reading (swap-Output is not a regular file); remove it if it is not a regular file\n"),
            "\(check.stdout)")
    }

    /// As another user, a check still locks the swap lock a root build made (shared locks need no
    /// write permission), so it waits for a swap in progress.
    @Test(.enabled(if: Unprivileged.available && geteuid() == 0)) func anotherUsersCheckTakesTheLockReadOnly() throws {
        let (folder, _) = try builtFolder()
        defer { folder.remove() }
        // Readable by anyone, writable by root only.
        try Unprivileged.openUp(folder.url.appendingPathComponent("Assets"))
        for path in [folder.url.path, folder.url.appendingPathComponent("Output").path, folder.url.appendingPathComponent("Output/Sounds").path] {
            chmod(path, 0o755)
        }
        let swap = folder.url.appendingPathComponent(".soundset-cache/swap-Output")
        chmod(swap.path, 0o644)
        let lock = try LockFile(swap)
        try lock.lock()
        let prefix = Unprivileged.prefix!
        let check = try RunningSoundset(prefix.dropFirst() + [SoundsetExecutable.url.path, "check"], in: folder.url, executable: prefix[0])
        #expect(stillRunning(check, after: 0.5))
        lock.unlock()
        let result = check.wait()
        #expect(!result.stdout.contains("[integrity]"), "\(result.stdout)")
    }

    /// A build of Output keeps Output-en's cache entries beside it, and the reverse.
    @Test func outputsSharingACacheKeepEachOthersEntries() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let english = try folder.folder("AssetsEn")
        try AssetPacks.small(in: english)
        try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: english.appendingPathComponent("soundset.json"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        #expect(try SoundsetExecutable.run(["build", "--quiet", "--assets", "AssetsEn", "--output", "Output-en"], in: folder.url).status == 0)
        func entries() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent(".soundset-cache").path).filter { $0.hasSuffix(".clip") }
                .count
        }
        #expect(try entries() == 8)
        // Output built again with one take fewer: its own entry goes, Output-en's stay.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Assets/3.wav"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        #expect(try entries() == 7)
        let report = try SoundsetExecutable.run(["report", "--assets", "AssetsEn", "--output", "Output-en"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
    }

    /// A set committed without its cache (a fresh clone), or built with --no-cache: the build finds
    /// again what the report shows, the same page as with the cache.
    @Test func theReportNeedsNoCache() throws {
        let (folder, _) = try builtFolder()
        defer { folder.remove() }
        #expect(try SoundsetExecutable.run(["report"], in: folder.url).status == 0)
        let withCache = try Data(contentsOf: folder.url.appendingPathComponent("Output.report.html"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(".soundset-cache"))
        let built = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(built.stdout.hasPrefix("Output is up to date"), "\(built.stdout)")
        let report = try SoundsetExecutable.run(["report"], in: folder.url)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("Output.report.html")) == withCache)
        // A recording changed since the build: said, not shown as built.
        var take = try Data(contentsOf: folder.url.appendingPathComponent("Assets/1.wav"))
        take[take.count - 1] ^= 1
        try take.write(to: folder.url.appendingPathComponent("Assets/1.wav"))
        let stale = try SoundsetExecutable.run(["report"], in: folder.url)
        #expect(stale.status == 1)
        #expect(stale.stderr == "error: Assets/1.wav: changed since the last build: run soundset build --assets Assets --output Output\n")
    }

    /// A clip file edited in place and given its old modification time back is not reused as built.
    @Test func aClipEditedUnderItsOldTimeIsMadeAgain() throws {
        let (folder, _) = try builtFolder()
        defer { folder.remove() }
        let clip = folder.url.appendingPathComponent("Output/Sounds/yuan.caf")
        var info = stat()
        #expect(stat(clip.path, &info) == 0)
        var bytes = try Data(contentsOf: clip)
        bytes[bytes.count - 2] ^= 0x40
        let handle = try FileHandle(forWritingTo: clip)
        try handle.write(contentsOf: bytes)
        try handle.close()
        // The old modification time, to the nanosecond, as `touch -r` would give it back.
        #if canImport(Darwin)
            var times = [info.st_atimespec, info.st_mtimespec]
        #else
            var times = [info.st_atim, info.st_mtim]
        #endif
        #expect(utimensat(AT_FDCWD, clip.path, &times, 0) == 0)
        var after = stat()
        #expect(stat(clip.path, &after) == 0)
        #if canImport(Darwin)
            #expect(after.st_mtimespec.tv_nsec == info.st_mtimespec.tv_nsec && after.st_size == info.st_size)
        #else
            #expect(after.st_mtim.tv_nsec == info.st_mtim.tv_nsec && after.st_mtim.tv_sec == info.st_mtim.tv_sec && after.st_size == info.st_size)
        #endif
        // Another take changes, so the build runs and would reuse yuan.caf.
        var take = try Data(contentsOf: folder.url.appendingPathComponent("Assets/1.wav"))
        take[take.count - 1] ^= 1
        try take.write(to: folder.url.appendingPathComponent("Assets/1.wav"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(!check.stdout.contains("[integrity]"), "\(check.stdout)")
    }

    /// A refused --output leaves nothing behind it; a name too long for the staging folder says so.
    @Test func aRefusedOutputWritesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let project = try folder.folder("project")
        try AssetPacks.small(in: try folder.folder("project/Assets"))
        let refused = try SoundsetExecutable.run(["build", "--output", "."], in: project)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("error: .: is the assets folder or contains it"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["project"])
        let long = String(repeating: "a", count: 201)
        let tooLong = try SoundsetExecutable.run(["build", "--output", long], in: project)
        #expect(
            tooLong.stderr
                == "error: \(long): its name is 201 bytes, too long for the staging folder beside it (at most 200): choose a shorter --output\nsoundset: build failed with 1 problem; \(long) was not changed\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path).sorted() == ["Assets"])
        let plan = try SoundsetExecutable.run(["plan", "12", "--output", "missing/deeper/Output"], in: project)
        #expect(plan.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path).sorted() == ["Assets"])
    }

    /// A bind mount of the same file system is a mount point too.
    @Test(.enabled(if: TmpfsMount.available)) func aBindMountIsAMountPoint() throws {
        let (folder, _) = try builtFolder()
        defer { folder.remove() }
        let source = try folder.folder("elsewhere")
        let point = try folder.folder("Bound")
        let mount = try TmpfsMount(binding: source, at: point)
        defer { mount.unmount() }
        let refused = try SoundsetExecutable.run(["build", "--output", "Bound"], in: folder.url)
        #expect(
            refused.stderr
                == "error: Bound: is a mount point, which cannot be replaced (soundset swaps in a whole new folder): point --output one level down, e.g. Bound/Set\nsoundset: build failed with 1 problem; Bound was not changed\n"
        )
    }
}
