import Foundation
import SoundsetBuild
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset build`.
enum BuildCommand {
    static let noCache = Option.flag(
        "--no-cache",
        help: "rebuild every clip, ignoring .soundset-cache beside the output folder (by default unchanged recordings are not processed again, "
            + "and a build with nothing changed writes nothing)")
    static let noWait = Option.flag(
        "--no-wait", help: "when another build of the same output folder runs, stop at once (exit 1) instead of waiting for it")
    static let report = Option.value(
        "--report", "FILE", shown: "OUTPUT.report.html, beside the set", help: "write the report to FILE")
    static let noReport = Option(
        name: "--no-report", help: "write no report, and remove OUTPUT.report.html (a report older than the set is worse than none)", notWith: report.name)
    static let verbose = Option(
        name: "--verbose",
        help: "print the clip table on every build, what the cache served, and the work done, counted (work: takes stat'ed, headers read, "
            + "hashed, decoded, resampled; fingerprint pairs compared; clips encoded, bytes written): an up-to-date set costs a stat of each "
            + "take and nothing else", notWith: Option.quiet.name)
    static let watch = Option.flag(
        "--watch",
        help: "build, then build again whenever the assets folder changes (polled with stat, so it works everywhere), until Ctrl-C; the "
            + "report reloads itself every second meanwhile, so a browser left open shows each new take")
    static let pollMs = Option(name: "--poll-ms", value: "N", defaultValue: "500", help: "how often --watch looks, in ms", onlyWith: watch.name)

    static let spec = CommandSpec(
        name: "build", summary: "trim, resample and loudness-normalise Assets/ into Output/ with a manifest",
        options: [
            .assets, .output.helping("folder to write; it must be new, empty or a soundset output"), .jobs, noCache, noWait, report, noReport, .quiet,
            verbose, watch, pollMs,
        ],
        about: Help.buildAbout,
        exitCodes: "exit codes: 0 built (or watched until Ctrl-C), 1 a recording, the configuration or the output folder is bad, 64 bad usage")

    static func run(
        _ arguments: [String], console: Console, spelling: CommandSpelling = .installed, exitAtOnce: @escaping @Sendable (Int32) -> Never
    ) async throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        _ = try parsed.arguments()
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = parsed.given(.jobs) {
            guard let value = Int(text), (1...256).contains(value) else { throw UsageError("\(Option.jobs.name) needs a whole number from 1 to 256") }
            jobs = value
        }
        let assets = parsed.value(.assets)!
        let output = parsed.value(.output)!
        let quiet = parsed.has(.quiet)
        try parsed.refuseWithExcluded(Self.verbose)
        try parsed.refuseWithoutItsFlag(Self.pollMs)
        guard let pollMs = Int(parsed.value(Self.pollMs)!), (10...60_000).contains(pollMs) else {
            throw UsageError("\(Self.pollMs.name) needs a whole number of milliseconds from 10 to 60000")
        }
        try parsed.refuseWithExcluded(Self.noReport)
        if let report = parsed.given(Self.report) {
            guard !report.isEmpty, !report.hasSuffix("/") else {
                throw UsageError("\(Self.report.name) needs a file name, e.g. \(Self.report.name) \(Option.output.defaultValue!).report.html")
            }
        }
        // One updating line on a terminal; nothing on a pipe or with --quiet.
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        var options = BuildOptions(
            assets: URL(fileURLWithPath: assets), assetsDisplay: assets.trimmingTrailingSlashes,
            output: URL(fileURLWithPath: output), outputDisplay: output.trimmingTrailingSlashes, jobs: jobs,
            useCache: !parsed.has(noCache), progress: nil, waitForOtherBuilds: !parsed.has(noWait),
            waiting: { console.err("soundset: \($0)…") }, writeReport: !parsed.has(noReport))
        options.reportFile = parsed.given(Self.report).map { (URL(fileURLWithPath: $0), $0) }
        options.spelling = spelling
        let printing = Printing(quiet: quiet, verbose: parsed.has(Self.verbose), progress: showProgress, console: console)
        if VoicesBuild.isSeveral(options) {
            try refuseForSeveralVoices(parsed, assets: options.assetsDisplay, output: options.outputDisplay)
            let stop = StopRequest.install(watching: false, output: options.outputDisplay, console: console, exitAtOnce: exitAtOnce)
            let status = await buildVoices(options, printing)
            withExtendedLifetime(stop) {}
            return status
        }
        if VoiceFolders.isSeveral(output: options.output) {
            console.err(
                "error: \(BuildProblem(options.outputDisplay, VoiceProblem.severalInOutput(output: options.outputDisplay, assets: options.assetsDisplay)))")
            console.err("soundset: build failed with 1 problem; \(options.outputDisplay) was not changed")
            return ExitCode.failure
        }
        if parsed.has(watch) {
            options.reportRefreshSeconds = 1
            return await BuildWatch(options: options, printing: printing, interval: .milliseconds(pollMs), exitAtOnce: exitAtOnce).run()
        }
        let stop = StopRequest.install(watching: false, output: options.outputDisplay, console: console, exitAtOnce: exitAtOnce)
        let status = await buildOnce(options, printing)
        withExtendedLifetime(stop) {}
        return status
    }

    /// How a build's results are printed.
    struct Printing: Sendable {
        var quiet: Bool, verbose: Bool, progress: Bool
        var console: Console

        /// The same, each line naming `voice` first (`voice en-US: `).
        func naming(_ voice: String) -> Printing {
            var printing = self
            let console = console
            printing.console = Console(out: { console.out(Voices.line($0, voice: voice)) }, err: { console.err(Voices.line($0, voice: voice)) })
            return printing
        }
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
                // --verbose shows the set's clips whatever the build had to do.
                if printing.verbose { printTable(report.manifest, console: console) }
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
