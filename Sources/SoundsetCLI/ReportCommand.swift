import Foundation
import SoundsetBuild
import SoundsetSetFolder

/// `soundset report`.
enum ReportCommand {
    static let out = Option.value("--out", "FILE", shown: "OUTPUT.report.html, beside the set", help: "the page to write")

    static let spec = CommandSpec(
        name: "report", summary: "write the HTML page beside the set that shows and plays every clip, with what to re-record",
        options: [.assets, .output, .voice.helping("the voice whose report to write, when Assets holds several"), out], about: Help.reportAbout,
        exitCodes: "exit codes: 0 written, 1 the set is not up to date, could not be read or the page not written, 64 bad usage")

    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) async throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        _ = try parsed.arguments()
        let assets = parsed.value(.assets)!.trimmingTrailingSlashes
        let output = parsed.value(.output)!.trimmingTrailingSlashes
        var options = BuildOptions(
            assets: URL(fileURLWithPath: assets), assetsDisplay: assets, output: URL(fileURLWithPath: output), outputDisplay: output,
            waiting: { console.err("soundset: \($0)…") }, writeReport: true)
        options.spelling = spelling
        // With several voices, the voice's set and its report beside it (Output/voices/NAME.report.html).
        if let voice = try Voices.assetsVoice(parsed, assets: assets) { options = VoicesBuild.options(for: voice, from: options) }
        if let out = parsed.given(Self.out) {
            guard !out.isEmpty, !out.hasSuffix("/") else { throw UsageError("\(Self.out.name) needs a file name, e.g. \(Self.out.name) \(output).report.html") }
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
