import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct VoicePackInstallerTests {
    @Test func aGoodPackInstallsAsASetWhoseClipsCompose() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let set = try fixture.set("Woman")
        let installed = try fixture.install(try fixture.pack(set, version: 2))
        #expect(installed.voice == "woman" && installed.locale == "zh-CN" && installed.version == 2 && installed.setId == set.id)
        #expect(installed.folder.path == fixture.voiceFolder().appendingPathComponent("2-\(set.id)").path)
        #expect(VoicePackInstaller.installed(in: fixture.group) == [installed])
        #expect(fixture.entries() == ["2-\(set.id)", "current.json"])
        let current = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.voiceFolder().appendingPathComponent("current.json"))) as? [String: Any]
        #expect(current?["setId"] as? String == set.id && current?["version"] as? Int == 2)

        // Every clip's file and copy, byte for byte, and the manifest.
        let loaded = try SoundSet(folder: installed.folder)
        #expect(loaded.id == set.id && loaded.manifest == set.manifest)
        for clip in set.manifest.clips {
            let source = try Data(contentsOf: set.soundsFolder.appendingPathComponent(clip.file))
            #expect(try Data(contentsOf: loaded.soundsFolder.appendingPathComponent(clip.file)) == source)
            if let copy = clip.copy { #expect(try Data(contentsOf: loaded.soundsFolder.appendingPathComponent(copy)) == source) }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: loaded.soundsFolder.path)
        #expect(files.count == set.manifest.clips.count + set.manifest.clips.filter { $0.copy != nil }.count)

        // The installed set announces: its clips end to end.
        let other = try TemporaryDirectory("voices-announce")
        defer { other.remove() }
        let decision = Announcer(set: loaded, group: GroupFolder(other.url), clock: ManualClock(1000)).announce(
            AnnouncementRequest(amount: .text("12"), arrival: 1000))
        #expect(decision.outcome == .announced && decision.clips == ["received", "ten", "2", "yuan"])
        let composed = try SoundData(parsing: Data(contentsOf: other.url.appendingPathComponent("Library/Sounds/\(decision.sound ?? "")")), name: "x")
        #expect(composed.frames == 12000 + 3 * 3200)
    }

    @Test func theSamePackTwiceChangesNothingAndADamagedOneIsMended() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let data = try fixture.pack(try fixture.set("Woman"))
        let first = try fixture.install(data)
        let clip = first.folder.appendingPathComponent("Sounds/7.caf")
        let inode = try FileManager.default.attributesOfItem(atPath: clip.path)[.systemFileNumber] as? Int
        let before = snapshot(of: fixture.voiceFolder())
        #expect(try fixture.install(data) == first)
        #expect(try FileManager.default.attributesOfItem(atPath: clip.path)[.systemFileNumber] as? Int == inode)
        #expect(snapshot(of: fixture.voiceFolder()) == before)
        // A clip lost after the install: the same pack puts it back.
        try FileManager.default.removeItem(at: clip)
        #expect(VoicePackInstaller.installed(in: fixture.group).isEmpty)
        #expect(try fixture.install(data) == first)
        #expect(snapshot(of: fixture.voiceFolder()) == before)
    }

    @Test func noDowngradeAndNoOtherSetUnderTheSameVersion() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let one = try fixture.set("One", word: 3200)
        let two = try fixture.set("Two", word: 2400)
        let installed = try fixture.install(try fixture.pack(two, version: 2))
        let before = snapshot(of: fixture.voiceFolder())
        #expect(throws: PackError.olderVersion(voice: "woman", version: 1, installed: 2)) { try fixture.install(try fixture.pack(one, version: 1)) }
        #expect(throws: PackError.sameVersionOtherSet(voice: "woman", version: 2, installed: two.id, pack: one.id)) {
            try fixture.install(try fixture.pack(one, version: 2))
        }
        #expect(snapshot(of: fixture.voiceFolder()) == before)
        #expect(VoicePackInstaller.installed(in: fixture.group) == [installed])
        // A tampered pack leaves the installed voice as it was too.
        #expect(throws: PackError.badSignature) { try fixture.install(try fixture.pack(one, version: 3, key: FakeKey("another"))) }
        #expect(snapshot(of: fixture.voiceFolder()) == before)
    }

    @Test func aNewerVersionReplacesTheOlderOnceNoQueuedAnnouncementUsesIt() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let sets = try [fixture.set("One", word: 3200), fixture.set("Two", word: 2400), fixture.set("Three", word: 2000)]
        let first = try fixture.install(try fixture.pack(sets[0], version: 1))
        // An announcement decided with version 1, queued until about 1002.
        let decision = Announcer(set: try SoundSet(folder: first.folder), group: fixture.group, clock: ManualClock(1000)).announce(
            AnnouncementRequest(amount: .text("1"), arrival: 1000))
        #expect(decision.outcome == .announced)
        _ = try fixture.install(try fixture.pack(sets[1], version: 2), now: 1001)
        #expect(fixture.entries() == ["1-\(sets[0].id)", "2-\(sets[1].id)", "current.json"])
        #expect(VoicePackInstaller.installed(in: fixture.group).map(\.version) == [2])
        // Version 1 is gone (nothing queued uses it any more); version 2, just replaced, stays until
        // the next install (an extension may have resolved it a moment before).
        _ = try fixture.install(try fixture.pack(sets[2], version: 3), now: 5000)
        #expect(fixture.entries() == ["2-\(sets[1].id)", "3-\(sets[2].id)", "current.json"])
    }

    @Test(arguments: [VoicePackInstaller.Step.wrote(1), .wrote(7), .staged, .placed, .switched])
    func aKillAtAnyStepLeavesAWholeVoiceAndTheNextInstallCleansUp(step: VoicePackInstaller.Step) throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let sets = try [fixture.set("One", word: 3200), fixture.set("Two", word: 2400), fixture.set("Three", word: 2000)]
        let bundled = try fixture.set("Bundled", word: 2800)
        try VoiceChoice.choose("woman", in: fixture.group)
        _ = try fixture.install(try fixture.pack(sets[0], version: 1))
        let killed = try VoicePack.open(try fixture.pack(sets[1], version: 2), verifier: fixture.key)
        _ = try VoicePackInstaller.install(killed, into: fixture.group, now: 1000, stopAfter: { $0 == step })

        let expected = step == .switched ? sets[1] : sets[0]
        #expect(VoicePackInstaller.installed(in: fixture.group).map(\.setId) == [expected.id])
        let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default", thorough: true)
        #expect(resolved.set.id == expected.id && resolved.voice == "woman" && resolved.fallback == nil)
        let leftovers = fixture.entries().filter { $0 != "current.json" && $0 != "1-\(sets[0].id)" }
        switch step {
        case .wrote, .staged: #expect(leftovers.count == 1 && leftovers[0].hasPrefix(".staging-"))
        case .placed, .switched: #expect(leftovers == ["2-\(sets[1].id)"])
        }
        // What the kill left goes with the next install, but the version it replaces.
        _ = try fixture.install(try fixture.pack(sets[2], version: 3))
        #expect(fixture.entries() == [step == .switched ? "2-\(sets[1].id)" : "1-\(sets[0].id)", "3-\(sets[2].id)", "current.json"])
        #expect(VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default", thorough: true).set.id == sets[2].id)
    }

    @Test func aFirstInstallKilledLeavesNoVoiceAndTheBundledOnePlays() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let set = try fixture.set("Woman")
        let bundled = try fixture.set("Bundled", word: 2800)
        try VoiceChoice.choose("woman", in: fixture.group)
        let pack = try VoicePack.open(try fixture.pack(set), verifier: fixture.key)
        _ = try VoicePackInstaller.install(pack, into: fixture.group, now: 1000, stopAfter: { $0 == .placed })
        #expect(fixture.entries() == ["1-\(set.id)"])
        #expect(VoicePackInstaller.installed(in: fixture.group).isEmpty)
        let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default")
        #expect(resolved.set.id == bundled.id && resolved.voice == "default")
        #expect(resolved.fallback == "voice 'woman' is not installed: the bundled voice 'default' plays")
        // The same pack again finishes it.
        _ = try fixture.install(try fixture.pack(set))
        #expect(fixture.entries() == ["1-\(set.id)", "current.json"])
        #expect(VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default").set.id == set.id)
    }

    @Test func aStagingFolderALiveInstallClaimsIsKeptAndADeadOnesRemoved() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let one = try fixture.set("One", word: 3200)
        _ = try fixture.install(try fixture.pack(one, version: 1))
        let folder = fixture.voiceFolder()
        for name in [".staging-live", ".staging-dead"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("\(name)/Sounds"), withIntermediateDirectories: true)
            try Data("half".utf8).write(to: folder.appendingPathComponent("\(name)/Sounds/0.caf"))
        }
        let liveClaim = ".\(".staging-live").\(UUID().uuidString).tmp"
        let deadClaim = ".\(".staging-dead").\(UUID().uuidString).tmp"
        let deadCurrent = ".current.json.\(UUID().uuidString).tmp"
        for name in [liveClaim, deadClaim, deadCurrent] { try Data().write(to: folder.appendingPathComponent(name)) }
        let descriptor = open(folder.appendingPathComponent(liveClaim).path, O_RDONLY)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let two = try fixture.set("Two", word: 2400)
        _ = try fixture.install(try fixture.pack(two, version: 2))
        #expect(fixture.entries() == [liveClaim, ".staging-live", "1-\(one.id)", "2-\(two.id)", "current.json"].sorted())
    }
}
