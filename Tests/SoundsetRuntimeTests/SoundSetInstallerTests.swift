import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct SoundSetInstallerTests {
    @Test func installsEveryClipAndCopyUnderTheSetsOwnNames() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        let installed = try SoundSetInstaller.install(shop.set, into: shop.group, now: 1000)
        let id = shop.set.id
        #expect(id.count == 10)
        #expect(installed.id == id)
        #expect(installed.soundsFolder == shop.group.sounds)
        let expected = shop.set.manifest.clips.flatMap { [$0.file] + [$0.copy].compactMap { $0 } }.map { "ss\(id)-\($0)" }
        #expect(shop.soundFiles == expected.sorted())
        #expect(installed.manifest.clips.map(\.file) == shop.set.manifest.clips.map { "ss\(id)-\($0.file)" })
        for clip in shop.set.manifest.clips {
            let source = try Data(contentsOf: shop.set.soundsFolder.appendingPathComponent(clip.file))
            #expect(try Data(contentsOf: shop.group.sounds.appendingPathComponent("ss\(id)-\(clip.file)")) == source)
            if let copy = clip.copy { #expect(try Data(contentsOf: shop.group.sounds.appendingPathComponent("ss\(id)-\(copy)")) == source) }
        }
    }

    @Test func aSecondInstallIsAStatPerFileAndRepairsWhatChanged() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try SoundSetInstaller.install(shop.set, into: shop.group, now: 1000)
        let file = shop.group.sounds.appendingPathComponent("ss\(shop.set.id)-7.caf")
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        try SoundSetInstaller.install(shop.set, into: shop.group, now: 1001)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == before)
        // A file cut short is written again.
        try Data("short".utf8).write(to: file)
        try SoundSetInstaller.install(shop.set, into: shop.group, now: 1002)
        #expect(try Data(contentsOf: file) == Data(contentsOf: shop.set.soundsFolder.appendingPathComponent("7.caf")))
    }

    @Test func refusesAShippedClipThatIsNotTheManifests() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try Data("not the take".utf8).write(to: shop.set.soundsFolder.appendingPathComponent("ten.caf"))
        #expect(throws: InstallError.stale(clip: "ten", file: "Sounds/ten.caf")) { try SoundSetInstaller.install(shop.set, into: shop.group) }
        try FileManager.default.removeItem(at: shop.set.soundsFolder.appendingPathComponent("ten.caf"))
        #expect(throws: InstallError.source(file: "Sounds/ten.caf", reason: "the clip file is missing")) {
            try SoundSetInstaller.install(shop.set, into: shop.group)
        }
    }

    @Test func removesEarlierSetsButNeverTheAppsOwnSounds() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        try FileManager.default.createDirectory(at: shop.group.sounds, withIntermediateDirectories: true)
        for name in ["ding.caf", "ss0123456789-1.caf", "ssXYZ-1.caf"] {
            try Data("x".utf8).write(to: shop.group.sounds.appendingPathComponent(name))
        }
        try SoundSetInstaller.install(shop.set, into: shop.group)
        #expect(shop.soundFiles.contains("ding.caf"))
        #expect(shop.soundFiles.contains("ssXYZ-1.caf"))
        #expect(!shop.soundFiles.contains("ss0123456789-1.caf"))
    }

    @Test func findsTheAppBundleFromAnExtension() {
        let app = URL(fileURLWithPath: "/private/var/containers/Bundle/Application/X/Pay.app")
        #expect(SoundSet.appBundle(containing: app.appendingPathComponent("PlugIns/Announce.appex")).path == app.path)
        #expect(SoundSet.appBundle(containing: app).path == app.path)
    }

    @Test func aSetsIdChangesWithAnyClip() throws {
        let shop = try Shop()
        defer { shop.folder.remove() }
        var manifest = shop.set.manifest
        #expect(SoundSet(manifest: manifest, folder: shop.set.folder).id == shop.set.id)
        manifest.clips[4].sha256 = String(repeating: "e", count: 64)
        #expect(SoundSet(manifest: manifest, folder: shop.set.folder).id != shop.set.id)
    }
}
