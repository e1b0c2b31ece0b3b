import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct BuildCommandTests {
    @Test func buildsAPackEndToEnd() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        // The pack is no complete zh-CN set: the build says what the check will say, and builds.
        #expect(
            result.stderr
                == "warning: Assets/2.wav: recorded 13 LU quieter than the other takes: check the microphone gain\n"
                + "warning: Output/manifest.json: the zh-CN reading needs clips the set lacks: 0, 4, 5, 6, 7, 8, 9, ten, hundred, thousand, ten_thousand, hundred_million, point (record each as Assets/<clip>.wav (e.g. Assets/0.wav; soundset clips says what each is) and run soundset build --assets Assets --output Output)\n"
        )
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("clip") == true)
        #expect(lines.contains { $0.hasPrefix("yuan ") && $0.contains("-16.0 LUFS") })
        #expect(lines.contains { $0.hasPrefix("1 ") && $0.hasSuffix("+ 1Copy.caf") })
        #expect(lines.contains { $0.hasPrefix("built 4 clips and 3 copies into Output (caf pcm16, 44100 Hz)") })
        #expect(lines.dropLast().last == "level: the target -16.0 LUFS: every clip fits under the -1.0 dBTP ceiling with at most 6.0 dB of limiting")
        #expect(lines.last == "report: Output.report.html")
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        #expect(manifest.clips.count == 4)

        let quiet = try SoundsetExecutable.run(["build", "--quiet", "--assets", "Assets/", "--output=Output"], in: folder.url)
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "")
    }

    @Test func badInputExitsOneAndLeavesOutputAlone() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        #expect(try SoundsetExecutable.run(["build"], in: folder.url).status == 0)
        let before = snapshot(of: folder.url.appendingPathComponent("Output"))
        try Data("not audio".utf8).write(to: assets.appendingPathComponent("7.wav"))
        try WAVFile.write(Signals.silence(seconds: 0.4, rate: 8000), to: assets.appendingPathComponent("8.wav"), rate: 8000)
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(lines)")
        #expect(lines[0].hasPrefix("error: Assets/7.wav: cannot be read as audio: "))
        #expect(lines[1] == "error: Assets/8.wav: no speech found above -inf dBFS (noise floor digital silence; is the file silent or only noise?)")
        #expect(lines[2] == "soundset: build failed with 2 problems; Output was not changed")
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
    }

    @Test(arguments: [
        (["build", "--frobnicate"], "soundset: unknown option '--frobnicate'"),
        (["build", "--jobs", "0"], "soundset: --jobs needs a whole number from 1 to 256"),
        (["build", "--assets"], "soundset: --assets needs a value"),
        (["build", "extra"], "soundset: build takes no arguments, got 'extra'"),
        (["bild"], "soundset: unknown command 'bild'"),
    ])
    func badUsageExits64(arguments: [String], message: String) throws {
        let result = try SoundsetExecutable.run(arguments)
        #expect(result.status == 64)
        // A known command's own help is named; an unknown command's, the overview.
        let help = arguments[0] == "build" ? "soundset build --help" : "soundset --help"
        #expect(result.stderr == "\(message)\nrun '\(help)' for usage\n")
        #expect(result.stdout == "")
    }

    @Test func helpNamesEveryCommandAndOption() throws {
        let overview = try SoundsetExecutable.run(["--help"])
        #expect(overview.status == 0)
        for word in ["build", "help", "version", "exit codes"] { #expect(overview.stdout.contains(word)) }
        let build = try SoundsetExecutable.run(["build", "--help"])
        #expect(build.status == 0)
        for option in ["--assets DIR", "--output DIR", "--jobs N", "--quiet", "--help"] { #expect(build.stdout.contains(option)) }
        #expect(try SoundsetExecutable.run(["help", "build"]).stdout == build.stdout)
        for command in ["build", "plan", "render", "check", "report", "measure"] {
            let short = try SoundsetExecutable.run([command, "-h"])
            #expect(short.status == 0, "\(command) -h")
            #expect(short.stdout == (try SoundsetExecutable.run([command, "--help"])).stdout, "\(command) -h")
            #expect(short.stdout.hasPrefix("usage: soundset \(command)"), "\(command)")
        }
        #expect(try SoundsetExecutable.run(["--version"]).stdout.hasPrefix("soundset "))
    }

    @Test func aMissingAssetsFolderIsNamed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let result = try SoundsetExecutable.run(["build", "--assets", "Nowhere"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: Nowhere: no such folder (pass the folder of recordings with --assets DIR)\n"))
    }
}

@Suite struct BannerWarningTests {
    /// A set whose longest composed announcement outlasts the banner builds, with a warning that
    /// says so (every later build too, up to date or not), and the check fails on it.
    @Test func theBuildWarnsOfTheBannerBudget() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        try Data(#"{"sampleRate": 16000, "announcement": {"prefix": "received", "bannerSeconds": 1}}"#.utf8)
            .write(to: assets.appendingPathComponent("soundset.json"))
        let built = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        let check = try SoundsetExecutable.run(["check", "--format", "json"], in: folder.url)
        #expect(check.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as! [String: Any]
        let budget = object["budget"] as! [String: Any]
        let composed = budget["composed"] as! [String: Any]
        // The check's own problems, word for word.
        let problems = (object["problems"] as! [[String: String]]).filter { $0["check"] == "budget" }
        #expect(problems.count == 1)
        #expect(problems.first?["message"]?.hasPrefix("the composed announcement of \(composed["amount"] as! String) lasts ") == true)
        let expected = problems.map { "warning: \($0["subject"]!): \($0["message"]!)\n" }.joined()
        #expect(built.stderr == expected)
        #expect(composed["prefixDroppedFrom"] as? String == "0.01")  // 收款到账 零点零一元
        let again = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(again.stdout.hasPrefix("Output is up to date"))
        #expect(again.stderr == expected)
        // A set that fits says nothing.
        try Data(#"{"sampleRate": 16000, "announcement": {"prefix": "received"}, "maxAmount": "9.99"}"#.utf8)
            .write(to: assets.appendingPathComponent("soundset.json"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).stderr == "")
    }

    /// Speech bounds outside their clip make the manifest one the runtime refuses; the check names it.
    @Test func speechOutsideItsClipFailsTheCheck() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.completeChinese(in: try folder.folder("Assets"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let path = folder.url.appendingPathComponent("Output/manifest.json")
        var manifest = try Manifest.load(from: path)
        let frames = manifest.clips[0].frames
        manifest.clips[0].speech = Manifest.Speech(start: 10, end: frames + 1)
        try manifest.encoded().write(to: path)
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        #expect(
            check.stdout.hasPrefix(
                "[integrity] Output/manifest.json: not a soundset manifest (clip '0' has speech from frame 10 to \(frames + 1), not inside its \(frames) frames): run soundset build --assets Assets --output Output\n"
            ), "\(check.stdout)")
    }
}
