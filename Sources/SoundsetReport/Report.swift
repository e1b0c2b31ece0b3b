import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// The report: one self-contained HTML page for designers and release managers, drawn from a set
/// and the build's findings (`ReportInput`), written beside the set's folder, never in it (the app
/// bundles the folder), and carrying the set's id so that a report of another set is recognised.
public enum Report {
    /// Where the report goes unless told otherwise: beside the set's folder, named after it
    /// (`Output` → `Output.report.html`).
    public static func defaultLocation(output: URL, outputDisplay: String) -> (url: URL, display: String) {
        let folder = output.standardizedFileURL
        return (folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).report.html"), "\(outputDisplay).report.html")
    }

    /// The page's head names the set it shows (`SoundSet.id`) and what else it was made with
    /// (`key(configuration:refreshSeconds:)`).
    static let setTag = #"<meta name="soundset-set" content=""#
    static let keyTag = #"<meta name="soundset-report" content=""#
    /// Every report soundset wrote has this title.
    static let title = ReportFile.title

    /// What a report depends on beyond its set: soundset's version, every setting (it shows the
    /// check's and its own, which change no clip) and whether it reloads itself.
    package static func key(configuration: Configuration, refreshSeconds: Int?) -> String {
        SHA256.hex(Data("report|\(ToolVersion.current)|\(configuration.allSettingsHash)|\(refreshSeconds.map(String.init) ?? "still")".utf8))
    }

    /// The page for `input`, and the clips' drawings made for it (the others were given).
    /// - Throws: `BuildProblem` naming a clip file that cannot be read.
    package static func render(_ input: ReportInput) throws(BuildProblem) -> (html: Data, drawn: [String: ClipDrawing]) {
        let made: (data: ReportData, drawn: [String: ClipDrawing])
        do { made = try ReportData.make(input) } catch let problem as BuildProblem { throw problem } catch {
            throw BuildProblem(input.outputDisplay, ReportProblem.undrawable(reason: "\(error)"))
        }
        let key = key(configuration: input.configuration, refreshSeconds: input.refreshSeconds)
        let html = ReportPage.html(made.data, refreshSeconds: input.refreshSeconds, key: key)
        let sounds = Dictionary(made.data.clips.map { ($0.name, $0.audio) }, uniquingKeysWith: { a, _ in a })
        return (try ReportPage.assemble(html, clips: sounds, display: input.outputDisplay), made.drawn)
    }

    /// The first 4 KiB of the file at `url`, which hold a report's head tags, or nil when there is none.
    package static func head(of url: URL) -> Data? { ReportFile.head(of: url) }

    /// Whether a written report (or its `head(of:)`) reloads itself: its head carries
    /// `<meta http-equiv="refresh">`.
    public static func refreshes(_ html: Data) -> Bool {
        head(html).range(of: "<meta http-equiv=\"refresh\"", options: .caseInsensitive) != nil
    }

    /// Whether soundset wrote the page whose beginning is `html`.
    package static func isSoundsetReport(_ html: Data) -> Bool { ReportFile.isSoundsetReport(html) }

    /// The id of the set a written report shows, or nil when it names none (not a report, or one
    /// from before soundset 0.9).
    package static func setID(in html: Data) -> String? { tag(setTag, in: html) }

    /// Whether the written report `html` is the one a build would write now of the set `setID`
    /// with the report's `key`.
    package static func isCurrent(_ html: Data, setID: String, key: String) -> Bool {
        Self.setID(in: html) == setID && tag(keyTag, in: html) == key
    }

    /// The text of the head before `</head>` (`ReportFile.head`).
    private static func head(_ html: Data) -> Substring { ReportFile.head(html) }

    /// The content of the head's tag that begins `opening`.
    private static func tag(_ opening: String, in html: Data) -> String? {
        let text = head(html)
        guard let start = text.range(of: opening)?.upperBound, let end = text[start...].firstIndex(of: "\"") else { return nil }
        return String(text[start..<end])
    }
}
