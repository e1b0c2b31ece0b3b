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
        options: [.assets, .output, .format, .voice.helping("check only this voice, when Assets holds several").defaulting(to: nil, shown: "every voice")],
        about: Help.checkAbout, exitCodes: "exit codes: 0 everything holds, 1 a problem was found, 64 bad usage")

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
        let voice = try Voices.name(parsed)
        if voice != nil || VoiceFolders.isSeveral(assets: URL(fileURLWithPath: assets)) {
            let checked = try await VoicesCheck.run(assets: assets, output: output, voice: voice, spelling: spelling)
            checked.print(format: format, annotate: environment["GITHUB_ACTIONS"] == "true", console: console)
            return checked.ok ? ExitCode.success : ExitCode.failure
        }
        let report = await Checker.run(
            assets: URL(fileURLWithPath: assets), assetsDisplay: assets,
            output: URL(fileURLWithPath: output), outputDisplay: output, spelling: spelling)
        if environment["GITHUB_ACTIONS"] == "true" { annotate(report, console: console) }
        if format == "json" {
            console.out(try JSONFormatting.text(report))
        } else {
            for problem in report.problems { console.out(problem.description) }
            for warning in report.warnings { console.out("warning: \(warning)") }
            console.out(summary(report))
        }
        return report.ok ? ExitCode.success : ExitCode.failure
    }

    /// The report's problems and warnings as GitHub workflow commands, each message after `lead`
    /// (`voice en-US: `).
    static func annotate(_ report: CheckReport, lead: String = "", console: Console) {
        for problem in report.problems {
            console.out(
                "::error file=\(annotationProperty(problem.subject)),title=soundset \(problem.check.rawValue)::\(annotationMessage(lead + problem.subject + ": " + problem.message))"
            )
        }
        for warning in report.warnings { console.out("::warning title=soundset::\(annotationMessage(lead + warning))") }
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
