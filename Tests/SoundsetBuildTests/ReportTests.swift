import Foundation
import SoundsetBuild
import SoundsetRuntime
import SoundsetTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct ReportTests {
    /// Parses the page as XML: every tag closed, attributes quoted, entities known.
    func isWellFormed(_ html: String) -> Bool {
        XMLParser(data: Data(html.utf8)).parse()
    }

    @Test func theReportShowsEveryClipWithTheManifestsFigures() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await BuiltSet.shared.copy(into: folder.url)
        let out = folder.url.appendingPathComponent("Output/report.html")
        let written = try Report.write(
            assets: folder.url.appendingPathComponent("Assets"), assetsDisplay: "Assets",
            output: folder.url.appendingPathComponent("Output"), outputDisplay: "Output",
            to: out, fileDisplay: "Output/report.html")
        let html = try String(contentsOf: out, encoding: .utf8)
        let manifest = try Manifest.load(from: folder.url.appendingPathComponent("Output/manifest.json"))
        #expect(written.clips == manifest.clips.count)
        #expect(isWellFormed(html))
        for clip in manifest.clips {
            let start = try #require(html.range(of: "id=\"clip-\(clip.name)\""), "\(clip.name)")
            let card = String(html[start.lowerBound...].prefix(while: { $0 != "§" }).components(separatedBy: "</article>")[0])
            #expect(card.contains("<tr><th>frames</th><td>\(clip.frames)</td></tr>"), "\(clip.name)")
            #expect(card.contains(String(format: "<tr><th>gain</th><td>%+.2f dB</td></tr>", clip.gain)), "\(clip.name)")
            #expect(card.contains(String(format: "<tr><th>true peak</th><td>%.2f dBTP</td></tr>", clip.truePeak)), "\(clip.name)")
            #expect(card.contains(String(format: "→ %.3f s", clip.seconds)), "\(clip.name)")
            #expect(card.contains("src=\"data:audio/wav;base64,"), "\(clip.name)")
        }
        // The banner budget, and where the optional takes of 一 would be heard.
        #expect(html.contains("<h3>Longest composed</h3>"))
        #expect(html.contains("<b>1_yi2</b>, 一 before 万 and 亿 (yí): not recorded: 1 is read instead; heard in 10010.50, 10000.00, 110000.00, 100000000.00<br/>"))
        #expect(html.contains("<b>1_yi4</b>, 一 before 十, 百 and 千 (yì): not recorded: 1 is read instead; heard in 10010.50, 1000.00, 110.00, 1100000.00</p>"))
        // Self-contained: no scripts, no external resources.
        for forbidden in ["<script", "<link", "http://", "https://", "src=\"//", "@import", "url("] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(html.contains("Longest announcement"))
        #expect(html.components(separatedBy: "class=\"announcement\"").count - 1 == 3)
    }

    @Test func warningsFireOnCraftedTakes() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        // A clipped take, a noisy take (room tone at -42 dBFS), an 8 kHz take.
        let loud = Takes.word(word: 0.3, rate: 16000, levelDb: -6, seed: 11).samples.map { max(-1, min(1, $0 * 4)) }
        try WAVFile.write(loud, to: assets.appendingPathComponent("clipped.wav"), rate: 16000, format: .float32)
        try WAVFile.write(
            Takes.word(word: 0.3, rate: 16000, levelDb: -14, roomDb: -42, seed: 12).samples,
            to: assets.appendingPathComponent("noisy.wav"), rate: 16000)
        try WAVFile.write(
            Takes.word(word: 0.3, rate: 8000, levelDb: -20, seed: 13).samples,
            to: assets.appendingPathComponent("narrow.wav"), rate: 8000)
        _ = try await BuildPipeline.run(
            BuildOptions(
                assets: assets, assetsDisplay: "Assets",
                output: folder.url.appendingPathComponent("Output"), outputDisplay: "Output"))
        let out = folder.url.appendingPathComponent("report.html")
        let written = try Report.write(
            assets: assets, assetsDisplay: "Assets", output: folder.url.appendingPathComponent("Output"),
            outputDisplay: "Output", to: out, fileDisplay: "report.html")
        let html = try String(contentsOf: out, encoding: .utf8)
        #expect(isWellFormed(html))
        #expect(html.contains("<li><a href=\"#clip-clipped\"><b>clipped</b></a>: "))
        #expect(html.range(of: #"<b>clipped</b></a>: \d+ samples are clipped at full scale"#, options: .regularExpression) != nil)
        #expect(html.range(of: #"<b>noisy</b></a>: noise floor -\d+ dBFS, above -50 dBFS"#, options: .regularExpression) != nil)
        #expect(html.contains("<b>narrow</b></a>: recorded at 8000 Hz and upsampled to 44100 Hz: record at 44.1 kHz or more"))
        #expect(html.range(of: #"<b>yuan</b></a>: 0\.\d+ s, over twice the median word \(0\.\d+ s\): is it one word\?"#, options: .regularExpression) != nil)
        #expect(html.range(of: #"<b>2</b></a>: recorded \d+ LU quieter than the other takes: check the microphone gain"#, options: .regularExpression) != nil)
        #expect(!html.contains("<b>3</b></a>:"))
        #expect(written.warnings >= 3)
    }
}
