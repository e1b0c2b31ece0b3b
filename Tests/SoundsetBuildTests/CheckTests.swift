import Foundation
import SoundsetBuild
import SoundsetCheck
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder
import SoundsetTestSupport
import Testing

/// One complete set built once; each test works on its own copy.
actor BuiltSet {
    static let shared = BuiltSet()
    private var template: URL?

    func copy(into folder: URL) async throws {
        if template == nil {
            let built = try TemporaryDirectory("soundset-template").url
            let assets = built.appendingPathComponent("Assets")
            try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
            try AssetPacks.completeChinese(in: assets)
            _ = try await BuildPipeline.run(
                BuildOptions(
                    assets: assets, assetsDisplay: "Assets",
                    output: built.appendingPathComponent("Output"), outputDisplay: "Output"))
            template = built
        }
        for name in ["Assets", "Output", DiskMemo.folderName] {
            try FileManager.default.copyItem(at: template!.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }
}

@Suite struct CheckTests {
    /// Copies the built set, lets `breakIt` change it, and runs the check.
    func check(_ breakIt: (URL) async throws -> Void = { _ in }) async throws -> CheckReport {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await BuiltSet.shared.copy(into: folder.url)
        try await breakIt(folder.url)
        let before = snapshot(of: folder.url)
        let report = await Checker.run(
            assets: folder.url.appendingPathComponent("Assets"), assetsDisplay: "Assets",
            output: folder.url.appendingPathComponent("Output"), outputDisplay: "Output")
        #expect(snapshot(of: folder.url) == before, "the check wrote something")
        return report
    }

    /// XORs `mask` into the byte `offset` bytes before the end of the file at `url`.
    func flipBits(_ mask: UInt8, at offset: Int, fromTheEndOf url: URL) throws {
        var data = try Data(contentsOf: url)
        data[data.count - offset] ^= mask
        try data.write(to: url)
    }

    /// Rewrites the built set's manifest after `change`.
    func editManifest(in folder: URL, _ change: (inout Manifest) -> Void) throws {
        let url = folder.appendingPathComponent("Output/manifest.json")
        var manifest = try Manifest.load(from: url)
        change(&manifest)
        try manifest.encoded().write(to: url)
    }

    func writeConfig(_ folder: URL, _ json: String) throws {
        try Data(json.utf8).write(to: folder.appendingPathComponent("Assets/soundset.json"))
    }

    @Test func aFreshBuildPassesWithTheWorstCase() async throws {
        let report = try await check()
        #expect(report.ok)
        #expect(report.problems == [])
        #expect(report.clips == 18)
        let budget = try #require(report.budget)
        #expect(budget.maxAmount == "99999999.99")
        #expect(budget.limitSeconds == 25)
        #expect(budget.limitSteps == 64)
        #expect(budget.steps == 20 && budget.maxSteps == 20)
        // The worst amount's plan lasts exactly what the check says.
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await BuiltSet.shared.copy(into: folder.url)
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        let plan = try Planner(manifest: manifest).plan(try Amount(budget.worstAmount))
        #expect(plan.totalSeconds == budget.seconds)
        #expect(plan.steps.count == budget.steps)
    }

    @Test func anEditedRecordingIsStale() async throws {
        let report = try await check { folder in
            try flipBits(0x01, at: 1, fromTheEndOf: folder.appendingPathComponent("Assets/5.wav"))
        }
        #expect(
            report.problems == [CheckProblem(.freshness, "Assets/5.wav", "changed since the last build: run soundset build --assets Assets --output Output")])
        #expect(!report.ok)
    }

    @Test func anAddedRecordingIsStale() async throws {
        let report = try await check { folder in
            try WAVFile.write(Takes.word().samples, to: folder.appendingPathComponent("Assets/liang.wav"), rate: 16000)
        }
        #expect(
            report.problems == [
                CheckProblem(.freshness, "Assets/liang.wav", "was added since the last build: run soundset build --assets Assets --output Output")
            ])
    }

    @Test func aDeletedCopyIsMissing() async throws {
        let report = try await check { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Output/Sounds/5Copy.caf"))
        }
        #expect(report.problems == [CheckProblem(.integrity, "Output/Sounds/5Copy.caf", "missing: run soundset build --assets Assets --output Output")])
    }

    @Test func aFlippedByteIsDamage() async throws {
        let report = try await check { folder in
            try flipBits(0x40, at: 100, fromTheEndOf: folder.appendingPathComponent("Output/Sounds/7.caf"))
        }
        #expect(
            report.problems == [
                CheckProblem(
                    .integrity, "Output/Sounds/7.caf",
                    "its sha256 differs from the manifest's (damaged or edited by hand): run soundset build --assets Assets --output Output")
            ])
    }

    @Test func aHandEditedDurationDisagrees() async throws {
        let report = try await check { folder in
            try editManifest(in: folder) { manifest in
                let index = manifest.clips.firstIndex { $0.name == "yuan" }!
                manifest.clips[index].seconds += 0.25
            }
        }
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.check == .integrity)
        #expect(report.problems.first?.subject == "Output/Sounds/yuan.caf")
        #expect(
            report.problems.first?.message.hasSuffix("s in the manifest is not its frames / sampleRate): run soundset build --assets Assets --output Output")
                == true)
    }

    @Test func aTightenedLimitCatchesTheLongClip() async throws {
        let report = try await check { folder in
            try writeConfig(folder, #"{"sampleRate": 16000, "announcement": {"prefix": "received"}, "limits": {"maxSeconds": {"*": 1.2, "rec*": 0.5}}}"#)
        }
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.problems.first?.check == .durations)
        #expect(report.problems.first?.subject == "Output/Sounds/received.caf")
        #expect(report.problems.first?.message.hasSuffix("over the 0.5 s limit for 'rec*': re-record it as one word or raise limits.maxSeconds") == true)
    }

    @Test func theDefaultLimitCatchesAClipThatIsNotOneWord() async throws {
        // Without the prefix, `received` (0.7 s) is held to the 1.2 s word limit; at 0.6 s it fails.
        let report = try await check { folder in
            try writeConfig(folder, #"{"sampleRate": 16000, "announcement": {"prefix": "received"}, "limits": {"maxSeconds": {"*": 0.6}}}"#)
        }
        #expect(report.problems.map(\.subject) == ["Output/Sounds/received.caf"])
    }

    @Test func aRaisedMaximumBreaksTheBudget() async throws {
        let fresh = try #require(try await check().budget)
        let limit = (fresh.seconds + 0.05) * 100.rounded(.up) / 100
        let within = try await check { folder in
            try writeConfig(folder, #"{"sampleRate": 16000, "announcement": {"prefix": "received"}, "maxAnnouncementSeconds": \#(limit)}"#)
        }
        #expect(within.ok, "\(within.problems)")
        let report = try await check { folder in
            try writeConfig(
                folder, #"{"sampleRate": 16000, "announcement": {"prefix": "received"}, "maxAnnouncementSeconds": \#(limit), "maxAmount": "999999999999.99"}"#)
        }
        // The chain's budget, then the banner's (BannerBudgetTests).
        #expect(report.problems.count == 2, "\(report.problems)")
        #expect(report.problems.last?.message.hasPrefix("the composed announcement of ") == true)
        #expect(report.problems.first?.check == .budget)
        #expect(report.problems.first?.subject == "Assets/soundset.json")
        let budget = try #require(report.budget)
        #expect(budget.seconds > limit)
        #expect(budget.steps == 28)
        #expect(
            report.problems.first?.message
                == String(
                    format:
                        "the longest announcement, %@, lasts %.3f s in %d steps, over the %g s budget: shorten the clips, lower maxAmount or raise maxAnnouncementSeconds",
                    budget.worstAmount, budget.seconds, budget.steps, limit))
    }

    @Test func aSetWithoutADigitIsIncomplete() async throws {
        let report = try await check { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Assets/5.wav"))
            _ = try await BuildPipeline.run(
                BuildOptions(
                    assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets",
                    output: folder.appendingPathComponent("Output"), outputDisplay: "Output"))
        }
        #expect(
            report.problems == [
                CheckProblem(
                    .completeness, "Output/manifest.json",
                    "the zh-CN reading needs clips the set lacks: 5 (record it as Assets/5.wav and run soundset build --assets Assets --output Output)")
            ])
        #expect(report.budget == nil)
    }

    @Test func aMissingCopyIsIncomplete() async throws {
        let report = try await check { folder in
            try writeConfig(folder, #"{"sampleRate": 16000, "announcement": {"prefix": "received"}, "copies": ["1", "2", "3", "4", "5", "6", "7", "8"]}"#)
            _ = try await BuildPipeline.run(
                BuildOptions(
                    assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets",
                    output: folder.appendingPathComponent("Output"), outputDisplay: "Output"))
        }
        #expect(
            report.problems == [
                CheckProblem(
                    .completeness, "Output/manifest.json",
                    "these clips can follow themselves but have no copy: 9 (add them to copies in soundset.json and run soundset build --assets Assets --output Output)"
                )
            ])
    }

    @Test func anUnlistedFileAndAMissingManifest() async throws {
        let unlisted = try await check { folder in
            try Data("x".utf8).write(to: folder.appendingPathComponent("Output/Sounds/stray.mp3"))
        }
        #expect(
            unlisted.problems == [
                CheckProblem(
                    .integrity, "Output/Sounds/stray.mp3",
                    "is not listed in the manifest, so soundset did not write it: move it out (the build replaces the folder whole)")
            ])
        let missing = try await check { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Output/manifest.json"))
        }
        #expect(
            missing.problems == [CheckProblem(.integrity, "Output/manifest.json", "missing or unreadable: run soundset build --assets Assets --output Output")])
    }

    /// Hand-edited manifests the runtime refuses are refused by the check too, with the same reason.
    @Test func aManifestTheRuntimeRefusesIsRefused() async throws {
        let edits: [(@Sendable (inout Manifest) -> Void, String)] = [
            ({ $0.clips[0].file = "../../Assets/0.wav" }, "clip '0' names the file '../../Assets/0.wav', which is not a plain file name inside Sounds/"),
            (
                { manifest in
                    var extra = manifest.clips[1]
                    extra.name = "extra"
                    extra.file = manifest.clips[0].file
                    manifest.clips.append(extra)
                }, "clips '0' and 'extra' both name the file '0.caf'"
            ),
            ({ $0.clips.append($0.clips[3]) }, "clip '3' is listed twice"),
            ({ $0.announcement?.gapMs = -20 }, "announcement.gapMs -20 ms is out of range (0 to 2000)"),
            ({ $0.clips[2].frames = Int.max }, "clip '2' has 9223372036854775807 frames; a clip has at least 1 and lasts under 30 s"),
        ]
        for (edit, reason) in edits {
            let report = try await check { folder in try editManifest(in: folder, edit) }
            #expect(
                report.problems == [
                    CheckProblem(.integrity, "Output/manifest.json", "not a soundset manifest (\(reason)): run soundset build --assets Assets --output Output")
                ])
            #expect(!report.ok)
        }
    }
}

extension CheckTests {
    @Test func anEditedCopyIsNotIdentical() async throws {
        let report = try await check { folder in
            try flipBits(0x01, at: 1, fromTheEndOf: folder.appendingPathComponent("Output/Sounds/3Copy.caf"))
        }
        #expect(
            report.problems == [
                CheckProblem(
                    .integrity, "Output/Sounds/3Copy.caf", "is not byte-identical to 3.caf as built: run soundset build --assets Assets --output Output")
            ])
    }
}

extension CheckTests {
    @Test func aMissingClipIsMissingAndItsCopyStillListed() async throws {
        let report = try await check { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("Output/Sounds/5.caf"))
        }
        #expect(report.problems == [CheckProblem(.integrity, "Output/Sounds/5.caf", "missing: run soundset build --assets Assets --output Output")])
        let fifo = try await check { folder in
            let clip = folder.appendingPathComponent("Output/Sounds/5.caf")
            try FileManager.default.removeItem(at: clip)
            #expect(mkfifo(clip.path, 0o644) == 0)
        }
        #expect(fifo.problems == [CheckProblem(.integrity, "Output/Sounds/5.caf", "is not a regular file: run soundset build --assets Assets --output Output")])
    }
}

/// The banner budget: the longest composed sound as the announcer plays it, found exactly.
@Suite struct BannerBudgetTests {
    /// Builds the complete pack with `bannerSeconds` and `maxAmount` 999.99, and checks it.
    func check(banner: Double, delivery: String = "composed") async throws -> (CheckReport, Manifest) {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        try Data(
            #"{"sampleRate": 16000, "announcement": {"prefix": "received", "bannerSeconds": \#(banner), "delivery": "\#(delivery)"}, "maxAmount": "999.99"}"#
                .utf8
        )
        .write(to: assets.appendingPathComponent("soundset.json"))
        let output = folder.url.appendingPathComponent("Output")
        let built = try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2))
        return (await Checker.run(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output"), built.manifest)
    }

    /// Every amount's whole and bare length, by planning each one.
    static func lengths(_ manifest: Manifest) throws -> (whole: [Int], bare: [Int]) {
        let planner = Planner(manifest: manifest)
        var bareSettings = manifest.announcement!
        bareSettings.prefix = nil
        var whole: [Int] = []
        var bare: [Int] = []
        for minor in Int64(0)...99_999 {
            let amount = try Amount(minorUnits: minor)
            whole.append(try planner.plan(amount).totalFrames)
            bare.append(try planner.plan(amount, announcement: bareSettings).totalFrames)
        }
        return (whole, bare)
    }

    @Test func theBudgetIsWhatTheLongestAmountPlays() async throws {
        // First a banner every whole announcement fits.
        let (roomy, manifest) = try await check(banner: 30)
        let (whole, bare) = try Self.lengths(manifest)
        let composed = try #require(roomy.budget?.composed)
        #expect(composed.seconds == Double(whole.max()!) / 16000)
        #expect(composed.amount == (try Amount(minorUnits: Int64(whole.firstIndex(of: whole.max()!)!))).description)
        #expect(composed.prefixDroppedFrom == nil)
        #expect(roomy.ok, "\(roomy.problems)")

        // A banner between the longest bare and the longest whole: the prefix goes, the check passes.
        // What plays longest is the longest of: whole announcements that fit, and bare ones.
        let between = ((Double(bare.max()!) + Double(whole.max()!)) / 2 / 16000 * 100).rounded() / 100
        let (dropping, _) = try await check(banner: between)
        let dropped = try #require(dropping.budget?.composed)
        #expect(dropping.ok, "\(dropping.problems)")
        let played = zip(whole, bare).map { Double($0) <= between * 16000 ? $0 : $1 }
        #expect(dropped.seconds == Double(played.max()!) / 16000)
        #expect(dropped.amount == (try Amount(minorUnits: Int64(played.firstIndex(of: played.max()!)!))).description)
        #expect(played.max()! > bare.max()!, "a whole announcement that fits is the longest here")
        let firstDropped = whole.firstIndex { Double($0) > between * 16000 }!
        #expect(dropped.prefixDroppedFrom == (try Amount(minorUnits: Int64(firstDropped))).description)

        // A banner shorter than the longest bare amount: the check fails, naming it and the way out.
        let short = ((Double(bare.max()!) / 16000 - 0.05) * 100).rounded(.down) / 100
        let (failing, _) = try await check(banner: short)
        let worst = try Amount(minorUnits: Int64(bare.firstIndex(of: bare.max()!)!))
        let smallest = try Amount(minorUnits: Int64(whole.firstIndex { Double($0) > short * 16000 }!))
        // The advice names the amount's longest word, and the tempo that fits (the set's is 1;
        // TempoAdviceTests holds it to a build at that tempo); then which amounts lose 收款到账.
        let message = try #require(failing.problems.count == 1 ? failing.problems.first : nil)
        #expect(message.check == .budget && message.subject == "Assets/soundset.json")
        let opening = String(
            format:
                "the composed announcement of %@ lasts %.3f s even without 收款到账, over the %g s banner, which cuts it off: record faster takes (its longest word is ",
            worst.description, Double(bare.max()!) / 16000, short)
        let closing = String(
            format:
                ", set announcement.delivery to auto (a chain when the banner is too short), or lower maxAmount; 收款到账 is left out only where the whole announcement would outlast the %g s banner: from %@ up, and not for every amount above it",
            short, smallest.description)
        #expect(message.message.hasPrefix(opening) && message.message.hasSuffix(closing), "\(message.message)")
        let advice = String(message.message.dropFirst(opening.count).dropLast(closing.count))  // "7, 0.590 s), set tempo to 0.93 or lower (…)"
        let named = try #require(advice.split(separator: ",").first.map(String.init))
        #expect(SpeechLocale.zhCN.read(worst).contains(named))
        #expect(
            advice.range(
                of: #"^[^,]+, [0-9.]+ s\), set tempo to 0\.[0-9]{2} or lower \(the set is at 1; at 0\.[0-9]{2} the longest, [0-9.]+, lasts [0-9.]+ s\)$"#,
                options: .regularExpression)
                != nil, "\(advice)")

        // With delivery auto the amounts too long even bare are chained: no composed sound is cut,
        // and the longest composed is the longest that fits, whole or bare.
        let (chaining, _) = try await check(banner: short, delivery: "auto")
        #expect(chaining.ok, "\(chaining.problems)")
        let composedPlayed = zip(whole, bare).compactMap { whole, bare -> Int? in
            Double(whole) <= short * 16000 ? whole : Double(bare) <= short * 16000 ? bare : nil
        }
        #expect(chaining.budget?.composed.seconds == Double(composedPlayed.max()!) / 16000)
    }
}

@Suite struct CheckProblemKindTests {
    /// The kinds are an enum, and what `check --format json` writes as `check` is a public
    /// contract: the same strings as ever, and the report's new one.
    @Test func theKindsKeepTheirStrings() throws {
        #expect(
            CheckProblem.Kind.allCases.map(\.rawValue) == [
                "configuration", "integrity", "freshness", "durations", "format", "completeness", "budget", "report",
            ])
        let problem = CheckProblem(.integrity, "Output/Sounds/7.caf", "missing")
        let json = String(decoding: try JSONEncoder().encode(problem), as: UTF8.self)
        #expect(json.contains(#""check":"integrity""#), "\(json)")
        #expect(try JSONDecoder().decode(CheckProblem.self, from: Data(#"{"check": "budget", "subject": "a", "message": "b"}"#.utf8)).check == .budget)
        #expect(problem.description == "[integrity] Output/Sounds/7.caf: missing")
    }
}

/// The banner budget's tempo advice: the tempo it names fits when the set is built at it, and the
/// next step up does not; a set built with another soundset.json is called stale first, with no
/// advice from its figures.
@Suite struct TempoAdviceTests {
    /// Builds the complete pack at `tempo` with a `banner`, and checks it.
    static func check(in folder: TemporaryDirectory, banner: Double, tempo: Double) async throws -> CheckReport {
        let assets = folder.url.appendingPathComponent("Assets")
        if !FileManager.default.fileExists(atPath: assets.path) { try AssetPacks.completeChinese(in: try folder.folder("Assets")) }
        try configure(assets, banner: banner, tempo: tempo)
        let output = folder.url.appendingPathComponent("Output")
        _ = try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2))
        return await Checker.run(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output")
    }

    static func configure(_ assets: URL, banner: Double, tempo: Double) throws {
        try Data(
            #"{"sampleRate": 16000, "tempo": \#(tempo), "announcement": {"prefix": "received", "bannerSeconds": \#(banner)}, "maxAmount": "99999.99"}"#.utf8
        )
        .write(to: assets.appendingPathComponent("soundset.json"))
    }

    /// The number after `prefix` in `text`.
    static func number(after prefix: String, in text: String) -> Double? {
        guard let range = text.range(of: prefix) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    @Test func theAdvisedTempoFitsAndTheNextStepDoesNot() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // At tempo 1 the longest bare amount lasts `longest` s; a banner 0.2 s shorter cuts it.
        let failing = try await Self.check(in: folder, banner: 1, tempo: 1)
        let problem = try #require(failing.problems.first { $0.check == .budget }?.message)
        let longest = try #require(Self.number(after: "lasts ", in: problem))
        let banner = ((longest - 0.2) * 100).rounded() / 100
        // The check of that set with that banner (as a build with it would record it).
        try Self.configure(folder.url.appendingPathComponent("Assets"), banner: banner, tempo: 1)
        var manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        manifest.announcement?.bannerSeconds = banner
        let configuration = try ConfigurationLoader.load(
            from: folder.url.appendingPathComponent("Assets/soundset.json"), displayPath: "Assets/soundset.json")
        manifest.configurationHash = configuration.hash
        let advised = Checker.setCheck(manifest, configuration: configuration, assetsDisplay: "Assets", outputDisplay: "Output")
        let advice = try #require(advised.problems.first { $0.check == .budget }?.message)
        let tempo = try #require(Self.number(after: "set tempo to ", in: advice), "\(advice)")
        #expect(tempo < 1 && tempo >= 0.7, "\(advice)")

        // Built at that tempo, the check passes; one step up, the banner still cuts it.
        let atAdvice = try await Self.check(in: folder, banner: banner, tempo: tempo)
        #expect(atAdvice.ok, "\(atAdvice.problems)")
        let stepUp = try await Self.check(in: folder, banner: banner, tempo: ((tempo + 0.01) * 100).rounded() / 100)
        #expect(stepUp.problems.contains { $0.check == .budget }, "\(tempo) + 0.01 fits too")
    }

    @Test func aStaleSetGetsNoTempoAdvice() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let failing = try await Self.check(in: folder, banner: 1, tempo: 1)
        #expect(failing.problems.contains { $0.message.contains("set tempo to ") || $0.message.contains("no tempo down to 0.7 fits") })
        // The tempo changed in soundset.json, the set not built again: stale first, no advice.
        try Self.configure(folder.url.appendingPathComponent("Assets"), banner: 1, tempo: 0.75)
        let stale = await Checker.run(
            assets: folder.url.appendingPathComponent("Assets"), assetsDisplay: "Assets", output: folder.url.appendingPathComponent("Output"),
            outputDisplay: "Output")
        #expect(
            stale.problems.first
                == CheckProblem(.freshness, "Assets/soundset.json", "changed since the last build: run soundset build --assets Assets --output Output"))
        let budget = try #require(stale.problems.first { $0.check == .budget }?.message)
        #expect(!budget.contains("tempo"), "\(budget)")
        #expect(
            budget.hasSuffix(
                ": these are the figures of the set as last built, with another soundset.json: run soundset build --assets Assets --output Output, then check again"
            ))
    }
}
