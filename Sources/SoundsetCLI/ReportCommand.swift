import Foundation
import SoundsetBuild
import SoundsetSetFolder

/// `soundset report`.
enum ReportCommand {
    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) async throws -> Int32 {
        let parsed = try Arguments(arguments, options: ["--assets", "--output", "--out"], flags: ["--help", "-h"])
        if parsed.wantsHelp {
            console.out(Help.report)
            return ExitCode.success
        }
        if let extra = parsed.positionals.first { throw UsageError("report takes no arguments, got '\(ClipNamePrinting.safe(extra))'") }
        let assets = (parsed.options["--assets"] ?? "Assets").trimmingTrailingSlashes
        let output = (parsed.options["--output"] ?? "Output").trimmingTrailingSlashes
        var options = BuildOptions(
            assets: URL(fileURLWithPath: assets), assetsDisplay: assets, output: URL(fileURLWithPath: output), outputDisplay: output,
            waiting: { console.err("soundset: \($0)…") }, writeReport: true)
        options.spelling = spelling
        if let out = parsed.options["--out"] {
            guard !out.isEmpty, !out.hasSuffix("/") else { throw UsageError("--out needs a file name, e.g. --out \(output).report.html") }
            options.reportFile = (URL(fileURLWithPath: out), out)
        }
        do {
            let report = try await BuildPipeline.writeReport(options)
            for note in report.notes { console.err("soundset: \(note)") }
            guard let written = report.report else {
                for warning in report.warnings { console.err("error: \(warning)") }
                return ExitCode.failure
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: options.reportLocation.url.path)[.size] as? Int) ?? 0
            console.out(
                String(
                    format: "wrote %@: %d clip%@, %d warning%@, %.0f KB", written, report.manifest.clips.count, report.manifest.clips.count == 1 ? "" : "s",
                    report.warnings.count, report.warnings.count == 1 ? "" : "s", Double(bytes) / 1024))
            return ExitCode.success
        } catch let failure as BuildFailure {
            for problem in failure.problems { console.err("error: \(problem)") }
            return ExitCode.failure
        }
    }
}
