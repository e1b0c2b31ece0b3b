import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// The manifest is derived data (issue 22): every value it records is held to what the recordings
/// and soundset.json give. Hand edits of the announcement settings and of a clip's speech bounds
/// once passed the check and left the build "up to date".
@Suite struct ManifestDerivationTests {
    /// A complete zh-CN set built in a temporary folder, and its manifest's bytes.
    func builtSet() throws -> (TemporaryDirectory, Data) {
        let folder = try TemporaryDirectory()
        try AssetPacks.completeChinese(in: try folder.folder("Assets"))
        let built = try SoundsetExecutable.run(["build", "--quiet", "--no-report"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        return (folder, try Data(contentsOf: folder.url.appendingPathComponent("Output/manifest.json")))
    }

    /// Rewrites the manifest in `folder` with `edit` applied to its JSON.
    func edit(_ folder: URL, _ edit: (inout [String: Any]) -> Void) throws {
        let url = folder.appendingPathComponent("Output/manifest.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        edit(&json)
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(to: url)
    }

    /// `json["announcement"][key] = value` (nil removes it).
    static func announcement(_ key: String, _ value: Any?) -> (inout [String: Any]) -> Void {
        { json in
            var announcement = json["announcement"] as! [String: Any]
            announcement[key] = value
            json["announcement"] = announcement
        }
    }

    /// Clip `name`'s speech bounds moved by `start` and `end` frames.
    static func speech(of name: String, start: Int, end: Int) -> (inout [String: Any]) -> Void {
        { json in
            var clips = json["clips"] as! [[String: Any]]
            let index = clips.firstIndex { $0["name"] as? String == name }!
            var speech = clips[index]["speech"] as! [String: Int]
            speech["start"]! += start
            speech["end"]! += end
            clips[index]["speech"] = speech
            json["clips"] = clips
        }
    }

    static let fix =
        "(the manifest is made from the recordings and soundset.json, never edited): run soundset build --assets Assets --output Output"

    @Test func theCheckNamesEveryEditedValue() throws {
        let (folder, original) = try builtSet()
        defer { folder.remove() }
        let clean = try SoundsetExecutable.run(["check"], in: folder.url)
        let before = try Manifest.decode(original)
        let speech = before.clip(named: "7")!.speech!
        for change in [
            Self.announcement("bannerSeconds", 30), Self.announcement("dedupeSeconds", 0), Self.announcement("prefix", nil),
            Self.announcement("delivery", "chain"), Self.announcement("maxWaitSeconds", 1), Self.announcement("spacingSeconds", 2),
            Self.speech(of: "7", start: 1, end: -20),
        ] {
            try edit(folder.url, change)
        }
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        let lines = check.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("[freshness]") }
        let manifest = "[freshness] Output/manifest.json:"
        #expect(
            lines == [
                "\(manifest) announcement.bannerSeconds is 30, but Assets gives 5 \(Self.fix)",
                "\(manifest) announcement.dedupeSeconds is 0, but Assets gives 600 \(Self.fix)",
                "\(manifest) announcement.delivery is \"chain\", but Assets gives \"composed\" \(Self.fix)",
                "\(manifest) announcement.maxWaitSeconds is 1, but Assets gives 20 \(Self.fix)",
                "\(manifest) announcement.prefix is absent, but Assets gives \"received\" \(Self.fix)",
                "\(manifest) announcement.spacingSeconds is 2, but Assets gives 0.3 \(Self.fix)",
                "\(manifest) clips[7].speech.end is \(speech.end - 20), but Assets gives \(speech.end) \(Self.fix)",
                "\(manifest) clips[7].speech.start is \(speech.start + 1), but Assets gives \(speech.start) \(Self.fix)",
            ], "\(check.stdout)")
        // Nothing else is said but what the clean set's check said, and the summary.
        #expect(check.stdout.split(separator: "\n").count == clean.stdout.split(separator: "\n").count + lines.count)

        // The build calls such a set changed, and writes the manifest it makes again.
        let build = try SoundsetExecutable.run(["build", "--no-report"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(!build.stdout.contains("up to date"), "\(build.stdout)")
        #expect(
            build.stderr.hasPrefix(
                "soundset: Output/manifest.json is not what Assets gives (announcement.bannerSeconds, announcement.dedupeSeconds, announcement.delivery, announcement.maxWaitSeconds, announcement.prefix, announcement.spacingSeconds and 2 more): the set is built again\n"
            ), "\(build.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("Output/manifest.json")) == original)
        #expect(try SoundsetExecutable.run(["check"], in: folder.url).stdout == clean.stdout)
    }

    /// Each value the issue found passing, alone: the build does not call the set up to date.
    @Test func eachEditedValueMakesTheSetChanged() throws {
        let (folder, original) = try builtSet()
        defer { folder.remove() }
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("announcement.bannerSeconds", Self.announcement("bannerSeconds", 30)),
            ("announcement.dedupeSeconds", Self.announcement("dedupeSeconds", 0)),
            ("announcement.prefix", Self.announcement("prefix", "yuan")),
            ("announcement.delivery", Self.announcement("delivery", "auto")),
            ("announcement.maxWaitSeconds", Self.announcement("maxWaitSeconds", 2)),
            ("announcement.spacingSeconds", Self.announcement("spacingSeconds", 1)),
            ("clips[3].speech.end", Self.speech(of: "3", start: 0, end: -1)),
            ("loudness.setLevel", { $0["loudness"] = ($0["loudness"] as! [String: Any]).merging(["setLevel": -30]) { _, new in new } }),
        ]
        for (key, change) in edits {
            try edit(folder.url, change)
            let build = try SoundsetExecutable.run(["build", "--quiet", "--no-report"], in: folder.url)
            #expect(build.status == 0)
            #expect(
                build.stderr.hasPrefix("soundset: Output/manifest.json is not what Assets gives (\(key)): the set is built again\n"),
                "\(key): \(build.stderr)")
            #expect(try Data(contentsOf: folder.url.appendingPathComponent("Output/manifest.json")) == original, "\(key)")
        }
        // Without the cache the check makes the set again to compare (the same figures, in memory).
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(".soundset-cache"))
        try edit(folder.url, Self.announcement("bannerSeconds", 30))
        let cold = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(cold.stdout.contains("[freshness] Output/manifest.json: announcement.bannerSeconds is 30, but Assets gives 5 \(Self.fix)\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(".soundset-cache/build-Output.record").path))
        // `soundset report` writes no report of a set that is not the one built.
        #expect(try SoundsetExecutable.run(["report"], in: folder.url).status == 1)
    }
}
