import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a review of issue 31's voice packs found (each failed before its fix): replayed packs of
/// another voice, a stale pack of the bundled voice's name, a voice resolved just before a newer
/// install, a lost `current.json`, a suspension while staging, and the launch install.
@Suite struct VoicePackReviewTests {
    /// The app asks its server for the voice "woman"; the network (or a compromised mirror or CDN)
    /// answers with an old pack the publisher once signed for the bundled voice's name. It installs
    /// (install takes no expected voice, and the bundled set has no version to be newer than), and
    /// from then on every push plays that old set instead of the app's newer bundled one: a rollback
    /// past the bundled voice, and a pack of a voice nobody asked for.
    @Test func aStaleSignedPackOfTheBundledVoiceNameDoesNotShadowTheBundledSet() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let old = try fixture.set("OldDefault", word: 2400)
        let bundled = try fixture.set("NewBundled", word: 2800)
        // Signed by the publisher long ago (version 1), replayed now in answer to a request for "woman".
        let replayed = try fixture.pack(old, voice: "default", version: 1)
        #expect(throws: PackError.otherVoice(expected: "woman", pack: "default")) {
            try VoicePackInstaller.install(replayed, into: fixture.group, verifier: fixture.key, expectedVoice: "woman")
        }
        #expect(fixture.entries("default").isEmpty)
        // Asked for the default voice, the old pack installs; the app's bundled set, made as version
        // 2, still plays, and a newer pack of the default voice would.
        _ = try VoicePackInstaller.install(replayed, into: fixture.group, verifier: fixture.key, expectedVoice: "default")
        let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default", bundledVersion: 2)
        #expect(resolved.set.id == bundled.id && resolved.fallback == nil, "the old pack's set \(old.id) plays instead of the newer bundled \(bundled.id)")
        _ = try fixture.install(try fixture.pack(old, voice: "default", version: 3))
        #expect(VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default", bundledVersion: 2).set.id == old.id)
    }

    /// The extension resolves the voice (version 1), then the app installs version 2 before the
    /// extension's announcer copies version 1's clips into Library/Sounds; no queued announcement
    /// uses version 1 yet, so the install removes its folder under the group's lock, and the push
    /// decided a moment later has no clips to copy.
    @Test func aVoiceResolvedJustBeforeANewerVersionIsInstalledStillAnnounces() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let one = try fixture.set("One", word: 3200)
        let two = try fixture.set("Two", word: 2400)
        let bundled = try fixture.set("Bundled", word: 2800)
        try VoiceChoice.choose("woman", in: fixture.group)
        _ = try fixture.install(try fixture.pack(one, version: 1))
        let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default")
        #expect(resolved.set.id == one.id && resolved.fallback == nil)
        // The app, meanwhile.
        _ = try fixture.install(try fixture.pack(two, version: 2), now: 1000)
        let decision = Announcer(set: resolved.set, group: fixture.group, clock: ManualClock(1000)).announce(
            AnnouncementRequest(amount: .text("12"), arrival: 1000))
        #expect(decision.outcome == .announced, "outcome \(decision.outcome): \(decision.reason ?? "")")
    }

    /// `current.json` lost or unreadable (a bug, a restore, a bad block) while the newer version's
    /// folder is whole: the floor against a downgrade is gone with it, and a replayed older pack from
    /// the network installs and deletes the newer version.
    @Test func anUnreadableCurrentJsonDoesNotOpenADowngrade() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let one = try fixture.set("One", word: 3200)
        let two = try fixture.set("Two", word: 2400)
        _ = try fixture.install(try fixture.pack(two, version: 2))
        try Data("{".utf8).write(to: fixture.voiceFolder().appendingPathComponent("current.json"))
        #expect(throws: PackError.self) { try fixture.install(try fixture.pack(one, version: 1)) }
        #expect(fixture.entries().contains("2-\(two.id)"))
    }

    /// iOS kills a process suspended while it holds a file lock in a shared container (0xdead10cc).
    /// The pack's staging claim is a `flock` held while the version's files are written: when the
    /// background task expires (the gate closes), the install stops before the next file, lets the
    /// claim go, takes no group lock, and leaves the voice as it was.
    @Test func aClosedGateStopsTheInstallWithNoLockHeld() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        _ = try fixture.install(try fixture.pack(try fixture.set("One", word: 3200), version: 1))
        let before = fixture.entries()
        let pack = try VoicePack.open(try fixture.pack(try fixture.set("Woman"), version: 2), verifier: fixture.key)
        let gate = SuspensionGate()
        var lockedAtClose = false
        #expect(throws: PackError.self) {
            try VoicePackInstaller.install(pack, into: fixture.group, now: 1000, gate: gate) { step in
                if case .wrote(2) = step {
                    lockedAtClose = Self.someFileIsLocked(in: fixture.voiceFolder())
                    gate.close()
                }
                return false
            }
        }
        #expect(lockedAtClose, "the staging claim is held while the files are written")
        #expect(!Self.someFileIsLocked(in: fixture.voiceFolder()))
        #expect(fixture.entries() == before)
    }

    /// docs/ios.md has the app install the bundled set at every launch (`SoundSetInstaller.install`,
    /// to keep the first copy of the clips out of a push), and says nothing of the chosen voice: that
    /// install removes every other set's clips from Library/Sounds (none queued), the chosen voice's
    /// included, so the first push after every launch copies the whole voice again, in the
    /// extension's 30 s and 24 MB.
    @Test func theDocumentedLaunchInstallKeepsTheChosenVoicesClipsInstalled() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let woman = try fixture.set("Woman", word: 2400)
        let bundled = try fixture.set("Bundled", word: 2800)
        _ = try fixture.install(try fixture.pack(woman))
        try VoiceChoice.choose("woman", in: fixture.group)
        let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default")
        let decision = Announcer(set: resolved.set, group: fixture.group, clock: ManualClock(1000)).announce(
            AnnouncementRequest(amount: .text("12"), arrival: 1000))
        #expect(decision.outcome == .announced)
        let installedClips = { (id: String) in
            ((try? FileManager.default.contentsOfDirectory(atPath: fixture.group.sounds.path)) ?? []).filter { $0.hasPrefix("ss\(id)-") }
        }
        #expect(!installedClips(woman.id).isEmpty)
        // The app is opened later (the announcement long played): its launch install, as docs/ios.md
        // writes it (the resolved voice's set, not the bundled one).
        let atLaunch = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default").set
        _ = try SoundSetInstaller.install(atLaunch, into: fixture.group, now: 5000)
        #expect(!installedClips(woman.id).isEmpty, "the launch install removed the chosen voice's clips")
    }

    /// Whether another open file description holds a `flock` on some file in `folder`.
    static func someFileIsLocked(in folder: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let file = open(folder.appendingPathComponent(name).path, O_RDONLY | O_NONBLOCK)
            guard file >= 0 else { continue }
            defer { close(file) }
            var info = stat()
            guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if flock(file, LOCK_SH | LOCK_NB) != 0 { return true }
            flock(file, LOCK_UN)
        }
        return false
    }
}
