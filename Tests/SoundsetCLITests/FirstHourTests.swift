import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// What a designer meets in the first hour: what to record, what the build says, the report as
/// part of the set, and files in Output that soundset did not write.
@Suite struct FirstHourTests {
    /// A folder with the small pack built once into Output.
    func built(_ arguments: [String] = []) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try AssetPacks.small(in: try folder.folder("Assets"))
        let result = try SoundsetExecutable.run(["build", "--quiet"] + arguments, in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return folder
    }

    /// A new take of `name`, another length than the pack's.
    func retake(_ name: String, in folder: TemporaryDirectory, seconds: Double = 0.35) throws {
        let take = Takes.word(word: seconds, rate: 16000, levelDb: -20, seed: 99)
        try WAVFile.write(take.samples, to: folder.url.appendingPathComponent("Assets/\(name).wav"), rate: 16000)
    }

    @Test(arguments: SpeechLocale.allCases) func clipsListsTheRuntimesOwnGuide(locale: SpeechLocale) throws {
        let json = try SoundsetExecutable.run(["clips", "--locale", locale.rawValue, "--format", "json"])
        #expect(json.status == 0)
        #expect(try JSONDecoder().decode(ClipGuide.self, from: Data(json.stdout.utf8)) == ClipGuide.of(locale))
        let text = try SoundsetExecutable.run(["clips", "--locale", locale.rawValue])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == ClipGuide.of(locale).entries.count + 1)
        #expect(lines.first?.hasPrefix("clip ") == true)
        let markdown = try SoundsetExecutable.run(["clips", "--locale", locale.rawValue, "--format", "markdown"])
        #expect(markdown.stdout.split(separator: "\n").count == ClipGuide.of(locale).entries.count + 2)
    }

    @Test func clipsSaysWhatEachChineseClipIs() throws {
        let text = try SoundsetExecutable.run(["clips"])
        let rows = text.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3).joined(separator: " ") }
        #expect(rows.contains("ten 十 shí"))
        #expect(rows.contains("liang 两 liǎng"))
        #expect(rows.contains("1_yi2 一 yí"))
        #expect(rows.contains("received 收款到账 shōukuǎn"))
        let needs = text.stdout.split(separator: "\n").filter { $0.hasPrefix("liang ") || $0.hasPrefix("jiao ") || $0.hasPrefix("1_yi4 ") }
        #expect(needs.count == 3)
        #expect(needs[0].contains("reading.useLiang") && needs[1].contains("yuanJiaoFen") && needs[2].contains("optional"))
        let bad = try SoundsetExecutable.run(["clips", "--locale", "fr-FR"])
        #expect(bad.status == 64)
    }

    @Test func aChineseNameSaysWhatToCallIt() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        for name in ["两", "十", "萬"] {
            try FileManager.default.copyItem(at: assets.appendingPathComponent("1.wav"), to: assets.appendingPathComponent("\(name).wav"))
        }
        try FileManager.default.copyItem(at: assets.appendingPathComponent("1.wav"), to: assets.appendingPathComponent("元.wav"))
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stderr.split(separator: "\n").map(String.init) == [
                "error: Assets/两.wav: '两' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename it liang.wav (两 is the clip liang)",
                "error: Assets/元.wav: '元' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; 元 is the clip yuan, which Assets/yuan.wav already is: keep one of the two takes",
                "error: Assets/十.wav: '十' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename it ten.wav (十 is the clip ten)",
                "error: Assets/萬.wav: '萬' is not a valid clip name: only ASCII letters, digits, '_' and '-' are allowed; rename it ten_thousand.wav (萬 is the clip ten_thousand)",
                "soundset: build failed with 4 problems; Output was not changed",
            ])
    }

    /// Typical slips among the takes: a note left in Assets, a take named in the wrong case.
    @Test func slipsAmongTheTakesSayWhatToDo() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        try Data("ideas".utf8).write(to: assets.appendingPathComponent("NOTES.txt"))
        let note = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(note.status == 1)
        #expect(note.stderr.hasPrefix("error: Assets/NOTES.txt: is not a recording (a .txt file): move it out of Assets, where every file is a take\n"))
        try FileManager.default.removeItem(at: assets.appendingPathComponent("NOTES.txt"))
        // A voice memo's AAC in an MPEG-4 file (the box a phone writes first): a recording, in a
        // format ffmpeg reads and libsndfile does not: the command that converts it (#30).
        var memo = Data([0, 0, 0, 0x20]) + Data("ftypM4A ".utf8) + Data([0, 0, 0, 0]) + Data("M4A mp42isom".utf8)
        memo += Data(count: 64)
        try memo.write(to: assets.appendingPathComponent("7.m4a"))
        let aac = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(aac.status == 1)
        #expect(
            aac.stderr.hasPrefix(
                "error: Assets/7.m4a: is a .m4a recording, which soundset cannot read: convert it to WAV, e.g. ffmpeg -i Assets/7.m4a Assets/7.wav, and move the .m4a out of Assets\n"
            ), "\(aac.stderr)")
        try FileManager.default.removeItem(at: assets.appendingPathComponent("7.m4a"))
        try FileManager.default.moveItem(at: assets.appendingPathComponent("yuan.wav"), to: assets.appendingPathComponent("Yuan.wav"))
        let cased = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(cased.status == 0)
        #expect(cased.stderr.contains("; Assets/Yuan.wav looks like yuan: rename it yuan.wav\n"), "\(cased.stderr)")
    }

    /// A mistyped key says which it most likely is.
    @Test func aMistypedKeySaysWhichItMeans() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        try Data(#"{"limts": {}, "anouncement": {"prefx": "received"}, "zzz": 1}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("error: Assets/soundset.json: limts: unknown key: did you mean limits? (known keys here: ") })
        #expect(lines.contains { $0.hasPrefix("error: Assets/soundset.json: anouncement: unknown key: did you mean announcement? (") })
        #expect(lines.contains { $0.hasPrefix("error: Assets/soundset.json: zzz: unknown key (known keys here: ") })
    }

    /// A mistyped --assets is one line, not one per recording "removed since the last build".
    @Test func checkOfNoSuchAssetsFolderIsOneLine() throws {
        let folder = try built()
        defer { folder.remove() }
        let result = try SoundsetExecutable.run(["check", "--assets", "/no/such/folder"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "[freshness] /no/such/folder: no such folder (pass the folder of recordings with --assets DIR)\ncheck failed: 1 problem\n")
    }

    /// The commands the overview lists, each with its help: `COMMAND --help`, `COMMAND -h` and
    /// `help COMMAND` print the same text, which starts with the command's usage.
    @Test func everyCommandHasHelp() throws {
        let overview = try SoundsetExecutable.run(["--help"])
        let listed = overview.stdout.components(separatedBy: "commands:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").compactMap { line -> String? in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
            }
        #expect(listed == ["build", "plan", "render", "announce", "replay", "check", "report", "serve", "pack", "install-pack", "measure", "clips", "help", "version"])
        for command in listed {
            let result = try SoundsetExecutable.run([command, "--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.hasPrefix("usage: soundset \(command)"), "\(command)")
            #expect(result.stderr == "", "\(command)")
            #expect(try SoundsetExecutable.run([command, "-h"]).stdout == result.stdout, "\(command)")
            #expect(try SoundsetExecutable.run(["help", command]).stdout == result.stdout, "\(command)")
        }
    }

    /// After an incremental build, one line of what was done; the table only on a first build or
    /// with --verbose.
    @Test func anIncrementalBuildSaysWhatItRebuilt() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let first = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(first.stdout.split(separator: "\n").first?.hasPrefix("clip ") == true)
        try retake("3", in: folder)
        let second = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(second.status == 0)
        let lines = second.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "rebuilt 1 (recording changed), 3 unchanged")
        #expect(lines.dropFirst().first?.hasPrefix("built 4 clips and 3 copies into Output") == true)
        #expect(lines.last == "report: Output.report.html")
        let forced = try SoundsetExecutable.run(["build", "--no-cache"], in: folder.url)
        #expect(forced.stdout.split(separator: "\n").first == "no clip changed (4 unchanged)")
        try Data(#"{"loudness": {"target": -20}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Assets/1.wav"))
        let configured = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(configured.stdout.split(separator: "\n").first == "rebuilt 3 (configuration changed), 0 unchanged, 1 removed (1)")
        try Data(#"{"loudness": {"target": -20}, "announcement": {"gapMs": 40}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let gap = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(gap.stdout.split(separator: "\n").first == "no clip changed (3 unchanged); the manifest did: announcement settings")
        let renamedTake = try Data(contentsOf: folder.url.appendingPathComponent("Assets/2.wav"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Assets/2.wav"))
        try renamedTake.write(to: folder.url.appendingPathComponent("Assets/2.WAV"))
        let renamed = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(renamed.stdout.split(separator: "\n").first == "no clip changed (3 unchanged); the manifest did: recordings renamed (2.wav → 2.WAV)")
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Assets/2.WAV"))
        try retake("2", in: folder, seconds: 0.2)
        let verbose = try SoundsetExecutable.run(["build", "--verbose"], in: folder.url)
        let table = verbose.stdout.split(separator: "\n").map(String.init)
        #expect(table.first?.hasPrefix("clip ") == true)
        #expect(table.count == 1 + 3 + 5, "\(table)")
        // The one changed take is prepared, finished and drawn again; the others come from the cache.
        #expect(table.dropLast(2).last == "cache: 2 of 3 clips prepared, 2 finished and 2 drawn from .soundset-cache")
        // The work, counted: its take decoded and resampled once, and only its clip encoded.
        #expect(
            table.dropLast().last?.hasPrefix(
                "work: 3 takes stat'ed, 1 headers read, 1 hashed, 1 decoded, 1 resampled; 0 fingerprint pairs compared; 1 clips encoded, ")
                == true, "\(table)")
        #expect(table.last == "report: Output.report.html")
        #expect(!verbose.stdout.contains("rebuilt"))
        let both = try SoundsetExecutable.run(["build", "--quiet", "--verbose"], in: folder.url)
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("soundset: --quiet and --verbose cannot both be given"))
    }

    /// On a pipe: the summary on stdout and warnings on stderr, no progress; with --quiet, only
    /// the warnings and errors.
    @Test func aPipeGetsTheSummaryAndQuietOnlyWarnings() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let quieter = "warning: Assets/2.wav: recorded 13 LU quieter than the other takes: check the microphone gain"
        let piped = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(piped.stdout.contains("\nbuilt 4 clips and 3 copies into Output"))
        #expect(piped.stderr.split(separator: "\n").first.map(String.init) == quieter)
        #expect(!piped.stderr.contains("\r") && !piped.stderr.contains("[1/4]"))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Output"))
        let quiet = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "")
        #expect(quiet.stderr == piped.stderr)
        let failed = try SoundsetExecutable.run(["build", "--quiet", "--assets", "Missing"], in: folder.url)
        #expect(failed.status == 1 && failed.stdout == "" && failed.stderr.hasPrefix("error: Missing"))
    }

    /// The build says what the check will say, in the check's words.
    @Test func theBuildWarnsInTheChecksWords() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        try Data(#"{"limits": {"maxSeconds": {"yuan": 0.1, "yaun": 0.5}}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let build = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(build.status == 0)
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        let checked = check.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let close = line.firstIndex(of: "]"), line.hasPrefix("[") else { return nil }
            return String(line[line.index(close, offsetBy: 2)...])
        }
        let warned = build.stderr.split(separator: "\n").compactMap {
            $0.hasPrefix("warning: Output/") || $0.hasPrefix("warning: Assets/soundset.json") ? String($0.dropFirst(9)) : nil
        }
        #expect(checked.count == 3, "\(check.stdout)")
        #expect(warned == checked)
        #expect(warned.first == "Assets/soundset.json: limits.maxSeconds: 'yaun' matches no clip of the set: correct it (soundset clips lists the names)")
        #expect(warned.dropFirst().first?.hasPrefix("Output/Sounds/yuan.caf: lasts ") == true)
        #expect(warned.dropFirst().first?.hasSuffix(" s, over the 0.1 s limit for 'yuan': re-record it as one word or raise limits.maxSeconds") == true)
        // A build that finds the set up to date says all of it again (the check's, and what the
        // takes are noted for); and what a changed check-only setting makes of it.
        let again = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(again.stdout == "Output is up to date: 4 clips, nothing to do\nreport: Output.report.html\n")
        #expect(again.stderr == build.stderr)
        // --verbose shows the clips' table whatever the build had to do: a line per clip after its head.
        let verbose = try SoundsetExecutable.run(["build", "--verbose"], in: folder.url).stdout.split(separator: "\n")
        #expect(verbose.first?.hasPrefix("clip ") == true && verbose.first?.hasSuffix("   seconds    loudness   true peak      gain   limiting") == true)
        #expect(verbose.dropFirst().prefix(4).allSatisfy { $0.contains(" LUFS ") }, "\(verbose)")
        #expect(verbose.dropFirst(5).first == "Output is up to date: 4 clips, nothing to do", "\(verbose)")
        try Data(#"{"limits": {"maxSeconds": {"yuan": 0.1}}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let fixed = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(!fixed.stderr.contains("'yaun'") && fixed.stderr.contains("over the 0.1 s limit for 'yuan'"), "\(fixed.stderr)")
    }

    /// A bad setting is said, not what the defaults it falls back to would find.
    @Test func aBadLimitIsSaidAlone() throws {
        let folder = try built()
        defer { folder.remove() }
        try Data(#"{"limits": {"maxSeconds": {"*": 0.0001}}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        let checks = check.stdout.split(separator: "\n").compactMap { $0.hasPrefix("[") ? $0.split(separator: "]").first.map { String($0.dropFirst()) } : nil }
        #expect(checks == ["configuration", "completeness"], "\(check.stdout)")
        #expect(check.stdout.hasPrefix("[configuration] Assets/soundset.json: limits.maxSeconds.*: 0.0001 s is out of range (0.01 to 29.99)\n"))
    }

    /// The set's folder holds what the app bundles and nothing else: the report is written beside
    /// it, carrying the set's id, made again by a build that finds the set up to date when it is
    /// missing or was made with other settings, removed with --no-report, and written where
    /// --report says.
    @Test func theReportGoesBesideTheSet() throws {
        let folder = try built()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["Sounds", "manifest.json"])
        let report = folder.url.appendingPathComponent("Output.report.html")
        let first = try Data(contentsOf: report)
        func setID() throws -> String { SoundSet(manifest: try Manifest.load(from: output.appendingPathComponent("manifest.json")), folder: output).id }
        #expect(String(decoding: first, as: UTF8.self).contains("<meta name=\"soundset-set\" content=\"\(try setID())\"/>"))
        try retake("3", in: folder)
        let bare = try SoundsetExecutable.run(["build", "--no-report"], in: folder.url)
        #expect(bare.stdout.hasSuffix("\nOutput.report.html removed (--no-report)\n"), "\(bare.stdout)")
        #expect(!FileManager.default.fileExists(atPath: report.path))
        let upToDate = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(upToDate.stdout == "Output is up to date: 4 clips, report made again\nreport: Output.report.html\n")
        let again = try Data(contentsOf: report)
        // It shows the new take (its frame count), not the one before, and names the new set.
        func frames(_ name: String) throws -> Int {
            try #require(try Manifest.load(from: output.appendingPathComponent("manifest.json")).clips.first { $0.name == name }).frames
        }
        #expect(String(decoding: again, as: UTF8.self).contains("<th>frames</th><td>\(try frames("3"))</td>"))
        #expect(!String(decoding: first, as: UTF8.self).contains("<th>frames</th><td>\(try frames("3"))</td>"))
        #expect(String(decoding: again, as: UTF8.self).contains("<meta name=\"soundset-set\" content=\"\(try setID())\"/>"))
        #expect(try SoundsetExecutable.run(["build"], in: folder.url).stdout == "Output is up to date: 4 clips, nothing to do\nreport: Output.report.html\n")
        let written = try SoundsetExecutable.run(["report"], in: folder.url)
        #expect(written.stdout.hasPrefix("wrote Output.report.html: 4 clips, "), "\(written.stdout)")
        #expect(try Data(contentsOf: report) == again)
        // The report's own settings change no clip, but the report shows them.
        try Data(#"{"report": {"amounts": ["4.56"]}}"#.utf8).write(to: folder.url.appendingPathComponent("Assets/soundset.json"))
        let amounts = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(amounts.stdout == "Output is up to date: 4 clips, report made again\nreport: Output.report.html\n")
        #expect(String(decoding: try Data(contentsOf: report), as: UTF8.self).contains("4.56"))
        // --no-report on a set found up to date takes the report out.
        let removed = try SoundsetExecutable.run(["build", "--no-report"], in: folder.url)
        #expect(removed.stdout == "Output is up to date: 4 clips, Output.report.html removed (--no-report)\n")
        #expect(!FileManager.default.fileExists(atPath: report.path))
        // Nothing else is left in Output's parent.
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(beside == [".soundset-cache", "Assets", "Output"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent(".soundset-cache/.gitignore"), encoding: .utf8) == "*\n")
        // --report writes it where it says, and the build names it there.
        let elsewhere = try SoundsetExecutable.run(["build", "--report", "pages.html"], in: folder.url)
        #expect(elsewhere.stdout == "Output is up to date: 4 clips, report made again\nreport: pages.html\n")
        #expect(String(decoding: try Data(contentsOf: folder.url.appendingPathComponent("pages.html")), as: UTF8.self).contains(try setID()))
        // Never in the set, which the app bundles whole.
        let inside = try SoundsetExecutable.run(["build", "--report", "Output/report.html"], in: folder.url)
        #expect(inside.status == 1)
        #expect(
            inside.stderr.hasPrefix(
                "error: Output/report.html: is inside Output, which the app bundles whole: write the report beside it (the default, Output.report.html)\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == ["Sounds", "manifest.json"])
        let both = try SoundsetExecutable.run(["build", "--report", "pages.html", "--no-report"], in: folder.url)
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("soundset: --report and --no-report cannot both be given\n"))
    }

    /// A report soundset 0.8 left inside the set is moved out by the next build, once, with a line
    /// that says so; the check says where it is until then, and a report of another set beside it.
    @Test func anOldReportInTheSetIsMovedOutOnce() throws {
        let folder = try built(["--no-report"])
        defer { folder.remove() }
        let old = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>soundset report</title>\n</head><body>0.8</body></html>\n"
        try Data(old.utf8).write(to: folder.url.appendingPathComponent("Output/report.html"))
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(
            check.stdout.split(separator: "\n").contains(
                "[report] Output/report.html: is a report inside the set, where the app would ship it: run soundset build --assets Assets --output Output, which moves it out (the report is written beside the set, as Output.report.html)"
            ), "\(check.stdout)")
        let moved = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(moved.status == 0)
        #expect(
            moved.stderr.split(separator: "\n").first
                == "soundset: moved Output/report.html out of the set to Output.report.html: Output holds only what the app bundles")
        #expect(moved.stdout == "Output is up to date: 4 clips, report made again\nreport: Output.report.html\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("Output").path).sorted() == ["Sounds", "manifest.json"])
        let report = folder.url.appendingPathComponent("Output.report.html")
        #expect(String(decoding: try Data(contentsOf: report), as: UTF8.self).contains("<meta name=\"soundset-set\""))
        let next = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(!next.stderr.contains("moved"))
        #expect(!(try SoundsetExecutable.run(["check"], in: folder.url)).stdout.contains("[report]"))
        // The report of the set before, put back beside the set after a new take: the check says so.
        let kept = try Data(contentsOf: report)
        try retake("3", in: folder)
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        try kept.write(to: report)
        let stale = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(stale.status == 1)
        #expect(
            stale.stdout.split(separator: "\n").contains {
                $0.hasPrefix("[report] Output.report.html: belongs to another set (")
                    && $0.hasSuffix("): run soundset build --assets Assets --output Output to write it again")
            }, "\(stale.stdout)")
        // The build writes it again: it is this set's once more.
        #expect(
            try SoundsetExecutable.run(["build"], in: folder.url).stdout == "Output is up to date: 4 clips, report made again\nreport: Output.report.html\n")
        #expect(!(try SoundsetExecutable.run(["check"], in: folder.url)).stdout.contains("[report]"))
    }

    /// The warnings a build prints are the set's findings, made once: the same lines on a first
    /// build, an incremental one, one that finds the set up to date, one with --no-report, one
    /// without its cache and one with --no-cache.
    @Test func everyBuildPrintsTheSameWarnings() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        // A clipped take (the take's own note), 2 recorded far quieter than the rest (the set's),
        // and a limit the check will hold yuan to.
        let loud = Takes.word(word: 0.3, rate: 16000, levelDb: -6, seed: 11).samples.map { max(-1, min(1, $0 * 4)) }
        try WAVFile.write(loud, to: assets.appendingPathComponent("clipped.wav"), rate: 16000, format: .float32)
        try Data(#"{"limits": {"maxSeconds": {"yuan": 0.1}}}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        func warnings(_ arguments: [String]) throws -> [String] {
            let result = try SoundsetExecutable.run(["build"] + arguments, in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr.split(separator: "\n").map(String.init)
        }
        let first = try warnings([])
        #expect(
            first.contains {
                $0.hasPrefix("warning: Assets/clipped.wav: ") && $0.hasSuffix(" samples are clipped at full scale (record it again at a lower level)")
            })
        #expect(
            first.contains { $0.hasPrefix("warning: Assets/2.wav: recorded ") && $0.hasSuffix(" LU quieter than the other takes: check the microphone gain") })
        #expect(first.contains { $0.hasPrefix("warning: Output/Sounds/yuan.caf: lasts ") })
        #expect(first.allSatisfy { $0.hasPrefix("warning: ") }, "\(first)")
        // The same take with another chunk after its audio: new bytes, the same sound, prepared again.
        let take = assets.appendingPathComponent("3.wav")
        var bytes = try Data(contentsOf: take)
        bytes.append(contentsOf: Array("LIST".utf8) + [4, 0, 0, 0] + Array("INFO".utf8))
        let riff = UInt32(bytes.count - 8).littleEndian
        withUnsafeBytes(of: riff) { bytes.replaceSubrange(4..<8, with: $0) }
        try bytes.write(to: take)
        let incremental = try SoundsetExecutable.run(["build", "--verbose"], in: folder.url)
        #expect(incremental.stdout.contains("\ncache: 4 of 5 clips prepared"), "\(incremental.stdout)")
        #expect(incremental.stderr.split(separator: "\n").map(String.init) == first)
        #expect(try warnings([]) == first)
        #expect(try warnings(["--no-report"]) == first)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(".soundset-cache"))
        #expect(try warnings([]) == first)
        #expect(try warnings(["--no-cache"]) == first)
    }

    /// A file soundset did not write stops the build, named, and stays where it is.
    @Test(arguments: ["NOTES.txt", "Sounds/extra.caf", "Drafts/take.wav"]) func aFileSoundsetDidNotWriteIsRefused(file: String) throws {
        let folder = try built()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("Output/\(file)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: url)
        let before = snapshot(of: folder.url.appendingPathComponent("Output"))
        try retake("3", in: folder)
        let result = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(result.status == 1)
        let named = file.hasPrefix("Drafts/") ? "Drafts" : file
        #expect(
            result.stderr
                == "error: Output/\(named): soundset did not write it, and Output is replaced whole: move it out\nsoundset: build failed with 1 problem; Output was not changed\n"
        )
        #expect(snapshot(of: folder.url.appendingPathComponent("Output")) == before)
        // The check says so too, before the next build does.
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        let line =
            file.hasPrefix("Sounds/")
            ? "[integrity] Output/\(file): is not listed in the manifest, so soundset did not write it: move it out (the build replaces the folder whole)"
            : "[integrity] Output/\(named): soundset did not write it, and the next build will not replace Output while it is there: move it out"
        #expect(check.stdout.split(separator: "\n").contains { $0 == line }, "\(check.stdout)")
    }

    /// The README's clip tables and docs/commands.md's synopses are the commands' own.
    @Test func theReadmeAgreesWithTheCommands() throws {
        let readme = try String(contentsOf: SoundsetExecutable.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for locale in SpeechLocale.allCases {
            let table = try SoundsetExecutable.run(["clips", "--locale", locale.rawValue, "--format", "markdown"]).stdout
            #expect(readme.contains(table), "README.md lacks the \(locale.rawValue) table of soundset clips --format markdown")
        }
        // The synopses are on docs/commands.md, the command line at work.
        let commands = try String(contentsOf: SoundsetExecutable.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        for command in ["build", "plan", "render", "announce", "replay", "check", "report", "measure", "clips"] {
            let help = try SoundsetExecutable.run([command, "--help"]).stdout
            // The synopsis: the help's lines up to the first empty one, as README.md shows them.
            let synopsis = help.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }.joined(separator: "\n")
            #expect(synopsis.hasPrefix("usage: soundset \(command)"))
            #expect(commands.contains("\n" + synopsis + "\n"), "docs/commands.md lacks the synopsis of \(command):\n\(synopsis)")
        }
    }
}

/// `build --watch`, with a short poll: a new take is built, the report reloads itself, and Ctrl-C
/// ends it with the report still and nothing left behind.
@Suite struct WatchTests {
    /// Whether the report at `url` reloads itself.
    func refreshes(_ url: URL) throws -> Bool {
        String(decoding: try Data(contentsOf: url), as: UTF8.self).contains(#"<meta http-equiv="refresh" content="1""#)
    }

    /// Waits up to `seconds` for `condition`.
    func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    @Test func aNewTakeIsBuiltAndCtrlCEndsCleanly() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let report = folder.url.appendingPathComponent("Output.report.html")
        let watching = try RunningSoundset(["build", "--watch", "--poll-ms", "50"], in: folder.url)
        #expect(eventually(60) { watching.stdoutSoFar.contains("built 4 clips") })
        #expect(try refreshes(report))
        let first = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        let take = Takes.word(word: 0.35, rate: 16000, levelDb: -20, seed: 99)
        try WAVFile.write(take.samples, to: folder.url.appendingPathComponent("Assets/3.wav"), rate: 16000)
        #expect(eventually(60) { watching.stdoutSoFar.contains("rebuilt 1 (recording changed), 3 unchanged") })
        let second = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        #expect(second.clips.first { $0.name == "3" }?.source.sha256 != first.clips.first { $0.name == "3" }?.source.sha256)
        #expect(second.clips.filter { $0.name != "3" }.map(\.sha256) == first.clips.filter { $0.name != "3" }.map(\.sha256))
        #expect(try refreshes(report))
        // A take written in two parts a poll apart is built once, whole (no error of a half file).
        let parts = WAVFile.bytes(Takes.word(word: 0.3, rate: 16000, levelDb: -22, seed: 5).samples, rate: 16000)
        let half = parts.count / 2
        let two = folder.url.appendingPathComponent("Assets/2.wav")
        try parts.prefix(half).write(to: two)
        Thread.sleep(forTimeInterval: 0.2)
        let handle = try FileHandle(forWritingTo: two)
        try handle.seekToEnd()
        try handle.write(contentsOf: parts.dropFirst(half))
        try handle.close()
        #expect(eventually(60) { watching.stdoutSoFar.components(separatedBy: "rebuilt 1 (recording changed), 3 unchanged").count == 3 })
        Thread.sleep(forTimeInterval: 1)
        // The first build, the new take of 3 and the take of 2 written in two parts: three builds.
        #expect(watching.stdoutSoFar.components(separatedBy: "\nbuilt 4 clips").count - 1 == 3, "\(watching.stdoutSoFar)")
        #expect(!watching.stderrSoFar.contains("error:"), "\(watching.stderrSoFar)")
        watching.process.interrupt()
        let ended = watching.wait()
        #expect(ended.status == 0)
        #expect(ended.stderr.hasPrefix("soundset: watching Assets for changes (Ctrl-C to stop)\n"))
        // Stopped while idle: nothing is under way.
        #expect(ended.stderr.hasSuffix("\nsoundset: stopping\nsoundset: stopped watching Assets\n"), "\(ended.stderr)")
        #expect(try !refreshes(report))
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(beside == [".soundset-cache", "Assets", "Output", "Output.report.html"])
        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(!check.stdout.contains("[freshness]") && !check.stdout.contains("[integrity]"), "\(check.stdout)")
    }
}
