import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct FaultTests {
    /// Two configurations that build different sets of the same recordings.
    static let twoConfigurations = ["{}", #"{"loudness": {"target": -20}}"#]

    /// A folder with the small pack in Assets, and where its soundset.json goes.
    static func packWithItsConfiguration() throws -> (TemporaryDirectory, config: URL) {
        let folder = try TemporaryDirectory()
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        return (folder, assets.appendingPathComponent("soundset.json"))
    }

    /// The build's scratch folders in the memo's folder (`BuildScratch`).
    static func scratchFolders(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".soundset-cache").path).filter { $0.hasPrefix("scratch-") }
    }

    /// kill -9 at many points of a build: Output is always the old set or the new one, byte for byte,
    /// and the next build cleans up whatever the killed ones left.
    @Test func killedBuildsLeaveTheOldSetOrTheNew() throws {
        let (folder, config) = try Self.packWithItsConfiguration()
        defer { folder.remove() }
        let configs = Self.twoConfigurations
        var sets: [[String: Data]] = []
        // The kills are spread over the shortest build seen, so most land before the build ends
        // whatever this machine's speed at the moment.
        // Each set is taken from a build that replaced the other one, as every build below does:
        // {}, -20, then {} again.
        var seconds = Double.infinity
        var built: [[String: Data]] = []
        for json in configs + [configs[0]] {
            try Data(json.utf8).write(to: config)
            let started = Date()
            #expect(try SoundsetExecutable.run(["build", "--quiet", "--no-cache"], in: folder.url).status == 0)
            seconds = min(seconds, Date().timeIntervalSince(started))
            built.append(snapshot(of: folder.url.appendingPathComponent("Output")))
        }
        sets = [built[2], built[1]]
        #expect(sets[0] != sets[1])
        // The first build's set is the same recordings' rebuild, byte for byte: the report, which
        // says what changed since the set before, is not in it.
        #expect(built[0] == built[2])
        var current = 0
        var kills = 0
        for attempt in 0..<14 {
            try Data(configs[1 - current].utf8).write(to: config)
            let process = Process()
            process.executableURL = SoundsetExecutable.url
            process.arguments = ["build", "--quiet", "--no-cache"]  // every run does the whole work
            process.currentDirectoryURL = folder.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: seconds * Double(attempt) / 16)
            if process.isRunning { kill(process.processIdentifier, SIGKILL); kills += 1 }
            process.waitUntilExit()
            let state = snapshot(of: folder.url.appendingPathComponent("Output"))
            let which = sets.firstIndex(of: state)
            #expect(which != nil, "attempt \(attempt): Output is neither the old set nor the new one")
            current = which ?? current
        }
        #expect(kills >= 8)
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".soundset") && $0 != ".soundset-cache" }
        #expect(leftovers == [])
        // The killed builds' scratch folders went with the build after them.
        #expect(try Self.scratchFolders(folder.url) == [])
    }

    /// Ctrl-C and SIGTERM during a build, spread over its length: each ends it with 130 or 143 and
    /// one line, Output is one whole set, and no staging folder is left beside it.
    @Test func interruptedBuildsLeaveNothingBehind() throws {
        let (folder, config) = try Self.packWithItsConfiguration()
        defer { folder.remove() }
        let configs = Self.twoConfigurations
        var seconds = Double.infinity
        var sets: [[String: Data]] = []
        for json in configs {
            try Data(json.utf8).write(to: config)
            let started = Date()
            #expect(try SoundsetExecutable.run(["build", "--quiet", "--no-cache"], in: folder.url).status == 0)
            seconds = min(seconds, Date().timeIntervalSince(started))
            sets.append(setSnapshot(of: folder.url.appendingPathComponent("Output")))
        }
        var current = 1
        var interrupted = 0
        for attempt in 0..<12 {
            try Data(configs[1 - current].utf8).write(to: config)
            let running = try RunningSoundset(["build", "--no-cache"], in: folder.url)
            Thread.sleep(forTimeInterval: seconds * Double(attempt) / 12)
            let signal = attempt % 2 == 0 ? SIGINT : SIGTERM
            if running.process.isRunning { kill(running.process.processIdentifier, signal) }
            let result = running.wait()
            let state = setSnapshot(of: folder.url.appendingPathComponent("Output"))
            let which = sets.firstIndex(of: state)
            #expect(which != nil, "attempt \(attempt): Output is neither the old set nor the new one")
            // A signal that comes before soundset installs its handler ends it the system's way,
            // before it has written anything.
            if result.status == signal {
                #expect(result.stderr == "" && which == current, "attempt \(attempt)")
            } else if result.status != 0 {
                interrupted += 1
                #expect(result.status == 128 + signal, "attempt \(attempt): \(result.stderr)")
                // Interrupted before the swap: the old set; after it (printing): the new one.
                let before = result.stderr == "\nsoundset: interrupted; Output was not changed\n"
                let after = result.stderr.hasSuffix("\nsoundset: interrupted as the new set was swapped in: Output holds it\n")
                #expect(before || after, "attempt \(attempt): \(result.stderr)")
                #expect(which == (before ? current : 1 - current), "attempt \(attempt): \(result.stderr)")
            }
            let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            #expect(beside == [".soundset-cache", "Assets", "Output", "Output.report.html"], "attempt \(attempt)")
            #expect(try Self.scratchFolders(folder.url) == [], "attempt \(attempt)")
            // The report beside is the set's: written with the swap, which a signal lets finish.
            let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
            let id = SoundSet(manifest: manifest, folder: folder.url.appendingPathComponent("Output")).id
            let report = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
            #expect(report.contains("<meta name=\"soundset-set\" content=\"\(id)\"/>"), "attempt \(attempt): the report is another set's")
            current = which ?? current
        }
        #expect(interrupted >= 6)
    }

    /// The same recordings give byte-identical Output whatever the order files were written in and
    /// however many workers run.
    @Test func outputIsTheSameBytesEveryTime() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let first = try folder.folder("one/Assets")
        try AssetPacks.small(in: first)
        let second = try folder.folder("two/Assets")
        for name in try FileManager.default.contentsOfDirectory(atPath: first.path).sorted().reversed() {
            try FileManager.default.copyItem(at: first.appendingPathComponent(name), to: second.appendingPathComponent(name))
        }
        #expect(try SoundsetExecutable.run(["build", "--quiet", "--jobs", "1"], in: folder.url.appendingPathComponent("one")).status == 0)
        #expect(try SoundsetExecutable.run(["build", "--quiet", "--jobs", "4"], in: folder.url.appendingPathComponent("two")).status == 0)
        let one = snapshot(of: folder.url.appendingPathComponent("one/Output"))
        #expect(one.count == 8)
        #expect(one == snapshot(of: folder.url.appendingPathComponent("two/Output")))
        // And so is the report beside it.
        let report = try Data(contentsOf: folder.url.appendingPathComponent("one/Output.report.html"))
        #expect(report == (try Data(contentsOf: folder.url.appendingPathComponent("two/Output.report.html"))))
    }

    @Test func anUnwritableOutputIsAClearError() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let result = try SoundsetExecutable.run(["build", "--output", "/proc/soundset-test/Output"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: /proc/soundset-test/Output: cannot create /proc/soundset-test/.soundset-cache for the build's lock (no such file or directory); check that the folder is writable\nsoundset: build failed with 1 problem; /proc/soundset-test/Output was not changed\n",
            "\(result.stderr)")

        try Data("x".utf8).write(to: folder.url.appendingPathComponent("afile"))
        let onFile = try SoundsetExecutable.run(["build", "--output", "afile"], in: folder.url)
        #expect(onFile.status == 1)
        #expect(onFile.stderr.hasPrefix("error: afile: is a file, not a folder; refusing to replace it (choose another --output)\n"))
    }

    @Test func refusesHomeAndAssetsAsOutput() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let home = try folder.folder("home")
        try Data("notes".utf8).write(to: home.appendingPathComponent("notes.txt"))
        let result = try SoundsetExecutable.run(["build", "--output", "home"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: home: holds files but no soundset manifest; refusing to replace it"))
        #expect(try String(contentsOf: home.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes")
        let assets = try SoundsetExecutable.run(["build", "--output", "Assets"], in: folder.url)
        #expect(assets.status == 1)
        #expect(assets.stderr.hasPrefix("error: Assets: is the assets folder or contains it; refusing to replace it"))
    }
}
