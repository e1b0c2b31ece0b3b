import Foundation
import SoundsetRuntime

/// `soundset report`: one self-contained HTML page for designers and release managers.
public enum Report {
    /// Gathers the report for the set in `output` built from `assets` and writes it to `file`
    /// (written aside and renamed into place). Returns the number of clips and warnings shown.
    /// - Throws: `BuildProblem` naming what could not be read or written.
    public static func write(assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, to file: URL, fileDisplay: String)
        throws -> (clips: Int, warnings: Int, bytes: Int)
    {
        let data: ReportData
        do {
            data = try OutputFolder.reading(output) {
                try ReportGatherer.gather(assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay)
            }
        } catch let problem as BuildProblem {
            throw problem
        } catch {
            throw BuildProblem(outputDisplay, "cannot be read for the report (\(error)): run soundset build first")
        }
        let html = Data(ReportPage.html(data).utf8)
        do { try RegularFile.replace(file, with: html) } catch {
            throw BuildProblem(fileDisplay, "cannot be written (\(error.reason)); check that its folder exists and is writable")
        }
        return (data.clips.count, data.clips.reduce(0) { $0 + $1.warnings.count }, html.count)
    }
}
