import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// `PlayedAnnouncement`: the one rule for what plays, which the announcer decides with and every
/// preview shows. The shop's words last 0.4 s, 收款到账 1.5 s, joined as files; the banner is 5 s.
@Suite struct PlayedAnnouncementTests {
    /// 1234.56 says 11 words (4.40 s), 12345.67 says 13 (5.20 s); with 收款到账, 5.90 and 6.70 s.
    static let amounts = ["1", "1.5", "22.22", "1234.56", "12345.67", "99999999.99", "100000001"]

    static let rules: [(String, AnnouncementSettings)] = [
        ("composed", AnnouncementSettings(join: .file)),
        ("auto", AnnouncementSettings(join: .file, delivery: .auto)),
        ("chain", AnnouncementSettings(join: .file, delivery: .chain)),
        ("lead-in", AnnouncementSettings(join: .file, leadInMs: 300)),
        ("speech", AnnouncementSettings(join: .speech, gapMs: 25, leadInMs: 120)),
    ]

    /// For every amount and every delivery, the preview's clips, outcome, delivery, reason and length
    /// are the announcer's decision's, and its composed file has the preview's frames.
    @Test(arguments: rules.map(\.0)) func thePreviewIsWhatTheAnnouncerPlays(_ name: String) throws {
        var settings = try #require(Self.rules.first { $0.0 == name }).1
        settings.prefix = "received"
        let shop = try Shop(settings, label: "played-\(name)")
        defer { shop.folder.remove() }
        for (index, text) in Self.amounts.enumerated() {
            // Far apart, so no announcement waits for another and no chain is still pending.
            let decision = shop.announce(text, at: 1000 + Double(index) * 100)
            let played = try PlayedAnnouncement.of(try Amount(text), manifest: shop.set.manifest, settings: settings)
            #expect(decision.clips == played.plan.clips, "\(name) \(text)")
            #expect(decision.outcome == played.outcome, "\(name) \(text)")
            #expect(decision.delivery == played.delivery, "\(name) \(text)")
            #expect(decision.reason == played.reason, "\(name) \(text)")
            guard decision.delivery == .composed, let sound = decision.sound else { continue }
            #expect(abs((decision.end - decision.start) - played.seconds) < 1e-9, "\(name) \(text)")
            let file = try SoundData(parsing: Data(contentsOf: shop.group.sounds.appendingPathComponent(sound)), name: sound)
            #expect(file.frames == played.frames, "\(name) \(text)")
            // The preview's own file is the announcer's, byte for byte.
            let preview = try played.sound(manifest: shop.set.manifest, soundsFolder: shop.set.folder.appendingPathComponent(SoundSetLayout.soundsName))
            #expect(preview == (try Data(contentsOf: shop.group.sounds.appendingPathComponent(sound))), "\(name) \(text)")
        }
    }

    @Test func theNoteSaysWhatWasLeftOutAndWhy() throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file))
        defer { shop.folder.remove() }
        let manifest = shop.set.manifest
        func played(_ text: String, _ settings: AnnouncementSettings? = nil) throws -> PlayedAnnouncement {
            try PlayedAnnouncement.of(try Amount(text), manifest: manifest, settings: settings)
        }
        let fits = try played("1")
        #expect(fits.outcome == .announced)
        #expect(fits.plan.clips == ["received", "1", "yuan"])
        #expect(fits.note == nil)

        let shortened = try played("1234.56")
        #expect(shortened.outcome == .shortened)
        #expect(shortened.plan.clips.first == "1")
        #expect(shortened.whole.clips.first == "received")
        #expect(shortened.frames == 11 * 3200)
        #expect(shortened.note == "played without 收款到账: whole it lasts 5.90 s, over the 5 s banner")

        let cut = try played("12345.67")
        #expect(cut.note == "played without 收款到账, and the 5 s banner cuts it off: it lasts 5.20 s")
        var bare = try #require(manifest.announcement)
        bare.prefix = nil
        #expect(try played("12345.67", bare).note == "the 5 s banner cuts it off: it lasts 5.20 s")
        #expect(try played("1234.56", bare).note == nil)

        var auto = try #require(manifest.announcement)
        auto.delivery = .auto
        let chained = try played("12345.67", auto)
        #expect(chained.delivery == .chain)
        #expect(chained.plan.clips.first == "received")
        #expect(chained.note == "played as a chain of 14 notifications: the amount alone lasts 5.20 s, over the 5 s banner")

        var chain = try #require(manifest.announcement)
        chain.delivery = .chain
        #expect(try played("1.5", chain).note == "played as a chain of 5 notifications (announcement.delivery is chain)")

        var leadIn = try #require(manifest.announcement)
        leadIn.leadInMs = 300
        let first = try played("1", leadIn)
        #expect(first.leadInFrames == 2400)
        #expect(first.frames == 2400 + 12000 + 2 * 3200)
        #expect(first.note == "played with 300 ms of silence first (announcement.leadInMs)")
        // The lead-in counts toward the banner: 4.40 s of words and 0.3 s of silence still fit
        // without the prefix; whole it would last 6.20 s.
        #expect(
            try played("1234.56", leadIn).note
                == "played without 收款到账: whole it lasts 6.20 s, over the 5 s banner; with 300 ms of silence first (announcement.leadInMs)")
    }

    @Test func wholeIsTheAnnouncementWithoutTheRules() throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file, delivery: .chain, leadInMs: 300))
        defer { shop.folder.remove() }
        let whole = try PlayedAnnouncement.of(try Amount("12345.67"), manifest: shop.set.manifest, whole: true)
        #expect(whole.plan.clips.first == "received")
        #expect(whole.plan == whole.whole)
        #expect(whole.delivery == .composed)
        #expect(whole.outcome == .announced)
        #expect(whole.leadInFrames == 0)
        #expect(whole.note == nil)
        #expect(whole.frames == 12000 + 13 * 3200)
    }

    @Test func aClipTheSetLacksIsThePlannersError() throws {
        let shop = try Shop(AnnouncementSettings(prefix: "received", join: .file))
        defer { shop.folder.remove() }
        #expect(throws: PlayedAnnouncement.Failure.plan(.missingClips(["dollars", "and", "50", "cents"]))) {
            try PlayedAnnouncement.of(try Amount("2.5"), manifest: shop.set.manifest, locale: .enUS)
        }
    }
}
