import Foundation
import SoundsetBuild
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset build`.
enum BuildCommand {
    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) async throws -> Int32 {
        let parsed = try Arguments(
            arguments, options: ["--assets", "--output", "--jobs", "--poll-ms", "--report"],
            flags: ["--quiet", "--verbose", "--no-cache", "--no-wait", "--no-report", "--watch", "--help", "-h"])
        if parsed.wantsHelp {
            console.out(Help.build)
            return ExitCode.success
        }
        if let extra = parsed.positionals.first { throw UsageError("build takes no arguments, got '\(ClipNamePrinting.safe(extra))'") }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = parsed.options["--jobs"] {
            guard let value = Int(text), (1...256).contains(value) else { throw UsageError("--jobs needs a whole number from 1 to 256") }
            jobs = value
        }
        let assets = parsed.options["--assets"] ?? "Assets"
        let output = parsed.options["--output"] ?? "Output"
        let quiet = parsed.flags.contains("--quiet")
        let verbose = parsed.flags.contains("--verbose")
        if quiet && verbose { throw UsageError("--quiet and --verbose cannot both be given") }
        var pollMs = 500
        if let text = parsed.options["--poll-ms"] {
            guard parsed.flags.contains("--watch") else { throw UsageError("--poll-ms is for --watch") }
            guard let value = Int(text), (10...60_000).contains(value) else {
                throw UsageError("--poll-ms needs a whole number of milliseconds from 10 to 60000")
            }
            pollMs = value
        }
        if let report = parsed.options["--report"] {
            guard !parsed.flags.contains("--no-report") else { throw UsageError("--report and --no-report cannot both be given") }
            guard !report.isEmpty, !report.hasSuffix("/") else { throw UsageError("--report needs a file name, e.g. --report Output.report.html") }
        }
        // One updating line on a terminal; nothing on a pipe or with --quiet.
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        var options = BuildOptions(
            assets: URL(fileURLWithPath: assets), assetsDisplay: assets.trimmingTrailingSlashes,
            output: URL(fileURLWithPath: output), outputDisplay: output.trimmingTrailingSlashes, jobs: jobs,
            useCache: !parsed.flags.contains("--no-cache"), progress: nil, waitForOtherBuilds: !parsed.flags.contains("--no-wait"),
            waiting: { console.err("soundset: \($0)…") }, writeReport: !parsed.flags.contains("--no-report"))
        options.reportFile = parsed.options["--report"].map { (URL(fileURLWithPath: $0), $0) }
        options.spelling = spelling
        let printing = Printing(quiet: quiet, verbose: verbose, progress: showProgress, console: console)
        if parsed.flags.contains("--watch") {
            options.reportRefreshSeconds = 1
            return await BuildWatch(options: options, printing: printing, interval: .milliseconds(pollMs)).run()
        }
        let stop = StopRequest.install(watching: false, output: options.outputDisplay, console: console)
        let status = await buildOnce(options, printing)
        withExtendedLifetime(stop) {}
        return status
    }

    /// How a build's results are printed.
    struct Printing: Sendable {
        var quiet: Bool, verbose: Bool, progress: Bool
        var console: Console
    }

    /// Runs one build and prints what it did: the table or what changed, the summary, then the
    /// warnings; or every problem. Returns the exit code.
    static func buildOnce(_ options: BuildOptions, _ printing: Printing) async -> Int32 {
        let console = printing.console
        let started = Date()
        var options = options
        if printing.progress { options.progress = progressLine(started: started) }
        let report: BuildReport
        do {
            // The progress line is wiped before anything else is printed, however the build ends.
            defer { if printing.progress { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) } }
            report = try await BuildPipeline.run(options)
            Interruption.shared.waitIfEnding()
        } catch let failure as BuildFailure {
            Interruption.shared.waitIfEnding()
            for warning in failure.warnings { console.err("warning: \(warning)") }
            for problem in failure.problems { console.err("error: \(problem)") }
            console.err(
                "soundset: build failed with \(failure.problems.count) problem\(failure.problems.count == 1 ? "" : "s"); \(options.outputDisplay) was not changed"
            )
            return ExitCode.failure
        } catch {
            Interruption.shared.waitIfEnding()
            console.err("error: \(error)")
            return ExitCode.failure
        }
        // What else the build did (soundset 0.8's report moved out of the set), said even with --quiet.
        for note in report.notes { console.err("soundset: \(note)") }
        if !printing.quiet {
            if report.upToDate {
                let done: String
                switch report.reportChange {
                case .written: done = "report made again"
                case .removed: done = "\(Report.defaultLocation(output: options.output, outputDisplay: options.outputDisplay).display) removed (--no-report)"
                case nil: done = "nothing to do"
                }
                console.out("\(options.outputDisplay) is up to date: \(report.manifest.clips.count) clips, \(done)")
            } else {
                print(report, output: options.outputDisplay, elapsed: Date().timeIntervalSince(started), verbose: printing.verbose, console: console)
                if report.reportChange == .removed {
                    console.out("\(Report.defaultLocation(output: options.output, outputDisplay: options.outputDisplay).display) removed (--no-report)")
                }
            }
            // What the build did, counted: decoded, resampled, compared, encoded, written.
            if printing.verbose { console.out(report.work.summary) }
            // The last line names the report, which is beside the set, not in it.
            if let file = report.report { console.out("report: \(file)") }
        }
        // Last, so they are what a designer reads when the build ends.
        for warning in report.warnings { console.err("warning: \(warning)") }
        guard report.errors.isEmpty else {
            for problem in report.errors { console.err("error: \(problem)") }
            console.err(
                "soundset: built \(options.outputDisplay), but \(report.errors.count) problem\(report.errors.count == 1 ? "" : "s") remain\(report.errors.count == 1 ? "s" : "") beside it"
            )
            return ExitCode.failure
        }
        return ExitCode.success
    }

    /// Writes `[done/total] clip  elapsed` over the previous progress line on standard error.
    static func progressLine(started: Date) -> @Sendable (Int, Int, String) -> Void {
        { done, total, name in
            let elapsed = Date().timeIntervalSince(started)
            let line = "\r\u{1B}[2K[\(done)/\(total)] \(name)  " + String(format: "%.1f s", elapsed)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// The clip table (a first build, or `--verbose`) or what changed, then the set's summary.
    private static func print(_ report: BuildReport, output: String, elapsed: TimeInterval, verbose: Bool, console: Console) {
        let manifest = report.manifest
        if verbose || report.previous == nil {
            printTable(manifest, console: console)
        } else {
            console.out(report.changes.summary)
        }
        let loudness = manifest.clips.map(\.loudness)
        let spread = (loudness.max() ?? 0) - (loudness.min() ?? 0)
        let copies = manifest.clips.filter { $0.copy != nil }.count
        console.out(
            String(
                format: "built %d clips and %d copies into %@ (%@ %@, %d Hz) in %.1f s: level %.1f LUFS, spread %.2f LU, worst true peak %.2f dBTP",
                manifest.clips.count, copies, output, manifest.container.rawValue, manifest.encoding.rawValue, manifest.sampleRate, elapsed,
                manifest.loudness.setLevel, spread, manifest.clips.map(\.truePeak).max() ?? 0))
        console.out("level: \(manifest.loudness.reason)")
        if verbose && (report.preparedFromCache > 0 || report.finishedFromCache > 0 || report.drawnFromCache > 0) {
            let drawn = report.report == nil ? "" : " and \(report.drawnFromCache) drawn"
            console.out(
                "cache: \(report.preparedFromCache) of \(manifest.clips.count) clips prepared, \(report.finishedFromCache) finished\(drawn) from \(DiskMemo.folderName)"
            )
        }
    }
}

extension BuildCommand {
    /// Every clip's figures, one line each.
    static func printTable(_ manifest: Manifest, console: Console) {
        let nameWidth = max(8, manifest.clips.map(\.name.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        console.out(pad("clip", nameWidth) + "   seconds    loudness   true peak      gain   limiting")
        for clip in manifest.clips {
            console.out(
                pad(clip.name, nameWidth)
                    + String(
                        format: "  %8.3f s  %5.1f LUFS  %5.1f dBTP  %+6.1f dB  %5.1f dB%@",
                        clip.seconds, clip.loudness, clip.truePeak, clip.gain, clip.limiting,
                        clip.copy.map { "  + \($0)" } ?? ""))
        }
    }
}

extension String {
    var trimmingTrailingSlashes: String {
        var text = self
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
