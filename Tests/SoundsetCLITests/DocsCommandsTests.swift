import Foundation
import SoundsetTestSupport
import Testing

/// Every `soundset …` command (and the `openssl` commands that make their keys) in README.md, docs/ios.md, docs/runtime.md, docs/commands.md, docs/configuration.md and docs/check.md runs as written on the shipped demo (a
/// copy of `Assets/` and `Output/`), and succeeds or says what it needs; where the docs show what it
/// prints, it prints that, line for line (`…` standing for a composed file's UUID or a set's id).
@Suite struct DocsCommandsTests {
    /// A command written in a document, with the output shown after it, if any.
    struct Command: CustomStringConvertible {
        var document: String
        var line: Int
        var text: String
        /// The lines the document shows it printing; `…` stands for any text.
        var shown: [String]
        var description: String { "\(document):\(line): \(text)" }
    }

    /// The `soundset …` lines of the fenced code blocks of `document` (`$ ` before them allowed, a
    /// `# comment` after), leaving out usage lines and lines of a script (placeholders such as
    /// AMOUNT or DIR, `[options]`, shell variables).
    static func commands(in document: String) throws -> [Command] {
        let text = try String(contentsOf: SoundsetExecutable.packageRoot.appendingPathComponent(document), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var commands: [Command] = []
        var inBlock = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard inBlock else { continue }
            let prompted = line.hasPrefix("$ ")
            let body = prompted ? String(line.dropFirst(2)) : line
            // `$ cat FILE` shows a file the next commands read: the reader writes it. `openssl` makes
            // the keys the next commands sign and verify with.
            guard body.hasPrefix("soundset ") || body.hasPrefix("openssl ") || (prompted && body.hasPrefix("cat ")) else { continue }
            let command = body.components(separatedBy: " #").first!.trimmingCharacters(in: .whitespaces)
            let placeholder =
                command.range(
                    of: #"(?<![-\w])(AMOUNT|DIR|FILE|ID|SECONDS|NAME|MODE|KEY|VALUE|LOCALE|FORMAT|COMMAND|N)(?![-\w])|\[|\$"#, options: .regularExpression)
                != nil
            guard !placeholder else { continue }
            // What a `$ ` command is shown printing: the lines up to the next command or the block's end.
            var shown: [String] = []
            if prompted && !body.contains(" #") {
                var next = index
                while next < lines.count, !lines[next].hasPrefix("```"), !lines[next].hasPrefix("$ "), !lines[next].isEmpty {
                    shown.append(lines[next])
                    next += 1
                }
            }
            commands.append(Command(document: document, line: index, text: command, shown: shown))
        }
        return commands
    }

    /// Whether `output` is `shown`, line for line, `…` matching any text within a line.
    static func matches(_ shown: [String], _ output: String) -> Bool {
        var printed = output.components(separatedBy: "\n")
        if printed.last == "" { printed.removeLast() }
        guard printed.count == shown.count else { return false }
        return zip(shown, printed).allSatisfy { expected, line in
            let pattern = "^" + expected.components(separatedBy: "…").map(NSRegularExpression.escapedPattern).joined(separator: ".*") + "$"
            return line.range(of: pattern, options: .regularExpression) != nil
        }
    }

    @Test func everyDocumentedCommandRunsOnTheDemo() throws {
        var count = 0
        // Each document on a fresh copy of the demo, its commands in order, as a reader runs them.
        for document in ["README.md", "docs/ios.md", "docs/runtime.md", "docs/commands.md", "docs/configuration.md", "docs/check.md"] {
            let commands = try Self.commands(in: document)
            count += commands.count
            try run(commands)
        }
        #expect(count >= 6)
    }

    func run(_ commands: [Command]) throws {
        let folder = try TemporaryDirectory("soundset-docs")
        defer { folder.remove() }
        for name in ["Assets", "Output", "docs"] {
            try FileManager.default.copyItem(
                at: SoundsetExecutable.packageRoot.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        // The docs' /tmp, as every machine has it.
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        for command in commands {
            if command.text.hasPrefix("cat ") {
                // A file the page shows is the repository's, as shown.
                let name = String(command.text.dropFirst(4))
                let text = try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
                #expect(text == command.shown.joined(separator: "\n") + "\n", "\(command): the page shows another file")
                continue
            }
            // Folders the docs put in /tmp are put in the copy, so that runs never meet.
            let text = command.text.replacingOccurrences(of: "/tmp/", with: folder.url.path + "/tmp/")
            let result = try SoundsetExecutable.shell(text, in: folder.url)
            // It works, or it fails saying what it needs (never bad usage).
            let saysWhatItNeeds = result.status == 1 && result.stderr.range(of: #"\b(run|record|set|leave out) "#, options: .regularExpression) != nil
            #expect(result.status == 0 || saysWhatItNeeds, "\(command): exit \(result.status)\n\(result.stderr)")
            #expect(
                command.shown.isEmpty || Self.matches(command.shown, result.stdout),
                "\(command) shows\n\(command.shown.joined(separator: "\n"))\nbut prints\n\(result.stdout)")
        }
    }

    @Test func theExtractionFindsTheCommandsAndTheirOutput() throws {
        let commands = try Self.commands(in: "docs/ios.md")
        let announce = try #require(commands.first { $0.text.hasPrefix("soundset announce 123.45") })
        #expect(!announce.shown.isEmpty)
        #expect(
            Self.matches(
                ["shortened a: composed soundset-….caf, from 1000.000 to …"], "shortened a: composed soundset-1.caf, from 1000.000 to 1004.2 (wait 0)\n"))
        #expect(!Self.matches(["announced a: …"], "shortened a: composed\n"))
        // Every line printed is shown: one more, or one fewer, is a difference.
        #expect(!Self.matches(["announced a: …"], "announced a: x\nreason: y\n"))
        #expect(!Self.matches(["announced a: …", "reason: …"], "announced a: x\n"))
        // A file the page shows with `$ cat` is found, with what it shows, before the commands that read it.
        let payload = try #require(commands.firstIndex { $0.text == "cat docs/push.json" })
        #expect(commands[payload].shown.first?.hasPrefix("{") == true)
        #expect(commands[(payload + 1)...].contains { $0.text.contains("--payload docs/push.json") })
        // Usage lines are not commands.
        #expect(!commands.contains { $0.text.contains("AMOUNT") })
    }
}
