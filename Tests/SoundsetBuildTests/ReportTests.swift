import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetBuild
@testable import SoundsetFindings
@testable import SoundsetReport
@testable import SoundsetSetFolder

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct ReportTests {
    /// Parses the page as XML: every tag closed, attributes quoted, entities known.
    func isWellFormed(_ html: String) -> Bool {
        XMLParser(data: Data(html.utf8)).parse()
    }

    /// The options of a build of `folder`'s Assets into its Output, with the report.
    func options(_ folder: URL, refreshSeconds: Int? = nil) -> BuildOptions {
        var options = BuildOptions(
            assets: folder.appendingPathComponent("Assets"), assetsDisplay: "Assets", output: folder.appendingPathComponent("Output"),
            outputDisplay: "Output", jobs: 2, writeReport: true)
        options.reportRefreshSeconds = refreshSeconds
        return options
    }

    /// The complete zh-CN set's report, as `soundset report` writes it, beside the set.
    func completeReport(refreshSeconds: Int? = nil) async throws -> (html: String, data: Data, manifest: Manifest) {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await BuiltSet.shared.copy(into: folder.url)
        _ = try await BuildPipeline.writeReport(options(folder.url, refreshSeconds: refreshSeconds))
        let data = try Data(contentsOf: folder.url.appendingPathComponent("Output.report.html"))
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        return (String(decoding: data, as: UTF8.self), data, manifest)
    }

    /// The report's input for the complete set, as a build that wrote its report leaves it: the
    /// set, the findings and the drawings the memo keeps.
    func completeInput(in folder: URL) async throws -> ReportInput {
        try await BuiltSet.shared.copy(into: folder)
        _ = try await BuildPipeline.writeReport(options(folder))
        let output = folder.appendingPathComponent("Output")
        let manifest = try Manifest.load(from: output.appendingPathComponent("manifest.json"))
        let memo = DiskMemo(output: output)
        let findings = try #require(memo.findings(ofManifest: SHA256.hex(try manifest.encoded())))
        return ReportInput(
            manifest: manifest, sounds: output.appendingPathComponent("Sounds"), outputDisplay: "Output", findings: findings,
            configuration: try configuration(folder), drawings: memo.drawings(), envelopes: [:], refreshSeconds: nil, jobs: 2)
    }

    /// The configuration in `folder`'s Assets.
    func configuration(_ folder: URL) throws -> Configuration {
        try ConfigurationLoader.load(from: folder.appendingPathComponent("Assets/soundset.json"), displayPath: "Assets/soundset.json")
    }

    @Test func theReportShowsEveryClipWithTheManifestsFigures() async throws {
        let (html, data, manifest) = try await completeReport()
        #expect(isWellFormed(html))
        for clip in manifest.clips {
            let card = try #require(self.card(clip.name, in: html), "\(clip.name)")
            #expect(card.contains("<tr><th>frames</th><td>\(clip.frames)</td></tr>"), "\(clip.name)")
            #expect(card.contains(String(format: "<tr><th>gain</th><td>%+.2f dB</td></tr>", clip.gain)), "\(clip.name)")
            #expect(card.contains(String(format: "<tr><th>true peak</th><td>%.2f dBTP</td></tr>", clip.truePeak)), "\(clip.name)")
            #expect(card.contains(String(format: "→ %.3f s", clip.seconds)), "\(clip.name)")
            #expect(card.contains("src=\"data:audio/wav;base64,"), "\(clip.name)")
        }
        // The banner budget, and where the optional takes of 一 would be heard.
        #expect(html.contains("<h3>Longest composed</h3>"))
        // 100000000.00 is above the default maxAmount (99999999.99), so it is not listed.
        #expect(html.contains("<b>1_yi2</b>, 一 before 万 and 亿 (yí): not recorded: 1 is read instead; heard in 10000.00, 110000.00<br/>"))
        #expect(html.contains("<b>1_yi4</b>, 一 before 十, 百 and 千 (yì): not recorded: 1 is read instead; heard in 1000.00, 110.00, 1100000.00</p>"))
        // Self-contained: no external resources, and no script but the button that plays every clip in turn.
        for forbidden in ["<link", "http://", "https://", "src=\"//", "@import", "url("] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(html.components(separatedBy: "<script").count - 1 == 1)
        #expect(html.contains(ReportPage.playEveryClip))
        #expect(html.contains("Longest announcement"))
        // The default samples: a few amounts up to maxAmount that together say every clip.
        // Here one: its reading says every word up to 99999999.99, and it fits the banner with 收款到账.
        let samples = ReportSamples.amounts(configuration: Configuration(), manifest: manifest)
        #expect(samples == ["97862405.13"])
        // 亿 is in no amount up to the maximum: the page says so rather than hide it.
        #expect(html.contains("<p class=\"legend unsaid\">No sample says hundred_million ("))
        #expect(html.contains("no amount up to maxAmount 99999999.99 needs it"))
        let played = try PlayedAnnouncement.of(try Amount(samples[0]), manifest: manifest)
        #expect(Set(played.plan.tokens) == Set(manifest.clips.map(\.name)).subtracting(["hundred_million"]))
        #expect(html.components(separatedBy: "class=\"announcement\"").count - 1 == samples.count)
        // It names the set it shows.
        #expect(Report.setID(in: data) == SoundSet(manifest: manifest, folder: URL(fileURLWithPath: "/")).id)
        // And says, where it shows it, what that id covers (serve's pinned id covers more).
        let id = SoundSet(manifest: manifest, folder: URL(fileURLWithPath: "/")).id
        #expect(html.contains("<span title=\"\(ReportPage.setIDMeaning)\">set \(id)</span>"))
    }

    /// A clip's player plays the clip itself: its file as a WAV, the same samples bit for bit (the
    /// complete pack is a 16 kHz set), loaded with the page so its length shows before it plays;
    /// a sample announcement's plays an 8-bit preview at half the set's rate (8 kHz), as long as
    /// what it previews.
    @Test func clipPlayersPlayTheClipsAndSamplesPlayPreviews() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let input = try await completeInput(in: folder.url)
        let html = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
        let players = matches(#"<audio controls="controls" preload="auto" src="data:audio/wav;base64,([A-Za-z0-9+/=]+)""#, in: html)
        let sounds = players.map { Data(base64Encoded: $0[0])! }
        let samples = ReportSamples.amounts(configuration: input.configuration, manifest: input.manifest).count
        #expect(samples >= 1)
        #expect(sounds.count == input.manifest.clips.count + samples)
        #expect(!html.contains("preload=\"metadata\""))
        #expect(input.manifest.sampleRate == 16000)
        // The sample announcements come first, then the clips in the page's order.
        for (index, preview) in sounds.prefix(samples).enumerated() {
            let file = try SoundFile.open(bytes: preview, path: "preview \(index)")
            #expect(file.info.encodingName == "Unsigned 8 bit PCM", "\(file.info.encodingName)")
            #expect(file.info.channels == 1)
            #expect(file.info.sampleRate == 8000, "\(index): \(file.info.sampleRate)")
        }
        let order = matches(#"<article class="clip[^"]*" id="clip-(\w+)">"#, in: html).map { $0[0] }
        #expect(order.count == input.manifest.clips.count)
        for (name, played) in zip(order, sounds.dropFirst(samples)) {
            let clip = try #require(input.manifest.clips.first { $0.name == name })
            let file = try SoundFile.open(bytes: played, path: name)
            #expect(file.info.encodingName == "Signed 16 bit PCM", "\(name): \(file.info.encodingName)")
            #expect(file.info.sampleRate == 16000 && file.info.frames == clip.frames, "\(name): \(file.info.frames) frames for \(clip.frames)")
            let own = try SoundFile.open(reading: input.sounds.appendingPathComponent(clip.file).path).readAll()
            #expect(try file.readAll() == own, "\(name)")
        }
    }

    /// A 44.1 kHz CAF set's clips are played as WAVs of the same samples: each player's samples are
    /// the clip file's, in WAV's byte order, so the page holds each clip once (copies are not played
    /// twice), about 4/3 of its bytes in base64.
    @Test func thePageHoldsEachClipOnce() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        _ = try await BuildPipeline.run(options(folder.url))
        let html = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        #expect(manifest.sampleRate == 44100 && manifest.container == .caf)
        let sounds = folder.url.appendingPathComponent("Output/Sounds")
        let played = matches(#"src="data:audio/wav;base64,([A-Za-z0-9+/=]+)""#, in: html).map { Data(base64Encoded: $0[0])! }
        #expect(played.count == manifest.clips.count)
        let order = matches(#"<article class="clip[^"]*" id="clip-(\w+)">"#, in: html).map { $0[0] }
        var clipBytes = 0
        for (name, wav) in zip(order, played) {
            let clip = try #require(manifest.clips.first { $0.name == name })
            let file = try SoundData(parsing: try Data(contentsOf: sounds.appendingPathComponent(clip.file)), name: clip.file)
            clipBytes += file.samples.count
            let heard = try SoundData(parsing: wav, name: name)
            #expect(heard.format.container == .wav && heard.samples == file.converted(to: .wav).samples && heard.frames == clip.frames, "\(name)")
        }
        // Each sound was put where its mark was: none is left, and no text could forge one.
        #expect(!html.utf8.contains(0))
        #expect(ReportPage.escape("a\u{0}b<") == "a\u{FFFD}b&lt;")
        #expect(Double(html.utf8.count) > 4.0 / 3 * Double(clipBytes), "\(html.utf8.count) bytes of page, \(clipBytes) of samples")
        #expect(Double(html.utf8.count) < 4.0 / 3 * Double(clipBytes) + 400_000, "\(html.utf8.count) bytes of page, \(clipBytes) of samples")
    }

    /// The card of clip `name`: from its id to the end of its article.
    func card(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "id=\"clip-\(name)\"") else { return nil }
        return String(html[start.lowerBound...].components(separatedBy: "</article>")[0])
    }

    /// Every match of `pattern` in `text`, as its capture groups.
    func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).map { String(text[Range(match.range(at: $0), in: text)!]) }
        }
    }

    @Test func eachClipSaysWhatItSaysInGroupsInTheGuidesOrder() async throws {
        let (html, _, manifest) = try await completeReport()
        let guide = ClipGuide.of(.zhCN)
        for clip in manifest.clips {
            let entry = try #require(guide.entries.first { $0.name == clip.name }, "\(clip.name)")
            let text = try #require(self.card(clip.name, in: html), "\(clip.name)")
            #expect(
                text.contains(
                    "<p class=\"says\" lang=\"zh-CN\">\(entry.says)</p><p class=\"pinyin\">\(entry.pronounced!)</p><h3><code>\(clip.name)</code></h3>"),
                "\(clip.name)")
        }
        #expect(card("ten", in: html)!.contains("十</p><p class=\"pinyin\">shí</p><h3><code>ten</code>"))
        // Each sample announcement written in characters, from the plan's clips (2Copy says 二).
        #expect(html.contains("<span class=\"said\" lang=\"zh-CN\">收款到账九千七百八十六万二千四百零五点一三元</span>"))
        // Digits, units, phrases; within a group the guide's order, not the names'.
        let groups = matches(#"<h3 class="group" data-group="(\w+)">"#, in: html).map { $0[0] }
        #expect(groups == ["digits", "units", "phrases"])
        let order = matches(#"<article class="clip[^"]*" id="clip-(\w+)">"#, in: html).map { $0[0] }
        #expect(order == (0...9).map(String.init) + ["ten", "hundred", "thousand", "ten_thousand", "hundred_million", "point", "yuan", "received"])
        // Every player shows its length before it is played.
        let players = html.components(separatedBy: "<audio ").count - 1
        #expect(players == manifest.clips.count + 1)
        #expect(html.components(separatedBy: "<audio controls=\"controls\" preload=\"auto\" ").count - 1 == players)
        #expect(!html.contains("preload=\"none\""))
    }

    @Test func waveformsAndTimelinesShareATimeScale() async throws {
        let (html, _, manifest) = try await completeReport()
        // The clips' scale bar, in the clips' section.
        let clipsSection = try #require(html.components(separatedBy: "<h2>Clips</h2>").last)
        let bar = try #require(
            matches(#"<svg class="scalebar" width="[\d.]+" height="16" data-seconds="([\d.]+)" data-width="([\d.]+)""#, in: clipsSection).first)
        let pixelsPerSecond = Double(bar[1])! / Double(bar[0])!
        // Every clip's waveforms, recording and clip, at that scale: widths in the ratio of their durations.
        let waves = matches(#"<svg width="([\d.]+)" height="\d+" data-seconds="([\d.]+)" class="wave (source|output)""#, in: html)
        #expect(waves.count == 2 * manifest.clips.count)
        for wave in waves {
            #expect(abs(Double(wave[0])! - Double(wave[1])! * pixelsPerSecond) <= 0.06, "\(wave)")
        }
        let order = matches(#"<article class="clip[^"]*" id="clip-(\w+)">"#, in: html).map { $0[0] }
        let widths = Dictionary(uniqueKeysWithValues: zip(order, waves.filter { $0[2] == "output" }.map { Double($0[0])! }))
        let word = try #require(manifest.clips.first { $0.name == "0" }), phrase = try #require(manifest.clips.first { $0.name == "received" })
        #expect(phrase.seconds > 2 * word.seconds)
        #expect(abs(widths["received"]! / widths["0"]! - phrase.seconds / word.seconds) < 0.01)
        // Each waveform is drawn in its own units and scaled to its width: its path spans them.
        let drawn = matches(#"viewBox="0 0 ([\d.]+) 64" preserveAspectRatio="none"[^>]*>(?:<rect[^>]*/>)*<path d="M0 32L([^"]+)Z""#, in: html)
        #expect(drawn.count == 2 * manifest.clips.count)
        for path in drawn {
            let xs = path[1].split(separator: " ").enumerated().filter { $0.offset % 2 == 0 }.map { Double($0.element)! }
            #expect(xs.min() == 0 && xs.max() == Double(path[0]), "\(path[0])")
        }
        // The timelines share one scale: the clips' when the longest fits, else their own, as the page says.
        let timelines = matches(#"<svg class="timeline" width="([\d.]+)" height="[\d.]+" data-seconds="([\d.]+)""#, in: html)
        #expect(timelines.count == 1)
        let scales = timelines.map { (Double($0[0])! - 48) / Double($0[1])! }
        for scale in scales { #expect(abs(scale - scales[0]) < 0.05, "\(scales)") }
        if abs(scales[0] - pixelsPerSecond) < 0.05 {
            #expect(html.contains("The timelines are drawn to the clips' scale"))
        } else {
            #expect(html.contains("The timelines share one scale of their own, 1 s = \(fmt(scales[0])) px"))
        }
    }

    @Test func refreshIsInTheHeadOnlyWhenAsked() async throws {
        let plain = try await completeReport()
        #expect(!Report.refreshes(plain.data))
        #expect(!plain.html.contains("http-equiv"))
        let watched = try await completeReport(refreshSeconds: 3)
        #expect(Report.refreshes(watched.data))
        let head = watched.html.components(separatedBy: "</head>")[0]
        #expect(head.contains("<meta http-equiv=\"refresh\" content=\"3\"/>"))
        #expect(isWellFormed(watched.html))
        // A page that mentions a refresh only in its body does not refresh.
        #expect(!Report.refreshes(Data("<html><head><title>x</title></head><body>&lt;meta http-equiv=\"refresh\"</body></html>".utf8)))
        #expect(!Report.refreshes(Data("<html><head></head><body><meta http-equiv=\"refresh\" content=\"1\"/></body></html>".utf8)))
        // The same set and settings, reloading or not: two reports, each current for its own key.
        var configuration = Configuration()
        configuration.sampleRate = 16000
        configuration.announcement.prefix = "received"
        let id = SoundSet(manifest: plain.manifest, folder: URL(fileURLWithPath: "/")).id
        #expect(Report.isCurrent(plain.data, setID: id, key: Report.key(configuration: configuration, refreshSeconds: nil)))
        #expect(!Report.isCurrent(plain.data, setID: id, key: Report.key(configuration: configuration, refreshSeconds: 3)))
        #expect(Report.isCurrent(watched.data, setID: id, key: Report.key(configuration: configuration, refreshSeconds: 3)))
        #expect(!Report.isCurrent(plain.data, setID: "0123456789", key: Report.key(configuration: configuration, refreshSeconds: nil)))
    }

    /// The report is drawn from the set and the findings alone: a copy of the set's folder with no
    /// recordings and no cache beside it gives the same page.
    @Test func theReportIsDrawnFromTheSetAndItsFindingsAlone() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var input = try await completeInput(in: folder.url)
        let page = try Data(contentsOf: folder.url.appendingPathComponent("Output.report.html"))
        let alone = try folder.folder("elsewhere/Set")
        try FileManager.default.removeItem(at: alone)
        try FileManager.default.copyItem(at: folder.url.appendingPathComponent("Output"), to: alone)
        for name in ["Assets", "Output", DiskMemo.folderName] { try FileManager.default.removeItem(at: folder.url.appendingPathComponent(name)) }
        input.sounds = alone.appendingPathComponent("Sounds")
        let rendered = try Report.render(input)
        #expect(rendered.html == page)
        #expect(rendered.drawn.isEmpty)
        // Without a clip's drawing, it is drawn from its recording's envelope, which the findings do
        // not hold: the page says which clip it cannot draw.
        input.drawings = [:]
        #expect(throws: BuildProblem("Output/Sounds/0.caf", "has no drawing and no recording's envelope to draw it from")) {
            try Report.render(input)
        }
    }

    @Test func limitsTonesAndChangesFromTheFindings() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var input = try await completeInput(in: folder.url)
        // A limit below one clip's length marks that clip, and only it, over.
        let yuan = try #require(input.manifest.clips.first { $0.name == "yuan" })
        input.configuration.limits.maxSeconds = ["yuan": 0.1]
        var html = String(decoding: try Report.render(input).html, as: UTF8.self)
        #expect(
            card("yuan", in: html)!.contains(
                String(format: "<div class=\"limit over\" title=\"limits.maxSeconds yuan\">%.2f s of 0.1 s <b>over</b>", yuan.seconds)))
        #expect(html.components(separatedBy: "class=\"limit over\"").count - 1 == 1)
        let zero = try #require(input.manifest.clips.first { $0.name == "0" })
        #expect(card("0", in: html)!.contains(String(format: "<div class=\"limit\" title=\"the default limit\">%.2f s of 1.2 s<svg", zero.seconds)))
        #expect(card("received", in: html)!.contains("s of 4 s<svg"))
        // The tones card lists no amount above maxAmount.
        input.configuration.maxAmountMinorUnits = 5_000_00
        html = String(decoding: try Report.render(input).html, as: UTF8.self)
        let tones = try #require(html.components(separatedBy: "<h3>Tones of 一</h3>").last?.components(separatedBy: "</div>").first)
        let listed = matches(#"(\d+\.\d\d)"#, in: tones).map { try! Amount($0[0]) }
        #expect(!listed.isEmpty)
        #expect(listed.allSatisfy { $0 <= input.configuration.maxAmount }, "\(listed)")
        #expect(tones.contains("heard in no sample up to maxAmount 5000.00"))
        // Against a previous set whose clip 4 had another recording: that clip, and only it, is badged.
        var previous = input.manifest
        let four = try #require(previous.clips.firstIndex { $0.name == "4" })
        previous.clips[four].sha256 = String(repeating: "0", count: 64)
        previous.clips[four].source.sha256 = String(repeating: "1", count: 64)
        input.findings.changes = BuildChanges(input.manifest, replacing: previous)
        html = String(decoding: try Report.render(input).html, as: UTF8.self)
        #expect(html.components(separatedBy: "class=\"badge changed\"").count - 1 == 1)
        #expect(card("4", in: html)!.contains(">recording changed</span>"))
    }

    @Test func theLoudnessChartShowsTheSpreadAndEachGain() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let output = folder.url.appendingPathComponent("Output")
        let report = folder.url.appendingPathComponent("Output.report.html")
        _ = try await BuildPipeline.run(options(folder.url))
        let first = try String(contentsOf: report, encoding: .utf8)
        let manifest = try Manifest.load(from: output.appendingPathComponent("manifest.json"))
        // One gain bar per clip, left of zero for a cut and right for a boost, as long as its gain.
        let bars = matches(
            #"<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" class="gain (up|down)" data-clip="(\w+)" data-gain="(-?[\d.]+)"/>"#, in: first)
        #expect(bars.count == manifest.clips.count)
        for clip in manifest.clips {
            let bar = try #require(bars.first { $0[3] == clip.name }, "\(clip.name)")
            #expect(bar[2] == (clip.gain < 0 ? "down" : "up"))
            #expect(Double(bar[4])! == (clip.gain * 100).rounded() / 100)
        }
        let perDb = bars.map { Double($0[1])! / abs(Double($0[4])!) }
        for scale in perDb { #expect(abs(scale - perDb[0]) < 0.2, "\(perDb)") }
        #expect(Set(bars.map { $0[1] }).count == bars.count, "the recordings lie 10 dB and more apart: every bar differs")
        let spread = try #require(matches(#"<b>The recordings spread (\d+\.\d) LU</b>"#, in: first).first.map { Double($0[0])! })
        #expect(spread > 15)
        #expect(first.contains("Spread</h3><p class=\"value\">\(String(format: "%.1f", spread)) → "))
        // A first build compares with nothing: no badges.
        #expect(!first.contains("class=\"badge"))
        #expect(first.contains("<h3>Changes</h3><p class=\"value\">not compared</p>"))

        // Another recording of 3, rebuilt: that clip, and only it, carries the badge.
        try WAVFile.write(
            Takes.word(word: 0.45, rate: 48000, levelDb: -24, crest: 14, seed: 77).samples, to: assets.appendingPathComponent("3.wav"), rate: 48000,
            format: .float32)
        _ = try await BuildPipeline.run(options(folder.url))
        let second = try String(contentsOf: report, encoding: .utf8)
        #expect(card("3", in: second)!.contains("<span class=\"badge changed\" title=\"changed since the last build\">recording changed</span>"))
        #expect(second.components(separatedBy: "class=\"badge").count - 1 == 1)
        #expect(second.contains("<h3>Changes</h3><p class=\"value\">1 changed</p><p>1 recording changed: 3<br/>3 unchanged</p>"))
    }

    @Test func warningsFireOnCraftedTakes() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        // A clipped take, a noisy take (room tone at -42 dBFS), an 8 kHz take (each at a pitch and
        // length no other take has: Signals.word of one pitch and length is the same recording).
        let loud = Takes.word(word: 0.3, rate: 16000, levelDb: -6, seed: 11).samples.map { max(-1, min(1, $0 * 4)) }
        try WAVFile.write(loud, to: assets.appendingPathComponent("clipped.wav"), rate: 16000, format: .float32)
        try WAVFile.write(
            Takes.word(word: 0.3, rate: 16000, levelDb: -14, roomDb: -42, seed: 14).samples,
            to: assets.appendingPathComponent("noisy.wav"), rate: 16000)
        try WAVFile.write(
            Takes.word(word: 0.3, rate: 8000, levelDb: -20, seed: 13).samples,
            to: assets.appendingPathComponent("narrow.wav"), rate: 8000)
        let built = try await BuildPipeline.run(options(folder.url))
        let html = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
        #expect(isWellFormed(html))
        #expect(html.contains("<li><a href=\"#clip-clipped\"><b>clipped</b></a>: "))
        #expect(html.range(of: #"<b>clipped</b></a>: \d+ samples are clipped at full scale"#, options: .regularExpression) != nil)
        #expect(html.range(of: #"<b>noisy</b></a>: noise floor -\d+ dBFS, above -50 dBFS"#, options: .regularExpression) != nil)
        #expect(html.contains("<b>narrow</b></a>: recorded at 8000 Hz and upsampled to 44100 Hz: record at 44.1 kHz or more"))
        #expect(html.range(of: #"<b>yuan</b></a>: 0\.\d+ s, over twice the median word \(0\.\d+ s\): is it one word\?"#, options: .regularExpression) != nil)
        #expect(html.range(of: #"<b>2</b></a>: recorded \d+ LU quieter than the other takes: check the microphone gain"#, options: .regularExpression) != nil)
        #expect(!html.contains("<b>3</b></a>:"))
        // Clips the guide does not know show just their name, with the phrases.
        #expect(card("clipped", in: html)!.contains("<p class=\"says unknown\">clipped</p><h3><code>clipped</code></h3>"))
        let groups = matches(#"<h3 class="group" data-group="(\w+)">"#, in: html).map { $0[0] }
        #expect(groups == ["digits", "units", "phrases"])
        // What the page lists of the takes is what the build printed, note for note.
        let listed = matches(##"<li><a href="#clip-(\w+)"><b>\w+</b></a>: ([^<]+)</li>"##, in: html).map {
            "\($0[0]): \($0[1].replacingOccurrences(of: "&#39;", with: "'"))"
        }
        let printed = built.warnings.filter { $0.subject.hasPrefix("Assets/") && $0.subject != "Assets/soundset.json" }
            .map { "\(URL(fileURLWithPath: $0.subject).deletingPathExtension().lastPathComponent): \($0.message)" }
        #expect(listed.count >= 6)
        #expect(listed == printed)
    }
}

/// The report's samples are what the phone plays (`PlayedAnnouncement`), with the rules' one line.
@Suite struct ReportSampleTests {
    @Test func aSampleOverTheBannerIsPlayedWithoutThePrefixAndSaysSo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        try Data(
            #"{"sampleRate": 16000, "announcement": {"prefix": "received", "bannerSeconds": 2}, "report": {"amounts": ["1", "99999.99"]}}"#.utf8
        ).write(to: assets.appendingPathComponent("soundset.json"))
        let output = folder.url.appendingPathComponent("Output")
        let built = try await BuildPipeline.run(
            BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2, writeReport: true))
        let html = try String(contentsOf: folder.url.appendingPathComponent("Output.report.html"), encoding: .utf8)
        let short = try PlayedAnnouncement.of(try Amount("1"), manifest: built.manifest)
        let long = try PlayedAnnouncement.of(try Amount("99999.99"), manifest: built.manifest)
        #expect(short.note == nil && short.plan.clips.first == "received")
        let note = try #require(long.note)
        #expect(note.hasPrefix("played without 收款到账"), "\(note)")
        // Written as played: 收款到账 一元, and 九万九千… without it, with the line that says why.
        #expect(html.contains("<span class=\"said\" lang=\"zh-CN\">收款到账一元</span>"))
        #expect(html.contains("<span class=\"said\" lang=\"zh-CN\">九万九千九百九十九点九九元</span>"))
        #expect(html.contains("<small class=\"note\">\(ReportPage.escape(note))</small>"))
        #expect(html.contains(String(format: "%.3f s, %d clips; preview at 8 kHz", long.plan.totalSeconds, long.plan.steps.count)))
        // And the button that plays every clip in turn, once.
        #expect(html.components(separatedBy: "id=\"play-every-clip\"").count - 1 == 1)
    }
}
