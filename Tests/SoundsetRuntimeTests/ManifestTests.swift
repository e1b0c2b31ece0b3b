import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct ManifestTests {
    static let hashA = String(repeating: "a", count: 64)
    static let hashB = String(repeating: "b", count: 64)
    static let sample = Manifest(
        toolVersion: "0.1.0", configurationHash: "abc", locale: .zhCN, sampleRate: 44100, channels: 1,
        container: .caf, encoding: .pcm16,
        loudness: .init(target: -16, truePeakCeiling: -1, maxLimiterReductionDb: 6, setLevel: -16, reason: "the target"),
        clips: [
            .init(
                name: "yuan", file: "yuan.caf", copy: nil, frames: 441, seconds: 0.01, loudness: -16, truePeak: -1.5,
                gain: 3, limiting: 0, sha256: hashA, source: .init(file: "yuan.wav", sha256: hashB)),
            .init(
                name: "2", file: "2.caf", copy: "2Copy.caf", frames: 882, seconds: 0.02, loudness: -16, truePeak: -1.2,
                gain: 1, limiting: 0.5, sha256: hashB, source: .init(file: "2.flac", sha256: hashA)),
        ])

    @Test func roundTripsWithSortedClipsAndKeys() throws {
        let data = try Self.sample.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(try Manifest.decode(data) == Self.sample)
        #expect(Self.sample.clips.map(\.name) == ["2", "yuan"])
        #expect(text.hasPrefix("{\n  \"channels\" : 1,\n  \"clips\" : [\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\"container\" : \"caf\""))
        #expect(text.contains("\"locale\" : \"zh-CN\""))
        #expect(try Self.sample.encoded() == data)
    }

    @Test func refusesAnotherSchema() throws {
        var newer = Self.sample
        newer.schemaVersion = 2
        #expect(throws: ManifestError.newerSchema(path: "m.json", found: 2, supported: 1)) {
            try Manifest.decode(try newer.encoded(), path: "m.json")
        }
        #expect(
            ManifestError.newerSchema(path: "m.json", found: 2, supported: 1).description
                == "m.json: schema version 2 is newer than this soundset reads (1); update soundset")
        var older = Self.sample
        older.schemaVersion = 0
        #expect(throws: ManifestError.invalid(path: "m.json", reason: "schema version 0 is not one this soundset reads (1)")) {
            try Manifest.decode(try older.encoded(), path: "m.json")
        }
    }

    @Test func namesTheMissingKey() throws {
        let error = #expect(throws: ManifestError.self) {
            try Manifest.decode(Data(#"{"schemaVersion": 1, "clips": []}"#.utf8), path: "m.json")
        }
        #expect(error?.description.hasPrefix("m.json: not a soundset manifest: missing key") == true)
    }

    /// Hand-edited manifests that once made the runtime read outside Sounds/ or trap, each refused
    /// by the decoder with the reason. (The same cases seed `make fuzz`: Fuzz/Corpus/manifest.)
    static let hostile: [(String, @Sendable (inout Manifest) -> Void, String)] = [
        ("traversal", { $0.clips[0].file = "../../../secret/private.caf" },
         "clip '2' names the file '../../../secret/private.caf', which is not a plain file name inside Sounds/"),
        ("absolute", { $0.clips[0].copy = "/etc/passwd.caf" }, "clip '2' names the file '/etc/passwd.caf', which is not a plain file name inside Sounds/"),
        ("nul", { $0.clips[1].file = "yu\u{0}an.caf" }, "clip 'yuan' names the file 'yu\\0an.caf', which is not a plain file name inside Sounds/"),
        ("hidden", { $0.clips[1].file = "..caf" }, "clip 'yuan' names the file '..caf', which is not a plain file name inside Sounds/"),
        ("other extension", { $0.clips[1].file = "yuan.mp3" }, "clip 'yuan' names the file 'yuan.mp3', which does not end in .caf like the set"),
        ("huge frames", { $0.clips[0].frames = Int.max }, "clip '2' has 9223372036854775807 frames; a clip has at least 1 and lasts under 30 s"),
        ("no frames", { $0.clips[0].frames = 0 }, "clip '2' has 0 frames; a clip has at least 1 and lasts under 30 s"),
        ("negative frames", { $0.clips[0].frames = -1 }, "clip '2' has -1 frames; a clip has at least 1 and lasts under 30 s"),
        ("zero rate", { $0.sampleRate = 0 }, "sampleRate 0 is out of range (1000 to 384000 Hz)"),
        ("channels", { $0.channels = 0 }, "channels 0 is out of range (1 to 16)"),
        ("negative gap", { $0.announcement = AnnouncementSettings(gapMs: -5) }, "announcement.gapMs -5 ms is out of range (0 to 2000)"),
        ("banner", { $0.announcement = AnnouncementSettings(bannerSeconds: 0) }, "announcement.bannerSeconds 0 s is out of range (1 to 30)"),
        ("bad prefix", { $0.announcement = AnnouncementSettings(prefix: "../x") },
         "announcement.prefix '../x' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed"),
        ("duplicate", { $0.clips.append($0.clips[0]) }, "clip '2' is listed twice"),
        ("shared file", { manifest in
            var extra = manifest.clips[1]
            extra.name = "x"
            extra.file = "2.caf"
            manifest.clips.append(extra)
         }, "clips '2' and 'x' both name the file '2.caf'"),
        ("copy of another", { $0.clips[1].copy = "2Copy.caf" }, "clips '2' and 'yuan' both name the file '2Copy.caf'"),
        ("bad name", { $0.clips[1].name = "yu an" }, "clip 'yu an' is not a clip name: only ASCII letters, digits, '_' and '-' are allowed"),
        ("bad sha256", { $0.clips[1].sha256 = "00" }, "clip 'yuan' has no sha256 of 64 lower-case hex digits"),
    ]

    @Test(arguments: hostile.indices)
    func refusesAHostileManifest(index: Int) throws {
        let (label, edit, reason) = Self.hostile[index]
        var manifest = Self.sample
        edit(&manifest)
        // Encoded without the initialiser's sorting, as a hand edit would leave it.
        let data = try JSONEncoder().encode(manifest)
        #expect(throws: ManifestError.invalid(path: "m.json", reason: reason), "\(label)") { try Manifest.decode(data, path: "m.json") }
    }

    @Test func refusesUnknownVocabulary() throws {
        let text = String(decoding: try Self.sample.encoded(), as: UTF8.self)
        for (key, value, reason) in [
            ("container", "mp3", "container must be one of caf, wav, aiff"), ("encoding", "ima4", "encoding must be one of pcm16, ulaw, alaw"),
            ("locale", "fr-FR", "locale must be one of zh-CN, en-US"),
        ] {
            let original = text.components(separatedBy: "\n").first { $0.contains("\"\(key)\" :") }!
            let edited = text.replacingOccurrences(of: original, with: "  \"\(key)\" : \"\(value)\",")
            #expect(throws: ManifestError.invalid(path: "m.json", reason: reason)) { try Manifest.decode(Data(edited.utf8), path: "m.json") }
        }
    }

    @Test func readsAnOlderManifestsAnnouncementWithDefaults() throws {
        let text = String(decoding: try Self.sample.encoded(), as: UTF8.self)
            .replacingOccurrences(of: "  \"channels\" : 1,", with: "  \"announcement\" : { \"gapMs\" : 40, \"prefix\" : \"yuan\" },\n  \"channels\" : 1,")
        let manifest = try Manifest.decode(Data(text.utf8))
        #expect(manifest.announcement == AnnouncementSettings(prefix: "yuan", join: .file, gapMs: 40))
        #expect(manifest.announcement?.join == .file)
        #expect(manifest.announcement?.bannerSeconds == 5)
        #expect(manifest.announcement?.delivery == .composed)
    }

    @Test func loadRefusesWhatIsNotARegularFileAndHugeFiles() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let fifo = folder.url.appendingPathComponent("manifest.json")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(throws: ManifestError.unreadable(path: fifo.path, reason: "the file is not a regular file")) { try Manifest.load(from: fifo) }
        let huge = folder.url.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(Manifest.maxBytes) + 1)
        try handle.close()
        #expect(throws: ManifestError.tooLarge(path: huge.path, size: 262_145, limit: 262_144)) { try Manifest.load(from: huge) }
    }

    /// A manifest one byte over the cap is refused by its size: a valid manifest padded with spaces
    /// (which would decode) and bytes that are not JSON (which would say so) give the same reason.
    @Test func aManifestOverTheCapIsRefusedBeforeDecoding() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        #expect(Manifest.maxBytes == 256 << 10)
        var padded = try Self.sample.encoded()
        padded.append(Data(repeating: UInt8(ascii: " "), count: Manifest.maxBytes + 1 - padded.count))
        let garbage = Data(repeating: UInt8(ascii: "x"), count: Manifest.maxBytes + 1)
        for (name, data) in [("padded.json", padded), ("garbage.json", garbage)] {
            let url = folder.url.appendingPathComponent(name)
            try data.write(to: url)
            #expect(throws: ManifestError.tooLarge(path: url.path, size: 262_145, limit: 262_144)) { try Manifest.load(from: url) }
            #expect(
                ManifestError.tooLarge(path: url.path, size: 262_145, limit: 262_144).description
                    == "\(url.path): the manifest is 262145 bytes, more than the 262144 an app's extension can afford to read: split the set"
                    + " into sets of fewer clips (about 450 fit; soundset check fails a larger one)")
        }
        // At the cap, the padded manifest decodes.
        let url = folder.url.appendingPathComponent("at-cap.json")
        try padded.dropLast().write(to: url)
        #expect(try Manifest.load(from: url) == Self.sample)
    }

    /// The demo's manifest, a set of 18 clips, is a small fraction of the cap.
    @Test func theDemoManifestIsFarUnderTheCap() throws {
        // The tests' folder, through the runtime-alone package's link to it, then the committed demo's default voice's set.
        let tests = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        let demo = tests.appendingPathComponent("../../Output/voices/zh-CN/manifest.json").standardized
        let data = try Data(contentsOf: demo)
        let manifest = try Manifest.decode(data)
        #expect(manifest.clips.count == 18)
        #expect(data.count < 12 << 10)
        #expect(data.count * 20 < Manifest.maxBytes)
    }

    @Test func thePlannerThrowsInsteadOfTrappingOnAManifestMadeInMemory() {
        var manifest = FakeSets.manifest()
        manifest.clips[2].frames = Int.max
        #expect(throws: PlanError.invalidManifest("clip '2' has 9223372036854775807 frames; a clip has at least 1 and lasts under 30 s")) {
            try Planner(manifest: manifest).plan(try Amount("2"))
        }
        manifest = FakeSets.manifest()
        manifest.sampleRate = 0
        #expect(throws: PlanError.invalidManifest("sampleRate 0 is out of range (1000 to 384000 Hz)")) {
            try Planner(manifest: manifest).plan(try Amount("2"))
        }
    }
}
