import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetBuild
@testable import SoundsetSetFolder

/// The build's memory does not grow with the pack: between the stages a clip's samples wait on disk
/// (the memo's entry, or the build's scratch folder with --no-cache) and each clip's file is encoded
/// as soon as it is finished, so a build holds a few clips at a time. Held by counting the clips in
/// memory at once (`HeldClips`), not by timing or measuring the process.
@Suite struct BoundedMemoryTests {
    static let jobs = 2

    /// `count` short takes, no two the same recording (lengths and pitches differ), digits first
    /// (which have byte-identical copies), at the rate the set is built at.
    func pack(_ count: Int, in assets: URL) throws {
        for index in 0..<count {
            let name = index < 10 ? "\(index)" : "take\(index)"
            let take = Takes.word(
                before: 0.04, word: 0.08 + Double(index % 9) * 0.012, after: 0.04, rate: 16000, levelDb: -30 + Double(index % 5) * 3,
                crest: index % 7 == 3 ? 16 : 10, seed: UInt64(index + 1))
            try WAVFile.write(take.samples, to: assets.appendingPathComponent("\(name).wav"), rate: 16000)
        }
        try Data(#"{"sampleRate": 16000}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
    }

    func options(_ folder: URL, cache: Bool, output: String = "Output", progress: (@Sendable (Int, Int, String) -> Void)? = nil) -> BuildOptions {
        var options = BuildOptions(
            assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets", output: folder.appendingPathComponent(output),
            outputDisplay: output, jobs: Self.jobs, useCache: cache, progress: progress)
        // No room in memory: every prepared clip waits on disk, as in a pack past the budget.
        options.preparedBytesInMemory = 0
        return options
    }

    /// The build's scratch folders in the memo's folder beside the output.
    func scratchFolders(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(DiskMemo.folderName).path)) ?? [])
            .filter { $0.hasPrefix("scratch-") }
    }

    /// The most prepared clips in memory at once during a build of `count` takes.
    func mostHeld(takes count: Int, cache: Bool, budget: Int = 0) async throws -> Int {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try pack(count, in: try folder.folder("Assets"))
        let counter = HeldClips()
        var options = options(folder.url, cache: cache)
        options.preparedBytesInMemory = budget
        let report = try await HeldClips.$counter.withValue(counter) { [options] in try await BuildPipeline.run(options) }
        #expect(report.manifest.clips.count == count)
        #expect(scratchFolders(folder.url).isEmpty)
        return counter.most
    }

    /// The level search holds the few clips it tries (`LevelStage.probes`); every other stage, one
    /// clip per job: the same bound for 12 takes and for 36, with the memo and without. (Holding
    /// the prepared set in memory, as the build once did, held every clip: 36.)
    @Test(arguments: [true, false]) func clipsInMemoryDependOnTheJobsNotThePack(cache: Bool) async throws {
        let bound = LevelStage.probes + Self.jobs
        let small = try await mostHeld(takes: 12, cache: cache)
        let large = try await mostHeld(takes: 36, cache: cache)
        #expect(small > 0 && large > 0)
        #expect(small <= bound, "12 takes: \(small) clips held at once")
        #expect(large <= bound, "36 takes: \(large) clips held at once")
    }

    /// Without the memo, within the budget (`BuildOptions.preparedBytesInMemory`), prepared clips
    /// stay in memory (no scratch file written and read back): all 12 at the default, 32 MiB; none of them with room
    /// for only a few, which the bound above holds again.
    @Test func clipsWithinTheBudgetStayInMemory() async throws {
        #expect(try await mostHeld(takes: 12, cache: false, budget: 32 << 20) == 12)
        let few = try await mostHeld(takes: 12, cache: false, budget: 3 * 16000 * 4)
        #expect(few <= LevelStage.probes + Self.jobs + 3, "\(few)")
        // With the memo, the samples are on disk already: the budget holds none.
        #expect(try await mostHeld(takes: 12, cache: true, budget: 32 << 20) <= LevelStage.probes + Self.jobs)
    }

    /// With --no-cache the samples wait in the scratch folder instead of the memo: the same set,
    /// byte for byte, with the copies; and the folder is gone after the build.
    @Test func theScratchFolderGivesTheMemosSet() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try pack(14, in: try folder.folder("Assets"))
        let seen = Seen()
        let cached = try await BuildPipeline.run(options(folder.url, cache: true))
        let uncached = try await BuildPipeline.run(
            options(folder.url, cache: false, output: "Full") { _, _, _ in seen.note(!self.scratchFolders(folder.url).isEmpty) })
        #expect(seen.any, "the build without the memo kept its clips in a scratch folder")
        #expect(cached.manifest == uncached.manifest)
        #expect(cached.manifest.clips.contains { $0.copy != nil })
        let built = snapshot(of: folder.url.appendingPathComponent("Output"))
        #expect(built.count == 14 + 10 + 1)
        #expect(built == snapshot(of: folder.url.appendingPathComponent("Full")))
        #expect(scratchFolders(folder.url).isEmpty)
    }

    /// A build that fails at its very end (a file put in the output folder while it ran, found
    /// just before the swap), its clips encoded and waiting in the scratch folder, leaves the set
    /// as it was and no scratch folder; so does one that fails on a take.
    @Test func aFailedBuildLeavesNoScratchFolder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try pack(12, in: assets)
        _ = try await BuildPipeline.run(options(folder.url, cache: false))
        let output = folder.url.appendingPathComponent("Output")
        let before = snapshot(of: output)
        let stranger = output.appendingPathComponent("notes.txt")
        await #expect(throws: BuildFailure.self) {
            try await BuildPipeline.run(options(folder.url, cache: false) { _, _, _ in try? Data("mine".utf8).write(to: stranger) })
        }
        #expect(scratchFolders(folder.url).isEmpty)
        try FileManager.default.removeItem(at: stranger)
        #expect(snapshot(of: output) == before)

        try Data("not a recording".utf8).write(to: assets.appendingPathComponent("broken.wav"))
        for cache in [false, true] {
            await #expect(throws: BuildFailure.self) { try await BuildPipeline.run(options(folder.url, cache: cache)) }
            #expect(scratchFolders(folder.url).isEmpty)
        }
        #expect(snapshot(of: output) == before)
    }

    /// What a killed build left (a scratch folder of this output's) goes at the next build; another
    /// output's, beside it, stays.
    @Test func aKilledBuildsScratchFolderGoesAtTheNextBuild() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try pack(3, in: try folder.folder("Assets"))
        let memo = try folder.folder(DiskMemo.folderName)
        let left = try TemporaryDirectory.folder(memo, "scratch-Output-\(UUID().uuidString)")
        try Data("x".utf8).write(to: left.appendingPathComponent("take1.caf"))
        let other = try TemporaryDirectory.folder(memo, "scratch-Output-en-\(UUID().uuidString)")
        _ = try await BuildPipeline.run(options(folder.url, cache: true))
        #expect(scratchFolders(folder.url) == [other.lastPathComponent])
    }
}

/// Whether a condition was ever seen true, from any task.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = false
    var any: Bool { lock.withLock { seen } }
    func note(_ value: Bool) { lock.withLock { seen = seen || value } }
}
