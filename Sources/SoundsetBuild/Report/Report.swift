import Foundation
import SoundsetRuntime

/// `soundset report`: one self-contained HTML page for designers and release managers.
public enum Report {
    /// Gathers the report for the set in `output` built from `assets` and writes it to `file`
    /// (written aside and renamed into place). Returns the number of clips and warnings shown.
    /// With `refreshSeconds`, the page reloads itself that often (`refreshes(_:)` says so).
    /// - Throws: `BuildProblem` naming what could not be read or written.
    public static func write(assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, to file: URL, fileDisplay: String,
        refreshSeconds: Int? = nil, spelling: CommandSpelling = .installed
    ) throws -> (clips: Int, warnings: Int, bytes: Int)
    {
        // Written holding the swap lock it was gathered under, so no build swaps another set in
        // between: the page is always of the set beside it.
        let written: (data: ReportData, html: Data)
        do {
            written = try OutputFolder.reading(output) {
                let check = Checker.runUnlocked(assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay, spelling: spelling)
                let data = try ReportGatherer.gather(
                    assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay, check: check, spelling: spelling)
                let html = Data(ReportPage.html(data, refreshSeconds: refreshSeconds, configurationSHA: configurationSHA(assets)).utf8)
                do { try RegularFile.replace(file, with: html) } catch let failure as RegularFile.Failure {
                    throw BuildProblem(fileDisplay, "cannot be written (\(failure.reason)); check that its folder exists and is writable")
                }
                return (data, html)
            }
        } catch let problem as BuildProblem {
            throw problem
        } catch {
            throw BuildProblem(outputDisplay, "cannot be read for the report (\(error)): run \(Checker.rebuildCommand(assetsDisplay: assetsDisplay, outputDisplay: outputDisplay, spelling: spelling)) first")
        }
        return (written.data.clips.count, written.data.clips.reduce(0) { $0 + $1.warnings.count }, written.html.count)
    }

    /// The first 4 KiB of the report at `url`, which hold its head's tags, or nil when there is none.
    static func head(of url: URL) -> Data? { try? RegularFile.head(url, count: 4096).bytes }

    /// Whether a written report (or its `head(of:)`) reloads itself: its head carries
    /// `<meta http-equiv="refresh">`.
    public static func refreshes(_ html: Data) -> Bool {
        // The head's tags come first; its end may lie past the prefix, after the style sheet.
        let text = String(decoding: html.prefix(4096), as: UTF8.self)
        let end = text.range(of: "</head>", options: .caseInsensitive)?.lowerBound ?? text.endIndex
        return text[..<end].range(of: "<meta http-equiv=\"refresh\"", options: .caseInsensitive) != nil
    }

    /// The file name of the report inside a set's folder.
    public static let fileName = "report.html"

    /// The report of a set a build has staged (`staging`, which nobody else sees, so no lock), with
    /// the designer's warnings it shows beyond the build's own.
    /// - Parameters:
    ///   - summaries: what preparing each clip found, by clip name.
    ///   - previous: the set the build replaces.
    ///   - check: what the check says of the staged set (`Checker.setCheck`: its files were just
    ///     verified, and its recordings hashed, by the build).
    ///   - refreshSeconds: when set, the page reloads itself that often (a build that watches).
    static func staged(
        assets: URL, assetsDisplay: String, staging: URL, outputDisplay: String, summaries: [String: ClipSummary], previous: Manifest?,
        check: CheckReport, refreshSeconds: Int? = nil, spelling: CommandSpelling = .installed
    ) throws -> (html: Data, warnings: [BuildProblem]) {
        let data = try ReportGatherer.gather(
            assets: assets, assetsDisplay: assetsDisplay, output: staging, outputDisplay: outputDisplay, summaries: summaries, previous: previous,
            check: check, spelling: spelling)
        var warnings: [BuildProblem] = []
        for clip in data.clips {
            let own = Set(summaries[clip.name]?.warnings.map(\.message) ?? [])
            for warning in clip.warnings where !own.contains(warning) {
                warnings.append(BuildProblem("\(assetsDisplay)/\(ClipName.printable(clip.sourceFile))", warning))
            }
        }
        return (Data(ReportPage.html(data, refreshSeconds: refreshSeconds, configurationSHA: configurationSHA(assets)).utf8), warnings)
    }

    /// The tag that records which `soundset.json` (its sha256; empty for none) the page was made
    /// with: the report shows settings that do not change the set (`report.amounts`, `limits`,
    /// `maxAmount`), so a set found up to date has its report made again when they changed.
    static let configurationTag = #"<meta name="soundset-configuration" content=""#

    /// The sha256 of the assets' `soundset.json` (empty for none), as the report records it.
    private static func configurationSHA(_ assets: URL) -> String { Stamps.configurationFileSHA256(assets) ?? "unreadable" }

    /// Whether the written report `html` is the one a build with these settings writes: made with
    /// the assets' `soundset.json` as it is now, and reloading itself exactly when asked to.
    static func isCurrent(_ html: Data, assets: URL, refreshSeconds: Int?) -> Bool {
        guard refreshes(html) == (refreshSeconds != nil), let sha = Stamps.configurationFileSHA256(assets) else { return false }
        return html.prefix(4096).range(of: Data((configurationTag + sha + "\"").utf8)) != nil
    }
}
