import Foundation
import SoundsetBuild
import SoundsetFindings
import SoundsetSetFolder

/// Exit codes: 0 success, 1 failure, 64 bad usage (sysexits' EX_USAGE).
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
}

/// The `soundset` command line: parses arguments, runs the command, returns the exit code.
public enum SoundsetCommandLine {
    /// Runs `soundset` with `arguments` (without the program name).
    /// - Parameter program: how the program was started (`argv[0]`): the hints name the command so
    ///   that it works where the user is (`Invocation`).
    /// - Parameter exitAtOnce: ends the process at once (a second Ctrl-C, a signal during a build):
    ///   main's `_exit`, the one call that ends the process outside main (no atexit handler runs
    ///   under worker threads inside a C library).
    public static func run(
        _ arguments: [String], console: Console = .standard, environment: [String: String] = ProcessInfo.processInfo.environment,
        program: String = CommandLine.arguments.first ?? "soundset", exitAtOnce: @escaping @Sendable (Int32) -> Never
    ) async -> Int32 {
        let spelling = Invocation.spelling(program: program, environment: environment)
        guard let command = arguments.first else {
            console.out(Help.overview)
            return ExitCode.success
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "-h", "--help":
                if let topic = rest.first {
                    guard let text = Help.text(for: topic) else { throw UsageError("unknown command '\(ClipNamePrinting.safe(topic))'") }
                    console.out(text)
                } else {
                    console.out(Help.overview)
                }
                return ExitCode.success
            case "help":
                return try help(rest, console: console)
            case "--version", "version":
                let parsed = try Arguments(rest, spec: Help.versionSpec)
                if parsed.wantsHelp {
                    console.out(Help.versionSpec.help)
                    return ExitCode.success
                }
                _ = try parsed.arguments()
                console.out("soundset \(ToolVersion.current)")
                return ExitCode.success
            case "clips":
                return try ClipsCommand.run(rest, console: console)
            case "build":
                return try await BuildCommand.run(rest, console: console, spelling: spelling, exitAtOnce: exitAtOnce)
            case "plan":
                return try AnnouncementCommand.run(.plan, rest, console: console, spelling: spelling)
            case "render":
                return try AnnouncementCommand.run(.render, rest, console: console, spelling: spelling)
            case "announce":
                return try AnnounceCommand.run(rest, console: console, spelling: spelling)
            case "replay":
                return try ReplayCommand.run(rest, console: console, spelling: spelling)
            case "check":
                return try await CheckCommand.run(rest, console: console, environment: environment, spelling: spelling)
            case "measure":
                return try MeasureCommand.run(rest, console: console)
            case "report":
                return try await ReportCommand.run(rest, console: console, spelling: spelling)
            case "serve":
                return try await ServeCommand.run(rest, console: console, spelling: spelling)
            case "pack":
                return try PackCommand.run(rest, console: console, spelling: spelling)
            case "install-pack":
                return try InstallPackCommand.run(rest, console: console)
            default:
                throw UsageError("unknown command '\(ClipNamePrinting.safe(command))'")
            }
        } catch let error as UsageError {
            console.err("soundset: \(error.message)")
            let known = Help.text(for: command) != nil && !["help", "-h", "--help"].contains(command)
            console.err(known ? "run '\(spelling.command("\(command) --help"))' for usage" : "run '\(spelling.command("--help"))' for usage")
            return ExitCode.usage
        } catch {
            console.err("soundset: \(error)")
            return ExitCode.failure
        }
    }
}

extension SoundsetCommandLine {
    /// `soundset help [COMMAND]`: the overview, a command's help, or with `--markdown` docs/cli.md.
    static func help(_ arguments: [String], console: Console) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: Help.helpSpec)
        if parsed.wantsHelp {
            console.out(Help.helpSpec.help)
        } else if parsed.has(Help.markdownFlag) {
            console.out(Help.markdown)
        } else if let topic = parsed.positionals.first {
            guard let text = Help.text(for: topic) else { throw UsageError("unknown command '\(ClipNamePrinting.safe(topic))'") }
            console.out(text)
        } else {
            console.out(Help.overview)
        }
        return ExitCode.success
    }
}

enum ClipNamePrinting {
    /// Escapes control characters so an argument prints on one line.
    static func safe(_ text: String) -> String { ClipName.printable(text) }
}
