import Foundation
import SoundsetBuild

/// `soundset report`.
enum ReportCommand {
    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) throws -> Int32 {
        let parsed = try Arguments(arguments, options: ["--assets", "--output", "--out"], flags: ["--help", "-h"])
        if parsed.wantsHelp {
            console.out(Help.report)
            return ExitCode.success
        }
        if let extra = parsed.positionals.first { throw UsageError("report takes no arguments, got '\(ClipNamePrinting.safe(extra))'") }
        let assets = (parsed.options["--assets"] ?? "Assets").trimmingTrailingSlashes
        let output = (parsed.options["--output"] ?? "Output").trimmingTrailingSlashes
        let out = parsed.options["--out"] ?? "\(output)/report.html"
        do {
            let written = try Report.write(
                assets: URL(fileURLWithPath: assets), assetsDisplay: assets, output: URL(fileURLWithPath: output), outputDisplay: output,
                to: URL(fileURLWithPath: out), fileDisplay: out, spelling: spelling)
            console.out(String(format: "wrote %@: %d clips, %d warnings, %.0f KB", out, written.clips, written.warnings, Double(written.bytes) / 1024))
            return ExitCode.success
        } catch let problem as BuildProblem {
            console.err("error: \(problem)")
            return ExitCode.failure
        }
    }
}
