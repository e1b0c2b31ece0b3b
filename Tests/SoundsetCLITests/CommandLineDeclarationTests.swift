import Foundation
import SoundsetTestSupport
import Testing

@testable import SoundsetCLI

/// Every command's options are declared once (`CommandSpec`, `Option`): each declared option is
/// accepted by the parser and listed by the command's `--help` (through the binary, as a user
/// types it), an unknown one is bad usage naming it, and the docs name no option a command lacks.
@Suite struct CommandLineDeclarationTests {
    /// Each command with each of its options: its arguments as a user would give them.
    static var everyOption: [(command: CommandSpec, option: Option, arguments: [String])] {
        Help.commands.flatMap { command in
            command.accepted.map { option in (command, option, [option.name] + (option.value == nil ? [] : [sample(option)])) }
        }
    }

    /// A value the parser accepts for `option`: its first choice, or a word.
    static func sample(_ option: Option) -> String { option.choices?.first ?? "x" }

    /// Text with every run of spaces and newlines made one space, so a wrapped help compares.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test func everyDeclaredOptionParses() throws {
        var count = 0
        for (command, option, arguments) in Self.everyOption {
            let parsed = try Arguments(arguments, spec: command)
            if option.value == nil {
                #expect(parsed.has(option), "\(command.name) \(option.name)")
            } else if option.repeatable {
                let twice = try Arguments(arguments + arguments, spec: command)
                #expect(twice.values(option) == [Self.sample(option), Self.sample(option)], "\(command.name) \(option.name)")
            } else {
                #expect(parsed.given(option) == Self.sample(option), "\(command.name) \(option.name)")
                let joined = try Arguments(["\(option.name)=\(Self.sample(option))"], spec: command)
                #expect(joined.given(option) == Self.sample(option), "\(command.name) \(option.name)=")
                // Each choice declared is one the command reads.
                for choice in option.choices ?? [] { #expect(try Arguments([option.name, choice], spec: command).choice(option) == choice) }
            }
            if let short = option.short { #expect(try Arguments([short], spec: command).has(option), "\(command.name) \(short)") }
            count += 1
        }
        #expect(count >= 60, "\(count) options")
    }

    /// The binary accepts each option (it parses before it prints the help) and its help lists it,
    /// with its value, what it does and its default, and the synopsis names it.
    @Test func everyDeclaredOptionIsAcceptedAndListedByTheBinary() throws {
        var helps: [String: String] = [:]
        for (command, option, arguments) in Self.everyOption {
            let help = try helps[command.name] ?? SoundsetExecutable.run([command.name, "--help"]).stdout
            helps[command.name] = help
            #expect(help.contains("\n  \(option.label)  "), "\(command.name) --help lacks \(option.label)")
            #expect(Self.flat(help).contains(Self.flat(option.helpText)), "\(command.name) --help lacks what \(option.name) does")
            let synopsis = help.components(separatedBy: "\n\n")[0]
            #expect(option.name == Option.help.name || synopsis.contains(option.name), "the synopsis of \(command.name) lacks \(option.name)")
            let given = try SoundsetExecutable.run([command.name] + arguments + ["--help"])
            #expect(given.status == 0 && given.stdout == help, "\(command.name) \(arguments): exit \(given.status) \(given.stderr)")
        }
    }

    @Test func anUnknownOptionIsBadUsageNamingItAndTheCommandsHelp() throws {
        for command in Help.commands {
            let result = try SoundsetExecutable.run([command.name, "--no-such-option"])
            #expect(result.status == 64, "\(command.name)")
            #expect(result.stdout == "")
            let help = command.name == "help" ? "soundset --help" : "soundset \(command.name) --help"
            #expect(result.stderr == "soundset: unknown option '--no-such-option'\nrun '\(help)' for usage\n", "\(command.name)")
        }
        // A slip of the finger is answered with the option meant.
        for (arguments, meant) in [
            (["build", "--ouput", "x"], "--output"), (["serve", "--thread", "2"], "--threads"), (["plan", "1", "--gapms", "3"], "--gap-ms"),
            (["clips", "--local", "en-US"], "--locale"), (["announce", "1", "--groop", "G"], "--group"),
        ] {
            let result = try SoundsetExecutable.run(arguments)
            #expect(result.status == 64)
            #expect(
                result.stderr
                    == "soundset: unknown option '\(arguments[arguments.count - 2])': did you mean \(meant)?\nrun 'soundset \(arguments[0]) --help' for usage\n"
            )
        }
    }

    @Test func aMissingValueIsBadUsageNamingTheOption() throws {
        for (command, option, _) in Self.everyOption where option.value != nil {
            let result = try SoundsetExecutable.run([command.name, option.name])
            #expect(result.status == 64, "\(command.name) \(option.name)")
            #expect(result.stderr == "soundset: \(option.name) needs a value\nrun 'soundset \(command.name) --help' for usage\n")
        }
    }

    /// A command's arguments are held to its declaration: none, exactly one, or one or more.
    @Test func argumentsAreHeldToTheDeclaration() throws {
        for command in Help.commands where command.name != "help" {
            let declared = command.arguments
            let extra = declared.name.isEmpty ? ["extra"] : declared.many ? [] : ["1", "2"]
            let message =
                declared.name.isEmpty
                ? "\(declared.refusal ?? "\(command.name) takes no arguments"), got 'extra'"
                : declared.many ? declared.missing : "give one \(declared.name), got 2"
            let required = command.options.filter(\.required).flatMap { [$0.name, "x"] }
            let result = try SoundsetExecutable.run([command.name] + extra + required)
            #expect(result.status == 64, "\(command.name)")
            #expect(result.stderr == "soundset: \(message)\nrun 'soundset \(command.name) --help' for usage\n", "\(command.name)")
        }
        #expect(AnnounceCommand.spec.arguments.synopsis == "(AMOUNT | --payload FILE)")
        #expect(MeasureCommand.spec.arguments.synopsis == "FILE...")
    }

    @Test func aValueOutsideTheChoicesIsNamed() throws {
        #expect(Option.format.choiceProblem == "--format must be text or json")
        #expect(ClipsCommand.format.choiceProblem == "--format must be text, json or markdown")
        let result = try SoundsetExecutable.run(["replay", "pushes.txt", "--group", "G", "--format", "json"])
        #expect(result.status == 64)
        #expect(result.stderr == "soundset: --format must be text or jsonl\nrun 'soundset replay --help' for usage\n")
    }

    /// docs/cli.md is `soundset help --markdown`, as committed.
    @Test func docsCliIsTheCommandsOwn() throws {
        let committed = try String(contentsOf: SoundsetExecutable.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let generated = try SoundsetExecutable.run(["help", "--markdown"])
        #expect(generated.status == 0)
        #expect(committed == generated.stdout, "docs/cli.md is not what soundset help --markdown prints: run soundset help --markdown > docs/cli.md")
        for command in Help.commands {
            #expect(committed.contains("## soundset \(command.name)\n"))
            for option in command.accepted { #expect(committed.contains("| `\(option.label.replacingOccurrences(of: "|", with: "\\|"))` |")) }
        }
    }

    /// The flags the docs show that are no command's: soundset's own `--version`, and other
    /// programs' (swift, docker, curl).
    static let otherProgramsFlags: Set<String> = [
        "--package-path", "--static-swift-stdlib", "--rm", "--header", "--http2", "--data", "--cert", "--cert-type", "--version",
    ]

    /// Every `--flag` the docs write after `soundset COMMAND` (in a code block's line or a code span)
    /// is one of that command's, and every other `--flag` they write is some command's (or another
    /// program's, named above): a flag documented without existing fails here.
    @Test func theDocsNameOnlyDeclaredOptions() throws {
        let root = SoundsetExecutable.packageRoot
        let documents =
            ["README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path).filter { $0.hasSuffix(".md") }.map { "docs/\($0)" })
        let names = Dictionary(uniqueKeysWithValues: Help.commands.map { ($0.name, Set($0.accepted.map(\.name))) })
        let all = names.values.reduce(Set<String>()) { $0.union($1) }
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                for flag in Self.flags(in: line) {
                    #expect(all.contains(flag) || Self.otherProgramsFlags.contains(flag), "\(document):\(number + 1): \(flag) is no command's option")
                }
                for (command, flags) in Self.commandsFlags(in: line) {
                    guard let declared = names[command] else { continue }
                    for flag in flags {
                        #expect(declared.contains(flag), "\(document):\(number + 1): soundset \(command) has no option \(flag)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked >= 50, "\(checked) flags written after soundset COMMAND")
    }

    /// The `--flags` in `text`.
    static func flags(in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"(?<![\w-])--[a-z][a-z0-9-]*"#)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
    }

    /// Each `soundset COMMAND …` in `line` with the flags written after it, up to the end of its
    /// code span, a shell comment or operator, or the next `soundset`.
    static func commandsFlags(in line: String) -> [(String, [String])] {
        let regex = try! NSRegularExpression(pattern: #"\bsoundset ([a-z]+)((?:(?!soundset )[^`#;&>])*)"#)
        return regex.matches(in: line, range: NSRange(line.startIndex..., in: line)).map { match in
            (String(line[Range(match.range(at: 1), in: line)!]), flags(in: String(line[Range(match.range(at: 2), in: line)!])))
        }
    }

    @Test func theDocsCheckFindsAFlagACommandLacks() {
        let found = Self.commandsFlags(in: "run `soundset check --jobs 2` then soundset build --jobs 2 # --watch")
        #expect(found.map(\.0) == ["check", "build"])
        #expect(found.map(\.1) == [["--jobs"], ["--jobs"]])
        #expect(!CheckCommand.spec.accepted.map(\.name).contains("--jobs"))
    }

    /// The synopsis: arguments, required options bare, exclusive ones in one bracket, a dependent one
    /// inside its flag's, a repeatable one marked; wrapped under the command.
    @Test func theSynopsisIsMadeFromTheDeclaration() {
        #expect(
            BuildCommand.spec.synopsisItems == [
                "[--assets DIR]", "[--output DIR]", "[--jobs N]", "[--no-cache]", "[--no-wait]", "[--report FILE | --no-report]",
                "[--quiet | --verbose]", "[--watch [--poll-ms N]]",
            ])
        #expect(AnnouncementCommand.renderSpec.synopsisItems.prefix(2) == ["AMOUNT", "--out FILE"])
        #expect(AnnouncementCommand.planSpec.synopsisItems.contains("[--reading KEY=VALUE]..."))
        for command in Help.commands {
            let lines = command.synopsis.components(separatedBy: "\n")
            #expect(lines.allSatisfy { $0.count <= CommandSpec.width }, "\(command.name)")
            #expect(lines[0].hasPrefix("usage: soundset \(command.name)"))
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: "usage: soundset \(command.name) ".count)) })
        }
    }
}
