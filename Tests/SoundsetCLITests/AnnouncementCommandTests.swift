import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct AnnouncementCommandTests {
    @Test func planPrintsTheClipsAndTiming() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), prefix: "received", gapMs: 0)
        let result = try SoundsetExecutable.run(["plan", "2.22"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "2.22 (zh-CN): received 2 point 2 2Copy yuan")
        #expect(lines.count == 9)  // amount, column heads, 6 steps, total
        #expect(lines.last?.hasPrefix("total ") == true)
        #expect(lines.last?.hasSuffix("in 6 steps, composed") == true)
    }

    @Test func planAsJSONHasTheDocumentedKeys() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try FakeSets.write(in: folder.url.appendingPathComponent("Output"), gapMs: 0)
        let result = try SoundsetExecutable.run(
            ["plan", "200", "--format", "json", "--reading", "useLiang=true", "--prefix", "received", "--gap-ms", "125"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let plan = try JSONDecoder().decode(AnnouncementPlan.self, from: Data(result.stdout.utf8))
        #expect(plan.amount == "200.00")
        #expect(plan.locale == .zhCN)
        #expect(plan.tokens == ["received", "liang", "hundred", "yuan"])
        #expect(plan.clips == plan.tokens)
        #expect(plan.gapFrames == 1000)
        let frames = plan.clips.map { manifest.clip(named: $0)!.frames }
        #expect(plan.totalFrames == frames.reduce(0, +) + 3 * 1000)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        for key in ["amount", "locale", "tokens", "clips", "steps", "totalSeconds"] { #expect(object[key] != nil, "\(key)") }
        let step = (object["steps"] as! [[String: Any]])[0]
        for key in ["clip", "file", "start", "seconds"] { #expect(step[key] != nil, "\(key)") }
    }

    @Test func renderWritesTheComposedFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"), container: .wav, encoding: .ulaw)
        let result = try SoundsetExecutable.run(["render", "123.45", "--out", "a.wav", "--format", "json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let plan = try JSONDecoder().decode(AnnouncementPlan.self, from: Data(result.stdout.utf8))
        let data = try Data(contentsOf: folder.url.appendingPathComponent("a.wav"))
        let sound = try SoundData(parsing: data, name: "a.wav")
        #expect(sound.frames == plan.totalFrames)
        #expect(sound.format.encoding == .ulaw)

        // Written again over the file it wrote, every time (Foundation's replaceItemAt failed every
        // second time on Linux and deleted the file).
        for amount in ["1", "2", "3"] {
            let again = try SoundsetExecutable.run(["render", amount, "--out", "a.wav"], in: folder.url)
            #expect(again.status == 0, "\(again.stderr)")
            let frames = try SoundData(parsing: Data(contentsOf: folder.url.appendingPathComponent("a.wav")), name: "a.wav").frames
            let plan = try JSONDecoder().decode(
                AnnouncementPlan.self, from: Data(try SoundsetExecutable.run(["plan", amount, "--format", "json"], in: folder.url).stdout.utf8))
            #expect(frames == plan.totalFrames)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }.isEmpty)

        // Another container than the set's is written as its extension says (it was refused).
        let otherContainer = try SoundsetExecutable.run(["render", "3", "--out", "a.caf"], in: folder.url)
        #expect(otherContainer.status == 0, "\(otherContainer.stderr)")
        let caf = try SoundData(parsing: Data(contentsOf: folder.url.appendingPathComponent("a.caf")), name: "a.caf")
        #expect(caf.format.container == .caf)
        #expect(caf.format.encoding == .ulaw)
        #expect(caf.samples == (try SoundData(parsing: Data(contentsOf: folder.url.appendingPathComponent("a.wav")), name: "a.wav")).samples)
    }

    @Test(arguments: [
        ("-2.50", "soundset: '-2.50': an amount has no sign: write 12.50, not -12.50 or +12.50"),
        ("12abc", "soundset: '12abc': the amount is not a number: write digits with at most one point, like 123.45"),
        ("1.234", "soundset: '1.234': the amount has 3 decimals; at most 2 are allowed (it is never rounded)"),
        ("1,000", "soundset: '1,000': the amount contains a thousands separator: write 1000"),
        ("1e5", "soundset: '1e5': the amount has an exponent: write 100000"),
        (".5", "soundset: '.5': the amount is not a number: write 0.5"),
    ])
    func badAmountsExitOneWithOneLine(amount: String, message: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"))
        let result = try SoundsetExecutable.run(["plan", amount], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout == "")
    }

    @Test func missingClipsAndMissingManifestExitOne() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let noSet = try SoundsetExecutable.run(["plan", "1"], in: folder.url)
        #expect(noSet.status == 1)
        #expect(noSet.stderr.hasSuffix("manifest.json: cannot read the manifest: the file is missing or unreadable (run soundset build --output Output first)\n"))
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"))
        let english = try SoundsetExecutable.run(["plan", "2.5", "--locale", "en-US"], in: folder.url)
        #expect(english.status == 1)
        #expect(
            english.stderr
                == "soundset: Output was recorded for zh-CN, not en-US, so it has no clip for dollars, and, 50, cents (leave out --locale, or record the en-US clips, set \"locale\": \"en-US\" in soundset.json and run soundset build --output Output)\n"
        )
    }

    @Test func aMissingPhraseNamesTheBuildCommand() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Sounds/Output"))
        let result = try SoundsetExecutable.run(["plan", "2.5", "--output", "Sounds/Output", "--suffix", "thanks"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr == "soundset: the sound set has no clip for thanks (record it and run soundset build --output Sounds/Output)\n")
    }

    /// A copy the set lacks is asked for in `copies`, not recorded.
    @Test func aMissingCopyNamesCopies() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"))
        let result = try SoundsetExecutable.run(["plan", "5", "--suffix", "yuan"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "soundset: the sound set has no yuanCopy to play its clip twice in a row (add \"yuan\" to copies in soundset.json and run soundset build --output Output)\n"
        )
    }

    /// `render --out` never writes into the set it reads or among the recordings: a clip
    /// overwritten, or a recording added, would change what they describe.
    @Test(arguments: ["Output/Sounds/1.caf", "Output/extra.wav", "Assets/new.wav", "./Output/../Output/Sounds/x.aiff", "link/1.caf"])
    func renderNeverWritesIntoTheSetOrTheAssets(out: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link").path, withDestinationPath: "Output/Sounds")
        let before = try Data(contentsOf: folder.url.appendingPathComponent("Output/Sounds/1.caf"))
        let result = try SoundsetExecutable.run(["render", "1", "--out", out], in: folder.url)
        #expect(result.status == 64, "\(out)")
        let inside = out.hasPrefix("Assets") ? "Assets (--assets)" : "Output (--output)"
        #expect(
            result.stderr.hasPrefix(
                "soundset: --out \(out) is inside \(inside), which soundset builds or reads: write it elsewhere, e.g. --out announcement.wav\n"),
            "\(result.stderr)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("Output/Sounds/1.caf")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Assets").path).isEmpty)
    }

    /// An amount above the assets' maxAmount is planned, with a note; at the maximum, no note.
    @Test func anAmountAboveMaxAmountIsNoted() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try FakeSets.write(in: folder.url.appendingPathComponent("Output"))
        let noAssets = try SoundsetExecutable.run(["plan", "123"], in: folder.url)
        #expect(noAssets.status == 0 && noAssets.stderr == "")
        let assets = try folder.folder("Assets")
        try Data(#"{"maxAmount": "100"}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let above = try SoundsetExecutable.run(["plan", "123"], in: folder.url)
        #expect(above.status == 0)
        #expect(
            above.stderr
                == "note: 123.00 is above the set's maxAmount 100.00 (Assets/soundset.json): the check budgets no amount above it, so this announcement may not fit the banner\n"
        )
        #expect(above.stdout.hasPrefix("123.00 (zh-CN): 1 hundred 2 ten 3 yuan"))
        let atMost = try SoundsetExecutable.run(["plan", "100"], in: folder.url)
        #expect(atMost.status == 0 && atMost.stderr == "")
        let elsewhere = try SoundsetExecutable.run(["plan", "123", "--assets", "Nowhere"], in: folder.url)
        #expect(elsewhere.status == 0)
        #expect(elsewhere.stderr == "note: Nowhere: no such folder, so 123.00 was not held to a maxAmount\n")
    }

    @Test(arguments: [
        (["plan"], "soundset: plan needs an AMOUNT, e.g. 123.45"),
        (["plan", "1", "--reading", "style=fancy"], "soundset: reading option style cannot be 'fancy' (use point or yuanJiaoFen)"),
        (["plan", "1", "--reading", "loud"], "soundset: --reading needs KEY=VALUE, e.g. style=yuanJiaoFen"),
        (["plan", "1", "--locale", "fr-FR"], "soundset: --locale must be one of zh-CN, en-US"),
        (["plan", "1", "--format", "xml"], "soundset: --format must be text or json"),
        (["render", "1"], "soundset: render needs --out FILE"),
    ])
    func badUsageExits64(arguments: [String], message: String) throws {
        let result = try SoundsetExecutable.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message + "\nrun 'soundset \(arguments[0]) --help' for usage\n")
    }

    @Test func helpDocumentsEveryOption() throws {
        for command in ["plan", "render"] {
            let help = try SoundsetExecutable.run([command, "--help"])
            #expect(help.status == 0)
            for option in ["--output DIR", "--locale", "--prefix NAME", "--suffix NAME", "--gap-ms N", "--reading KEY=VALUE", "--whole", "--format text|json"] {
                #expect(help.stdout.contains(option), "\(command) \(option)")
            }
        }
        #expect(try SoundsetExecutable.run(["render", "--help"]).stdout.contains("--out FILE"))
    }
}
