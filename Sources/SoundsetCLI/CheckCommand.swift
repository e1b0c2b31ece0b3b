import Foundation
import SoundsetBuild
import SoundsetCheck
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset check`.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check", summary: "verify Output against Assets: integrity, freshness, durations, format, completeness, budget, report",
        options: [.assets, .output, .format], about: Help.checkAbout, exitCodes: "exit codes: 0 everything holds, 1 a problem was found, 64 bad usage")

    static func run(_ arguments: [String], console: Console, environment: [String: String], spelling: CommandSpelling = .installed) async throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        _ = try parsed.arguments()
        let format = try parsed.format()
        let assets = parsed.value(.assets)!.trimmingTrailingSlashes
        let output = parsed.value(.output)!.trimmingTrailingSlashes
        let report = await Checker.run(
            assets: URL(fileURLWithPath: assets), assetsDisplay: assets,
            output: URL(fileURLWithPath: output), outputDisplay: output, spelling: spelling)
        if environment["GITHUB_ACTIONS"] == "true" {
            for problem in report.problems {
                console.out(
                    "::error file=\(annotationProperty(problem.subject)),title=soundset \(problem.check.rawValue)::\(annotationMessage(problem.subject + ": " + problem.message))"
                )
            }
            for warning in report.warnings { console.out("::warning title=soundset::\(annotationMessage(warning))") }
        }
        if format == "json" {
            console.out(try JSONFormatting.text(report))
        } else {
            for problem in report.problems { console.out(problem.description) }
            for warning in report.warnings { console.out("warning: \(warning)") }
            console.out(summary(report))
        }
        return report.ok ? ExitCode.success : ExitCode.failure
    }

    static func summary(_ report: CheckReport) -> String {
        var text =
            report.ok
            ? "check passed: \(report.clips) clips"
            : "check failed: \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")"
        if let budget = report.budget {
            text += String(
                format: "; longest announcement up to %@ is %@: %.3f s in %d steps (budget %g s); most steps %d (limit %d)",
                budget.maxAmount, budget.worstAmount, budget.seconds, budget.steps, budget.limitSeconds, budget.maxSteps, budget.limitSteps)
            let composed = budget.composed
            text += String(format: "; composed %@: %.3f s (banner %g s)", composed.amount, composed.seconds, composed.limitSeconds)
            if let dropped = composed.prefixDroppedFrom {
                text += "; " + ComposedBudget.droppedWords(dropped, said: composed.dropped ?? "the prefix", banner: composed.limitSeconds)
            }
        }
        return text
    }

    /// GitHub workflow-command escaping for a message.
    static func annotationMessage(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub workflow-command escaping for a property value.
    static func annotationProperty(_ text: String) -> String {
        annotationMessage(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
