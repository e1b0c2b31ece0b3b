import Foundation
import SoundsetAudio
import SoundsetCheck
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetBuild
@testable import SoundsetFindings
@testable import SoundsetReport
@testable import SoundsetSetFolder

/// What someone set on breaking the memo tried; each once gave a wrong set that every later build
/// called up to date.
@Suite struct MemoTests {
    func build(_ folder: URL, cache: Bool = true, output: String = "Output") async throws -> BuildReport {
        try await BuildPipeline.run(
            BuildOptions(
                assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets",
                output: folder.appendingPathComponent(output), outputDisplay: output, jobs: 2, useCache: cache))
    }

    /// The check's integrity and freshness problems (the small pack is no complete zh-CN set).
    func check(_ folder: URL) async -> [CheckProblem] {
        await Checker.run(
            assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets", output: folder.appendingPathComponent("Output"),
            outputDisplay: "Output"
        ).problems.filter { $0.check == .integrity || $0.check == .freshness }
    }

    /// Build; change the configuration and build without the cache; build; restore it and build.
    /// The up-to-date build once saved the first build's list of finished files beside the new
    /// stamps, and the last build hard-linked the padMs-30 audio under the first manifest.
    @Test func ordinaryCommandsNeverMixTwoConfigurations() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let config = assets.appendingPathComponent("soundset.json")
        _ = try await build(folder.url)
        let reference = snapshot(of: folder.url.appendingPathComponent("Output"))
        try Data(#"{"trim": {"padMs": 30}}"#.utf8).write(to: config)
        _ = try await build(folder.url, cache: false)
        #expect(try await build(folder.url).upToDate)
        try FileManager.default.removeItem(at: config)
        let restored = try await build(folder.url)
        #expect(!restored.upToDate)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
        #expect(await check(folder.url).isEmpty)
        // A set killed between the swap and the memo's record is the same case: the record describes
        // other files, which it recognises by their stamps.
        try Data(#"{"trim": {"padMs": 30}}"#.utf8).write(to: config)
        _ = try await build(folder.url, cache: false)
        try FileManager.default.removeItem(at: config)
        _ = try await build(folder.url)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
    }

    /// A recording replaced (by mv) between its hashing and its decoding: the clip is of the bytes
    /// decoded, under their own sha256, never the old take's key holding the new take's audio.
    @Test func aRecordingReplacedDuringTheBuildIsPreparedUnderItsOwnHash() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let catalog = try await AssetCatalog.load(assets: assets, displayName: "Assets")
        let memo = DiskMemo(output: folder.url.appendingPathComponent("Output"))
        let hashed = try await HashStage.run(catalog.recordings, memo: memo, clockFolder: folder.url, jobs: 1)
        let old = hashed.items.first { $0.recording.name == "2" }!
        // The new take of 2, moved into place.
        let url = assets.appendingPathComponent("2.wav")
        let staged = folder.url.appendingPathComponent("new-2.wav")
        try WAVFile.write(Takes.word(word: 0.25, levelDb: -15, seed: 77).samples, to: staged, rate: 16000)
        #expect(rename(staged.path, url.path) == 0)
        let newSHA = SHA256.hex(try Data(contentsOf: url))
        #expect(newSHA != old.sha256)
        let prepared = try await PrepareStage.run(hashed, configuration: catalog.configuration, memo: memo, jobs: 1, progress: nil)
        let two = prepared.entries.map(\.summary).first { $0.name == "2" }!
        #expect(two.sourceSHA256 == newSHA)
        #expect(two.recording.info.sampleRate == 16000)
        let hash = catalog.configuration.hash
        let oldKey = ClipKey.of(sourceSHA256: old.sha256, configurationHash: hash)
        #expect(memo.summary(of: old.recording, sha256: old.sha256, key: oldKey) == nil)
        let newKey = ClipKey.of(sourceSHA256: newSHA, configurationHash: hash)
        #expect(memo.summary(of: old.recording, sha256: newSHA, key: newKey)?.measurement == two.measurement)
    }

    /// One entry copied over another: the entry carries its own key and recording's sha256, and is
    /// ignored where it does not belong.
    @Test func anEntryCopiedOverAnotherIsIgnored() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let first = try await build(folder.url)
        let reference = snapshot(of: folder.url.appendingPathComponent("Output"))
        let memo = folder.url.appendingPathComponent(DiskMemo.folderName)
        let hash = try ConfigurationLoader.load(from: assets.appendingPathComponent("soundset.json"), displayPath: "").hash
        func entry(_ name: String) -> URL {
            let sha = first.manifest.clip(named: name)!.source.sha256
            return memo.appendingPathComponent("\(ClipKey.of(sourceSHA256: sha, configurationHash: hash)).clip")
        }
        try FileManager.default.removeItem(at: entry("3"))
        try FileManager.default.copyItem(at: entry("yuan"), to: entry("3"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        let rebuilt = try await build(folder.url)
        #expect(rebuilt.preparedFromCache == 3)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
        #expect(try Data(contentsOf: entry("3")) != Data(contentsOf: entry("yuan")))
    }

    /// A record whose figures say a clip file has no frames (forged, or damaged and re-checksummed):
    /// the build that places the last build's files under them fails, naming the manifest, rather
    /// than exit 0 with a set every reader refuses; the next build without the cache is whole.
    @Test func figuresNoReaderAcceptsFailTheBuildNotTheApp() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        _ = try await build(folder.url)
        let recordURL = folder.url.appendingPathComponent("\(DiskMemo.folderName)/build-Output.\(BuildRecordFile.fileExtension)")
        var record = try #require(BuildRecordFile.decode(try Data(contentsOf: recordURL)))
        for name in record.finished.keys { record.finished[name]?.figures.frames = 0 }
        try BuildRecordFile.encode(record).write(to: recordURL)
        let take = Takes.word(word: 0.4, rate: 16000, levelDb: -22, seed: 41)
        try WAVFile.write(take.samples, to: assets.appendingPathComponent("1.wav"), rate: 16000)
        do {
            _ = try await build(folder.url)
            Issue.record("the build succeeded with a manifest whose clips have no frames")
        } catch let failure as BuildFailure {
            #expect(failure.problems.map(\.subject) == ["Output/manifest.json"])
            #expect(failure.problems.first?.message.contains("would be refused by every reader") == true, "\(failure.problems)")
        }
        _ = try await build(folder.url, cache: false)
        #expect(try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json")).clips.allSatisfy { $0.frames > 0 })
    }

    /// A 3 GB (sparse) entry is refused by its size before it is read, and replaced.
    @Test func aHugeEntryIsNotReadAndIsReplaced() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let first = try await build(folder.url)
        let reference = snapshot(of: folder.url.appendingPathComponent("Output"))
        let memo = folder.url.appendingPathComponent(DiskMemo.folderName)
        let hash = try ConfigurationLoader.load(from: assets.appendingPathComponent("soundset.json"), displayPath: "").hash
        let key = ClipKey.of(sourceSHA256: first.manifest.clip(named: "yuan")!.source.sha256, configurationHash: hash)
        let entry = memo.appendingPathComponent("\(key).clip")
        let size = try FileManager.default.attributesOfItem(atPath: entry.path)[.size] as! Int
        let handle = try FileHandle(forWritingTo: entry)
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        // A level that every clip must be finished at again: their samples are read from the entries.
        try Data(#"{"loudness": {"target": -18}}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let louder = try await build(folder.url)
        #expect(!louder.upToDate)
        try FileManager.default.removeItem(at: assets.appendingPathComponent("soundset.json"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        _ = try await build(folder.url)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
        #expect(try FileManager.default.attributesOfItem(atPath: entry.path)[.size] as! Int == size)
    }

    /// A recording edited within the file system clock's tick of the stamps (here: its time stamp
    /// is after them) keeps size and time stamp; its stamp proves nothing, and it is hashed again.
    @Test func aRacilyCleanRecordingIsHashedAgain() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let url = assets.appendingPathComponent("yuan.wav")
        try setModified(url, secondsAgo: -600)
        let stamp = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date
        _ = try await build(folder.url)
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 2] ^= 0x10
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: bytes)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: url.path)
        let rebuilt = try await build(folder.url)
        #expect(!rebuilt.upToDate)
        #expect(rebuilt.manifest.clip(named: "yuan")?.source.sha256 == SHA256.hex(bytes))
        #expect(await check(folder.url).isEmpty)
    }

    /// Every stage runs with the empty memo, and gives the disk memo's set.
    @Test func theEmptyMemoGivesTheSameSet() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let catalog = try await AssetCatalog.load(assets: assets, displayName: "Assets")
        let memo = NoMemo()
        let configuration = catalog.configuration
        let hashed = try await HashStage.run(catalog.recordings, memo: memo, clockFolder: folder.url, jobs: 2)
        let prepared = try await PrepareStage.run(hashed, configuration: configuration, memo: memo, jobs: 2, progress: nil)
        #expect(prepared.remembered == 0)
        let loader = ClipLoader(memo: memo, configuration: configuration)
        // No scratch folder: the clips' samples and files are kept in memory.
        let writer = ClipFileWriter(configuration: configuration, outputDisplay: "Output", scratch: nil)
        let decision = try await LevelStage.decide(prepared, configuration: configuration, memo: memo, loader: loader, writer: writer, jobs: 2)
        #expect(decision.remembered == 0)
        let finished = try await FinishStage.run(
            prepared, decision: decision, configuration: configuration, memo: memo, loader: loader, writer: writer, jobs: 2)
        #expect(finished.reused == 0)
        let set = try await WriteStage.run(finished, copies: catalog.copies, configuration: configuration, outputDisplay: "Output", jobs: 2)
        let built = try await build(folder.url)
        #expect(set.manifest == built.manifest)
        for clip in set.clips {
            guard case .bytes(let bytes) = clip.content else { Issue.record("\(clip.name) reused"); continue }
            #expect(bytes == (try Data(contentsOf: folder.url.appendingPathComponent("Output/Sounds/\(clip.name)"))), "\(clip.name)")
        }
    }
}

@Suite struct DrawingsFileTests {
    func drawing(_ seed: Int) -> ClipDrawing {
        ClipDrawing(
            sourceColumns: 3 + seed, sourcePath: "M0 32L0 12 1 10 \(seed) 40Z", outputColumns: 2, outputPath: "M0 32L0 30 1 34Z")
    }

    /// What the memo keeps of the report's drawings reads back as written, and a damaged or
    /// planted file is no drawings at all: nothing in it reaches a page.
    @Test func drawingsReadBackAndAnythingElseIsNone() {
        let drawings = [String(repeating: "a", count: 64): drawing(1), String(repeating: "b", count: 64): drawing(2)]
        let bytes = DrawingsFile.encode(drawings)
        #expect(DrawingsFile.decode(bytes) == drawings)
        #expect(DrawingsFile.decode(DrawingsFile.encode([:])) == [:])
        // A flipped bit anywhere fails the checksum.
        for offset in [0, 9, 20, 100, bytes.count - 1] {
            var damaged = bytes
            damaged[offset] ^= 0x10
            #expect(DrawingsFile.decode(damaged) == nil, "\(offset)")
        }
        #expect(DrawingsFile.decode(bytes.dropLast(3)) == nil)
        // Markup in a path, written with a valid checksum, is refused.
        var planted = drawing(3)
        planted.sourcePath = "M0 32Z\"/><script>alert(1)</script><path d=\""
        #expect(DrawingsFile.decode(DrawingsFile.encode([String(repeating: "c", count: 64): planted])) == nil)
        var output = drawing(4)
        output.outputPath = "M0 32Z\"><img src=x>"
        #expect(DrawingsFile.decode(DrawingsFile.encode([String(repeating: "d", count: 64): output])) == nil)
    }
}
