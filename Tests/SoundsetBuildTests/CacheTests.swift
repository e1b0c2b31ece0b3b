import Foundation
import SoundsetAudio
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
        // The level search retraced the last build's tries for the unchanged clips without finishing them.
        #expect(incremental.searchedFromCache >= 3)
        let full = try await build(folder.url, cache: false, output: "Full")
        #expect(full.preparedFromCache == 0 && full.searchedFromCache == 0)
        let incrementalFiles = snapshot(of: folder.url.appendingPathComponent("Output"))
        let fullFiles = snapshot(of: folder.url.appendingPathComponent("Full"))
        #expect(incrementalFiles == fullFiles)
        for (name, _) in incrementalFiles where fullFiles[name] != incrementalFiles[name] { Issue.record("\(name) differs") }
    }

    /// At an unchanged level, the clips of unchanged recordings are the last build's files, linked
    /// into the new set untouched; a file edited in Output since is made again.
    @Test func unchangedClipsKeepTheLastBuildsFiles() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let first = try await build(folder.url)
        let sounds = folder.url.appendingPathComponent("Output/Sounds")
        func inode(_ name: String) throws -> UInt64 {
            (try FileManager.default.attributesOfItem(atPath: sounds.appendingPathComponent(name).path)[.systemFileNumber] as! NSNumber)
                .uint64Value
        }
        let before = snapshot(of: folder.url.appendingPathComponent("Output"))
        let oneInode = try inode("1.caf")
        // A quieter, tamer take of 2: the set's level stays; 1 was edited in Output by hand.
        try WAVFile.write(Takes.word(word: 0.35, levelDb: -30, seed: 9).samples, to: assets.appendingPathComponent("2.wav"), rate: 16000)
        let yuanInode = try inode("yuan.caf")
        var edited = try Data(contentsOf: sounds.appendingPathComponent("1.caf"))
        edited[edited.count - 1] ^= 1
        try edited.write(to: sounds.appendingPathComponent("1.caf"))
        let report = try await build(folder.url)
        #expect(report.manifest.loudness.setLevel == first.manifest.loudness.setLevel)
        #expect(report.preparedFromCache == 3)
        #expect(report.finishedFromCache == 2)
        #expect(try inode("yuan.caf") == yuanInode)
        #expect(try inode("1.caf") != oneInode)
        let after = snapshot(of: folder.url.appendingPathComponent("Output"))
        #expect(before["/Sounds/1.caf"] != nil && after["/Sounds/1.caf"] == before["/Sounds/1.caf"])
        #expect(after["/Sounds/yuan.caf"] == before["/Sounds/yuan.caf"])
        #expect(after["/Sounds/2.caf"] != before["/Sounds/2.caf"])
    }

    /// A set rebuilt with no recording changed (a file went missing from Output) retraces the last
    /// build's level search from its stamps, finishes no clip to do so, and writes the same set.
    @Test func anUnchangedSetRetracesTheLevelSearch() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let first = try await build(folder.url)
        #expect(first.searchedFromCache == 0)
        let before = snapshot(of: folder.url.appendingPathComponent("Output"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output/Sounds/1.caf"))
        let second = try await build(folder.url)
        #expect(!second.upToDate)
        #expect(second.searchedFromCache > 0)
        #expect(second.manifest == first.manifest)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
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
        let entries = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".clip") }.sorted()
        #expect(entries.count == 4)  // one per recording
        // Damaged measurements (a flipped byte, cut short) and damaged samples (a flipped byte, cut short).
        for (index, name) in entries.enumerated() {
            let url = cache.appendingPathComponent(name)
            var data = try Data(contentsOf: url)
            switch index {
            case 0: data[12] ^= 0x01
            case 1: data = data.prefix(20)
            case 2: data[data.count - 100] ^= 0x01
            default: data = data.prefix(data.count - 100)
            }
            try data.write(to: url)
        }
        // Force a rebuild past the up-to-date check: remove Output.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        let corrupt = try await build(folder.url)
        // The two with intact measurements are read from the cache, their samples made again.
        #expect(corrupt.preparedFromCache == 2)
        #expect(corrupt.finishedFromCache == 0)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
        try FileManager.default.removeItem(at: cache)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        _ = try await build(folder.url)
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == reference)
    }
}

extension CacheTests {
    /// A recording rewritten with the same bytes (new time stamp) is hashed again and found unchanged;
    /// one rewritten with other bytes of the same size, under the same time stamp, is not trusted by
    /// its stamp when its inode changed.
    @Test func stampsOnlyShortcutUntouchedFiles() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let url = assets.appendingPathComponent("yuan.wav")
        try setModified(url, secondsAgo: 3600)
        _ = try await build(folder.url)
        let bytes = try Data(contentsOf: url)
        try FileManager.default.removeItem(at: url)
        try bytes.write(to: url)
        let same = try await build(folder.url)
        #expect(same.upToDate)
        // Other bytes, same size, same time stamp as recorded; only the inode differs.
        try setModified(url, secondsAgo: 3600)
        let recorded = try FileManager.default.attributesOfItem(atPath: url.path)
        var changed = bytes
        changed[changed.count - 2] ^= 0x10
        let replacement = assets.appendingPathComponent(".replacement")
        try changed.write(to: replacement)
        try FileManager.default.setAttributes([.modificationDate: recorded[.modificationDate]!], ofItemAtPath: replacement.path)
        #expect(rename(replacement.path, url.path) == 0)
        let after = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect(after[.size] as? Int == recorded[.size] as? Int)
        #expect(after[.modificationDate] as? Date == recorded[.modificationDate] as? Date)
        #expect(after[.systemFileNumber] as? Int != recorded[.systemFileNumber] as? Int)
        let rebuilt = try await build(folder.url)
        #expect(!rebuilt.upToDate)
        #expect(rebuilt.preparedFromCache == 3)
        #expect(rebuilt.manifest.clip(named: "yuan")?.source.sha256 == SHA256.hex(changed))
    }
}

/// Sets `url`'s modification time `secondsAgo` seconds in the past (or the future, when negative).
func setModified(_ url: URL, secondsAgo: Double) throws {
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-secondsAgo)], ofItemAtPath: url.path)
}
