import Foundation
import SoundsetBuild
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct CacheTests {
    func build(_ folder: URL, cache: Bool = true, output: String = "Output") async throws -> BuildReport {
        try await BuildPipeline.run(
            BuildOptions(
                assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets",
                output: folder.appendingPathComponent(output), outputDisplay: output, jobs: 2, useCache: cache))
    }

    func modificationDate(_ url: URL) throws -> Date {
        try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as! Date
    }

    @Test func nothingChangedDoesNothing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let first = try await build(folder.url)
        #expect(!first.upToDate)
        #expect(first.preparedFromCache == 0)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".soundset-cache").path))
        let manifest = folder.url.appendingPathComponent("Output/manifest.json")
        let before = snapshot(of: folder.url.appendingPathComponent("Output"))
        let stamp = try modificationDate(manifest)
        let second = try await build(folder.url)
        #expect(second.upToDate)
        #expect(second.manifest == first.manifest)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
        #expect(try modificationDate(manifest) == stamp)
    }

    @Test func oneChangedRecordingRedoesOneClipAndMatchesAFullBuild() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        _ = try await build(folder.url)
        // Louder and peakier than before: the set's level may move, every clip's gain is redone from the cache.
        try WAVFile.write(
            Takes.word(word: 0.4, levelDb: -10, crest: 16, seed: 42).samples,
            to: assets.appendingPathComponent("2.wav"), rate: 16000)
        let incremental = try await build(folder.url)
        #expect(!incremental.upToDate)
        #expect(incremental.preparedFromCache == 3)
        let full = try await build(folder.url, cache: false, output: "Full")
        #expect(full.preparedFromCache == 0)
        let incrementalFiles = snapshot(of: folder.url.appendingPathComponent("Output"))
        let fullFiles = snapshot(of: folder.url.appendingPathComponent("Full"))
        #expect(incrementalFiles == fullFiles)
        for (name, data) in incrementalFiles where fullFiles[name] != data {
            Issue.record("\(name) differs"); try? data.write(to: URL(fileURLWithPath: "/tmp/inc.json"));
            try? fullFiles[name]!.write(to: URL(fileURLWithPath: "/tmp/full.json"))
        }
    }

    @Test func aConfigurationChangeRebuildsEveryClip() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        _ = try await build(folder.url)
        try Data(#"{"trim": {"padMs": 40}}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let changed = try await build(folder.url)
        #expect(!changed.upToDate)
        #expect(changed.preparedFromCache == 0)
        #expect(changed.finishedFromCache == 0)
        // A check-only setting changes nothing the build writes.
        try Data(#"{"trim": {"padMs": 40}, "maxAnnouncementSeconds": 20}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        #expect(try await build(folder.url).upToDate)
    }

    @Test func aCorruptOrMissingCacheGivesTheSameOutput() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        _ = try await build(folder.url)
        let reference = snapshot(of: folder.url.appendingPathComponent("Output"))
        let cache = folder.url.appendingPathComponent(".soundset-cache")
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { !$0.hasPrefix("stamps-") }.sorted()
        #expect(entries.count == 12)  // measurements, samples and a finished file for each of 4 recordings
        for (index, name) in entries.enumerated() {
            let url = cache.appendingPathComponent(name)
            var data = try Data(contentsOf: url)
            if index % 2 == 0 { data[data.count / 2] ^= 0xFF } else { data = data.prefix(20) }
            try data.write(to: url)
        }
        // Force a rebuild past the up-to-date check: remove Output.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        let corrupt = try await build(folder.url)
        #expect(corrupt.preparedFromCache == 0)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
        try FileManager.default.removeItem(at: cache)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        _ = try await build(folder.url)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
    }
}

extension CacheTests {
    /// A recording rewritten with the same bytes (new time stamp) is hashed again and found unchanged;
    /// one rewritten with other bytes but the same size and a restored time stamp is not trusted by
    /// stamp alone when its inode changed.
    @Test func stampsOnlyShortcutUntouchedFiles() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        _ = try await build(folder.url)
        let url = assets.appendingPathComponent("yuan.wav")
        let bytes = try Data(contentsOf: url)
        try FileManager.default.removeItem(at: url)
        try bytes.write(to: url)
        let same = try await build(folder.url)
        #expect(same.upToDate)
        var changed = bytes
        changed[changed.count - 2] ^= 0x10
        try changed.write(to: url)
        let rebuilt = try await build(folder.url)
        #expect(!rebuilt.upToDate)
        #expect(rebuilt.preparedFromCache == 3)
    }
}
