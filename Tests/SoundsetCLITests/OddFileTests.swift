import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files and folders that are not what they seem: FIFOs, links, unreadable files, unsearchable
/// folders, mount points, a full disk. Each gets its own message, no hang, and Output as it was.
@Suite struct OddFileTests {
    /// A folder with the small pack in Assets, built; returns it and Output's snapshot.
    func builtFolder(prefix: [String] = []) throws -> (TemporaryDirectory, [String: Data]) {
        let folder = try TemporaryDirectory()
        try AssetPacks.small(in: try folder.folder("Assets"))
        if !prefix.isEmpty { try Unprivileged.openUp(folder.url) }
        let result = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url, prefix: prefix)
        #expect(result.status == 0, "\(result.stderr)")
        return (folder, snapshot(of: folder.url.appendingPathComponent("Output")))
    }

    /// Runs soundset, killing it if it has not ended after `seconds`: a hang is a failure, not a stuck
    /// test run.
    func runWithin(_ seconds: Double, _ arguments: [String], in folder: URL) throws -> (result: RunResult, hung: Bool) {
        let running = try RunningSoundset(arguments, in: folder)
        let deadline = Date().addingTimeInterval(seconds)
        while running.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let hung = running.process.isRunning
        if hung { kill(running.process.processIdentifier, SIGKILL) }
        return (running.wait(), hung)
    }

    @Test func aFIFOInAssetsIsNotARegularFile() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        #expect(mkfifo(folder.url.appendingPathComponent("Assets/x.wav").path, 0o644) == 0)
        let (result, hung) = try runWithin(60, ["build"], in: folder.url)
        #expect(!hung)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: Assets/x.wav: is not a regular file (a FIFO, socket or device is no recording; move it out)\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }

    /// A FIFO where the cache keeps a clip's entry: the entry is made again, nothing waits on it.
    @Test func aFIFOInTheCacheIsPassedBy() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        let cache = folder.url.appendingPathComponent(".soundset-cache")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".clip") }.sorted()
        #expect(entries.count == 4)
        let entry = cache.appendingPathComponent(entries[0])
        try FileManager.default.removeItem(at: entry)
        #expect(mkfifo(entry.path, 0o644) == 0)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        let (result, hung) = try runWithin(60, ["build", "--quiet"], in: folder.url)
        #expect(!hung)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
        let checked = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(checked.stdout.contains("[integrity]") == false, "\(checked.stdout)")
    }

    /// `--output` a symbolic link: the set is built into the link's target, the link stays a link.
    @Test func aLinkedOutputIsBuiltIntoItsTarget() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        let target = try folder.folder("Elsewhere/Set")
        let link = folder.url.appendingPathComponent("Linked")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "Elsewhere/Set")
        let result = try SoundsetExecutable.run(["build", "--quiet", "--output", "Linked"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "Elsewhere/Set")
        #expect(setSnapshot(of: target) == withoutReport(before))
        // Built again with another level, through the link: the target holds the new set.
        try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let again = try SoundsetExecutable.run(["build", "--quiet", "--output", "Linked"], in: folder.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "Elsewhere/Set")
        let rebuilt = snapshot(of: target)
        #expect(rebuilt.count == before.count && rebuilt != before)
        let manifest = try Manifest.load(from: target.appendingPathComponent("manifest.json"))
        #expect(manifest.loudness.target == -20)
        let parent = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Elsewhere").path)
        #expect(parent.sorted() == [".soundset-cache", "Set"])  // the lock and the memo beside the target; no staging left
        let check = try SoundsetExecutable.run(["check", "--output", "Linked"], in: folder.url)
        #expect(!check.stdout.contains("[integrity]") && !check.stdout.contains("[freshness]"), "\(check.stdout)")
    }

    /// `.soundset-cache` a link to a shared folder: only the cache's own entries are ever deleted.
    @Test func aSharedCacheFolderKeepsWhatIsNotTheCaches() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let shared = try folder.folder("shared")
        let theirs: [(String, Data)] = [
            ("notes.txt", Data("notes".utf8)),
            ("0123.clip", Data("a file of someone else's named like an entry".utf8)),
            ("sub/inner.clip", Data("inside a folder".utf8)),
        ]
        _ = try folder.folder("shared/sub")
        _ = try folder.folder("shared/folder.clip")
        for (name, data) in theirs { try data.write(to: shared.appendingPathComponent(name)) }
        let outside = folder.url.appendingPathComponent("outside.clip")
        try Data("outside".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: shared.appendingPathComponent("link.clip").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent(".soundset-cache").path, withDestinationPath: "shared")

        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        func entries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: shared.path).filter {
                $0.hasSuffix(".clip") && $0.count == 64 + 5
            }
        }
        #expect(try entries().count == 4)
        // Two clips fewer: their entries are pruned, and nothing else.
        try FileManager.default.removeItem(at: assets.appendingPathComponent("1.wav"))
        try FileManager.default.removeItem(at: assets.appendingPathComponent("2.wav"))
        let rebuilt = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try entries().count == 2)
        for (name, data) in theirs { #expect(try Data(contentsOf: shared.appendingPathComponent(name)) == data, "\(name)") }
        #expect(try Data(contentsOf: outside) == Data("outside".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: shared.appendingPathComponent("link.clip").path) == outside.path)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: shared.appendingPathComponent("folder.clip").path, isDirectory: &isFolder) && isFolder.boolValue)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.url.appendingPathComponent(".soundset-cache").path) == "shared")
    }

    /// As a user who may not read it: the build and the check say so, not "up to date" or "changed".
    @Test(.enabled(if: Unprivileged.available)) func anUnreadableRecordingSaysSo() throws {
        let prefix = Unprivileged.prefix!
        let (folder, before) = try builtFolder(prefix: prefix)
        defer { folder.remove() }
        let take = folder.url.appendingPathComponent("Assets/3.wav")
        #expect(chmod(take.path, 0) == 0)
        let build = try SoundsetExecutable.run(["build"], in: folder.url, prefix: prefix)
        #expect(build.status == 1)
        #expect(build.stderr == "error: Assets/3.wav: cannot be read (permission denied)\nsoundset: build failed with 1 problem; Output was not changed\n")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
        let check = try SoundsetExecutable.run(["check"], in: folder.url, prefix: prefix)
        #expect(check.status == 1)
        #expect(check.stdout.contains("[freshness] Assets/3.wav: cannot be read (permission denied)\n"), "\(check.stdout)")
        #expect(!check.stdout.contains("changed since the last build"), "\(check.stdout)")
    }

    /// As a user who may not search it: the folder is named once, not every file in it.
    @Test(.enabled(if: Unprivileged.available)) func anUnsearchableAssetsFolderSaysSo() throws {
        let prefix = Unprivileged.prefix!
        let (folder, before) = try builtFolder(prefix: prefix)
        defer { folder.remove() }
        let assets = folder.url.appendingPathComponent("Assets")
        #expect(chmod(assets.path, 0o666) == 0)
        defer { chmod(assets.path, 0o777) }
        let build = try SoundsetExecutable.run(["build"], in: folder.url, prefix: prefix)
        #expect(build.status == 1)
        #expect(
            build.stderr
                == "error: Assets: cannot be searched (permission denied): give it execute permission, e.g. chmod u+x Assets\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
        let check = try SoundsetExecutable.run(["check"], in: folder.url, prefix: prefix)
        #expect(check.status == 1)
        #expect(
            check.stdout
                == "[freshness] Assets: cannot be searched (permission denied): give it execute permission, e.g. chmod u+x Assets\ncheck failed: 1 problem\n"
        )
        #expect(chmod(assets.path, 0o333) == 0)
        let unlisted = try SoundsetExecutable.run(["build"], in: folder.url, prefix: prefix)
        #expect(unlisted.stderr.hasPrefix("error: Assets: cannot be listed (permission denied): give it read permission, e.g. chmod u+r Assets\n"))
    }

    @Test(.enabled(if: TmpfsMount.available)) func aMountPointIsRefusedWithTheWayOut() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        let point = try folder.folder("Mounted")
        let mount = try TmpfsMount(at: point, kilobytes: 4096)
        defer { mount.unmount() }
        try Data("theirs".utf8).write(to: point.appendingPathComponent("notes.txt"))
        let refused = try SoundsetExecutable.run(["build", "--output", "Mounted"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: Mounted: is a mount point, which cannot be replaced (soundset swaps in a whole new folder): point --output one level down, e.g. Mounted/Set\nsoundset: build failed with 1 problem; Mounted was not changed\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: point.path) == ["notes.txt"])
        let below = try SoundsetExecutable.run(["build", "--quiet", "--output", "Mounted/Set"], in: folder.url)
        #expect(below.status == 0, "\(below.stderr)")
        #expect(setSnapshot(of: point.appendingPathComponent("Set")) == withoutReport(before))
    }

    /// Disks that fill up while the new set is written, the last of them with room for the old set
    /// and the new clips but not the new manifest: one line naming the file each time, and Output as
    /// it was.
    @Test(.enabled(if: TmpfsMount.available)) func aFullDiskIsOneLineAndOutputIsUnchanged() throws {
        let (folder, old) = try builtFolder()
        defer { folder.remove() }
        let config = folder.url.appendingPathComponent("Assets/soundset.json")
        try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: config)
        #expect(try SoundsetExecutable.run(["build", "--quiet", "--no-cache", "--output", "New"], in: folder.url).status == 0)
        let new = setSnapshot(of: folder.url.appendingPathComponent("New"))
        // Sizes in whole pages, as tmpfs counts them: from room for the old set and half the new one
        // up to room for both, found by trying, since folders cost pages too on some kernels.
        func pages(_ files: [String: Data]) -> Int { files.values.reduce(0) { $0 + ($1.count + 4095) / 4096 } }
        let disk = try folder.folder("Disk")
        var failedAt: [String] = []
        for size in (pages(old) + pages(new) / 2)...(pages(old) + pages(new) + 8) {
            let mount = try TmpfsMount(at: disk, kilobytes: 4 * size)
            defer { mount.unmount() }
            try Data("{}".utf8).write(to: config)
            // The set alone (its report beside it would take room the sizes above do not count).
            let first = try SoundsetExecutable.run(["build", "--quiet", "--no-cache", "--no-report", "--output", "Disk/Output"], in: folder.url)
            #expect(first.status == 0, "\(size) pages: \(first.stderr)")
            try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: config)
            let second = try SoundsetExecutable.run(["build", "--quiet", "--no-cache", "--no-report", "--output", "Disk/Output"], in: folder.url)
            if second.status == 0 {
                #expect(setSnapshot(of: disk.appendingPathComponent("Output")) == new)
                break
            }
            #expect(second.status == 1)
            let lines = second.stderr.split(separator: "\n").map(String.init)
            let file = lines.first.flatMap { $0.wholeMatch(of: /error: Disk\/Output\/(.+): cannot be written \(no space left on device\)/)?.1 }
            #expect(
                lines.count == 2 && file != nil && lines[1] == "soundset: build failed with 1 problem; Disk/Output was not changed", "\(size) pages: \(lines)")
            failedAt.append(file.map(String.init) ?? "?")
            #expect(setSnapshot(of: disk.appendingPathComponent("Output")) == withoutReport(old), "\(size) pages")
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted() == [".soundset-cache", "Output"])
        }
        #expect(failedAt.contains("manifest.json"), "\(failedAt)")
        #expect(failedAt.count >= 2)
    }

    @Test func aConfigurationNamedInAnotherCaseIsAnError() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(
            at: folder.url.appendingPathComponent("Assets/1.wav"), to: folder.url.appendingPathComponent("Assets/Soundset.json"))
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: Assets/Soundset.json: differs from soundset.json only in case; the configuration is read from soundset.json exactly (rename it)\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }

    /// A recording's extension says its format; a file without one is refused, not made a clip.
    @Test func aFileWithoutAnExtensionIsAnError() throws {
        let (folder, before) = try builtFolder()
        defer { folder.remove() }
        try FileManager.default.copyItem(at: folder.url.appendingPathComponent("Assets/1.wav"), to: folder.url.appendingPathComponent("Assets/one"))
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: Assets/one: has no extension; a recording is named after its clip and its format, e.g. 7.wav (rename it, or move it out)\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }
}
