import Foundation
import SoundsetBuild
import SoundsetTestSupport
import Testing

/// What `build --watch` polls: a fingerprint that changes with every write, rename, addition and
/// removal in the assets folder, and with nothing else.
@Suite struct AssetsFingerprintTests {
    @Test func changesWithEveryTakeAndNothingElse() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let start = AssetsFingerprint.of(assets)
        #expect(AssetsFingerprint.of(assets) == start)
        // Hidden files and other folders are not the build's.
        try Data("x".utf8).write(to: assets.appendingPathComponent(".DS_Store"))
        try Data("x".utf8).write(to: folder.url.appendingPathComponent("elsewhere.wav"))
        #expect(AssetsFingerprint.of(assets) == start)

        let take = assets.appendingPathComponent("3.wav")
        // The same bytes written again: a new modification time.
        let bytes = try Data(contentsOf: take)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: take.path)
        let touched = AssetsFingerprint.of(assets)
        #expect(touched != start)
        try bytes.write(to: take)
        #expect(AssetsFingerprint.of(assets) != touched)

        var seen = AssetsFingerprint.of(assets)
        try FileManager.default.moveItem(at: take, to: assets.appendingPathComponent("4.wav"))
        #expect(AssetsFingerprint.of(assets) != seen)
        seen = AssetsFingerprint.of(assets)
        try Data("{}".utf8).write(to: assets.appendingPathComponent("soundset.json"))
        #expect(AssetsFingerprint.of(assets) != seen)
        seen = AssetsFingerprint.of(assets)
        try FileManager.default.removeItem(at: assets.appendingPathComponent("4.wav"))
        #expect(AssetsFingerprint.of(assets) != seen)
        // A folder that goes away and comes back.
        seen = AssetsFingerprint.of(assets)
        try FileManager.default.moveItem(at: assets, to: folder.url.appendingPathComponent("Moved"))
        let gone = AssetsFingerprint.of(assets)
        #expect(gone != seen)
        try FileManager.default.moveItem(at: folder.url.appendingPathComponent("Moved"), to: assets)
        #expect(AssetsFingerprint.of(assets) != gone)
    }
}
