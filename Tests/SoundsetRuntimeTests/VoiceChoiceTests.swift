import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct VoiceChoiceTests {
    @Test func theChoiceIsKeptInTheGroupAndCleared() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        #expect(VoiceChoice.chosen(in: fixture.group) == nil)
        try VoiceChoice.choose("man", in: fixture.group)
        #expect(VoiceChoice.chosen(in: fixture.group) == "man")
        let file = fixture.group.state.appendingPathComponent("voice.json")
        #expect(try String(contentsOf: file, encoding: .utf8) == "{\n  \"schemaVersion\" : 1,\n  \"voice\" : \"man\"\n}\n")
        try VoiceChoice.choose("woman", in: fixture.group)
        #expect(VoiceChoice.chosen(in: fixture.group) == "woman")
        #expect(throws: VoiceChoice.Failure.badName("../man")) { try VoiceChoice.choose("../man", in: fixture.group) }
        #expect(VoiceChoice.chosen(in: fixture.group) == "woman")
        try VoiceChoice.choose(nil, in: fixture.group)
        #expect(VoiceChoice.chosen(in: fixture.group) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func theChosenVoiceWhenWholeElseTheBundledOneWithTheReason() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let bundled = try fixture.set("Bundled", word: 3200)
        let woman = try fixture.set("Woman", word: 2400)
        func resolve(thorough: Bool = false) -> (id: String, voice: String, fallback: String?) {
            let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default", thorough: thorough)
            return (resolved.set.id, resolved.voice, resolved.fallback)
        }
        #expect(resolve() == (bundled.id, "default", nil))
        try VoiceChoice.choose("woman", in: fixture.group)
        #expect(resolve() == (bundled.id, "default", "voice 'woman' is not installed: the bundled voice 'default' plays"))
        let pack = try fixture.pack(woman)
        let installed = try fixture.install(pack)
        #expect(resolve() == (woman.id, "woman", nil))
        #expect(resolve(thorough: true) == (woman.id, "woman", nil))

        let sounds = installed.folder.appendingPathComponent("Sounds")
        let damages: [(damage: () throws -> Void, reason: String, cheap: Bool)] = [
            ({ try FileManager.default.removeItem(at: sounds.appendingPathComponent("3Copy.caf")) }, "Sounds/3Copy.caf is missing", true),
            ({ try Data("short".utf8).write(to: sounds.appendingPathComponent("ten.caf")) }, "Sounds/ten.caf is not the size installed", true),
            (
                { try Data(contentsOf: sounds.appendingPathComponent("yuan.caf")).flipping(200).write(to: sounds.appendingPathComponent("yuan.caf")) },
                "Sounds/yuan.caf differs from the manifest's sha256", false
            ),
            (
                { try Data("{".utf8).write(to: installed.folder.appendingPathComponent("manifest.json")) },
                "not a soundset manifest: no schemaVersion (not valid JSON)", true
            ),
            ({ try Data("{".utf8).write(to: fixture.voiceFolder().appendingPathComponent("current.json")) }, "current.json cannot be read", true),
            ({ try FileManager.default.removeItem(at: installed.folder) }, "its folder 1-\(woman.id) is missing", true),
        ]
        for (damage, reason, cheap) in damages {
            try damage()
            let found = resolve(thorough: true)
            #expect(found.id == bundled.id && found.voice == "default", "\(reason)")
            #expect(found.fallback?.hasPrefix("voice 'woman' is damaged (") == true && found.fallback?.contains(reason) == true, "\(found.fallback ?? "")")
            #expect(found.fallback?.hasSuffix("install its pack again: the bundled voice 'default' plays") == true)
            #expect((resolve().id == bundled.id) == cheap, "\(reason)")
            // The same pack again mends it.
            #expect(try fixture.install(pack) == installed)
            #expect(resolve(thorough: true) == (woman.id, "woman", nil))
        }

        try Data("{\"voice\":\"../x\"}".utf8).write(to: fixture.group.state.appendingPathComponent("voice.json"))
        #expect(resolve() == (bundled.id, "default", "soundset/voice.json is not a voice choice: the bundled voice 'default' plays"))
        #expect(VoiceChoice.chosen(in: fixture.group) == nil)
    }

    @Test func aPackUnderTheBundledVoicesNameReplacesTheBundledSet() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let bundled = try fixture.set("Bundled", word: 3200)
        let update = try fixture.set("Update", word: 2400)
        _ = try fixture.install(try fixture.pack(update, voice: "default"))
        let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default")
        #expect(resolved.set.id == update.id && resolved.voice == "default" && resolved.fallback == nil)
    }

    @Test func oneAnnouncementNeverMixesVoicesAndASwitchChangesOnlyTheOnesDecidedAfterIt() throws {
        let fixture = try VoiceFixture()
        defer { fixture.folder.remove() }
        let bundled = try fixture.set("Bundled", word: 3200, phrase: 12000)
        let woman = try fixture.set("Woman", word: 2400, phrase: 9000)
        let man = try fixture.set("Man", word: 2800, phrase: 10000)
        _ = try fixture.install(try fixture.pack(woman, voice: "woman"))
        _ = try fixture.install(try fixture.pack(man, voice: "man"))
        let clock = ManualClock(1000)
        func announce(_ amount: String, at time: Double) throws -> (decision: AnnouncementDecision, set: SoundSet, file: URL) {
            let resolved = VoiceChoice.resolve(in: fixture.group, bundled: bundled, bundledVoice: "default")
            #expect(resolved.fallback == nil)
            let decision = Announcer(set: resolved.set, group: fixture.group, clock: clock).announce(AnnouncementRequest(amount: .text(amount), arrival: time))
            #expect(decision.delivery == .composed, "\(decision)")
            return (decision, resolved.set, fixture.group.sounds.appendingPathComponent(decision.sound ?? "none"))
        }
        /// The samples of `clips` of `set`, end to end.
        func samples(_ clips: [String], of set: SoundSet) throws -> Data {
            try clips.reduce(into: Data()) { samples, name in
                let file = set.soundsFolder.appendingPathComponent(set.manifest.clip(named: name)?.file ?? "none")
                samples.append(try SoundData(parsing: Data(contentsOf: file), name: name).samples)
            }
        }

        try VoiceChoice.choose("woman", in: fixture.group)
        let first = try announce("1", at: 1000)
        let firstBytes = try Data(contentsOf: first.file)
        try VoiceChoice.choose("man", in: fixture.group)
        let second = try announce("2", at: 1000.5)
        try VoiceChoice.choose(nil, in: fixture.group)
        let third = try announce("3", at: 1001)
        #expect([first.set.id, second.set.id, third.set.id] == [woman.id, man.id, bundled.id])
        // Each announcement is its own voice's clips end to end, and none of another's.
        for made in [first, second, third] {
            let composed = try SoundData(parsing: Data(contentsOf: made.file), name: "composed").samples
            for set in [woman, man, bundled] {
                #expect((composed == (try samples(made.decision.clips, of: set))) == (set.id == made.set.id), "\(made.decision.clips) \(set.id)")
            }
        }
        // The first, decided before the switch, is still the woman's, byte for byte.
        #expect(try Data(contentsOf: first.file) == firstBytes)
    }
}
