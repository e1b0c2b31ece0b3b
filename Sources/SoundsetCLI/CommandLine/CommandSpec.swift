/// The arguments a command takes besides its options, as it declares them.
struct Positionals: Sendable {
    /// `AMOUNT`, `FILE`; empty for none.
    var name: String
    /// One or more (`FILE...`), not exactly one.
    var many = false
    /// May be left out (`[COMMAND]`).
    var optional = false
    /// What the command says when none is given (`plan needs an AMOUNT, e.g. 123.45`).
    var missing = ""
    /// An option given instead of the argument (`--payload FILE` for `AMOUNT`).
    var instead: Option?
    /// What the command says of an argument when it takes none (`build takes no arguments`).
    var refusal: String?

    static let none = Positionals(name: "")
    /// No arguments, as `refusal` says in the command's words.
    static func refusing(_ refusal: String) -> Positionals { Positionals(name: "", refusal: refusal) }
    /// Exactly one, e.g. `AMOUNT`.
    static func one(_ name: String, missing: String, instead: Option? = nil) -> Positionals {
        Positionals(name: name, missing: missing, instead: instead)
    }
    /// One or more, e.g. `FILE...`.
    static func many(_ name: String, missing: String) -> Positionals { Positionals(name: name, many: true, missing: missing) }

    /// `AMOUNT`, `FILE...`, `(AMOUNT | --payload FILE)`.
    var synopsis: String {
        guard !name.isEmpty else { return "" }
        if let instead { return "(\(name) | \(instead.label))" }
        return optional ? "[\(name)]" : name + (many ? "..." : "")
    }
}

/// A command as the command line declares it: its arguments, its options (each declared once, in
/// `Option`), and the prose of its help. Its `--help`, its synopsis, the parser's options and
/// docs/cli.md are made from it.
struct CommandSpec: Sendable {
    /// `build`.
    var name: String
    /// The line the overview gives the command.
    var summary: String
    /// The arguments besides the options (`AMOUNT`, `FILE...`), first in the synopsis.
    var arguments: Positionals = .none
    var options: [Option]
    /// What the command does, between the synopsis and the options.
    var about: String
    /// A paragraph after the options, if any.
    var after: String? = nil
    /// `exit codes: 0 built, …`.
    var exitCodes: String

    /// The width the help is wrapped to.
    static let width = 100

    /// The options the parser accepts: the declared ones and `--help`.
    var accepted: [Option] { options.contains { $0.name == Option.help.name } ? options : options + [.help] }

    /// The declared option named `name` (or with that short alias).
    func option(named name: String) -> Option? {
        accepted.first { $0.name == name || $0.short == name }
    }

    /// `usage: soundset build [--assets DIR] …`, wrapped under the command.
    var synopsis: String {
        let lead = "usage: soundset \(name) "
        let text = Self.wrap(synopsisItems, width: Self.width, first: lead, rest: String(repeating: " ", count: lead.count))
        return synopsisItems.isEmpty ? String(text.dropLast()) : text
    }

    /// The synopsis's words: the arguments, the required options bare, then each other option in
    /// brackets, an exclusive one beside the one it excludes, a dependent one inside its flag's.
    var synopsisItems: [String] {
        var items: [(key: String, text: String)] = []
        if !arguments.synopsis.isEmpty { items.append(("", arguments.synopsis)) }
        let shown = options.filter { $0.inSynopsis && $0.name != Option.help.name }
        for option in shown where option.required { items.append((option.name, option.name + (option.value.map { " \($0)" } ?? ""))) }
        for option in shown where !option.required {
            let words = option.name + (option.value.map { " \($0)" } ?? "")
            if let other = option.notWith, let index = items.firstIndex(where: { $0.key == other }) {
                items[index].text = String(items[index].text.dropLast()) + " | \(words)]"
            } else if let flag = option.onlyWith, let index = items.firstIndex(where: { $0.key == flag }) {
                items[index].text = String(items[index].text.dropLast()) + " [\(words)]]"
            } else {
                items.append((option.name, "[\(words)]" + (option.repeatable ? "..." : "")))
            }
        }
        return items.map(\.text)
    }

    /// The command's `--help`.
    var help: String {
        var sections = [synopsis, about, "options:\n" + Self.optionLines(accepted)]
        if let after { sections.append(after) }
        sections.append(Self.wrap(exitCodes.split(separator: " ").map(String.init), width: Self.width, first: "", rest: ""))
        return sections.joined(separator: "\n\n")
    }

    /// One option a line (wrapped under its description's column): label, then what it does.
    static func optionLines(_ options: [Option]) -> String {
        let column = 2 + (options.map(\.label.count).max() ?? 0) + 2
        return options.map { option in
            let lead = "  " + option.label + String(repeating: " ", count: column - 2 - option.label.count)
            let words = option.helpText.split(separator: " ").map(String.init)
            return wrap(words, width: width, first: lead, rest: String(repeating: " ", count: column))
        }.joined(separator: "\n")
    }

    /// `words` joined by spaces into lines of at most `width` columns (a longer word alone), the
    /// first line after `first`, the others after `rest`.
    static func wrap(_ words: [String], width: Int, first: String, rest: String) -> String {
        var lines: [String] = []
        var line = first
        var empty = true
        for word in words {
            if !empty && line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The command's section of docs/cli.md: its synopsis, then a table of its options.
    var markdown: String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["## soundset \(name)", "", summary.prefix(1).uppercased() + summary.dropFirst() + ".", "", "```", synopsis, "```", ""]
        lines += ["| option | what it does |", "| --- | --- |"]
        lines += accepted.map { "| `\(cell($0.label))` | \(cell($0.helpText)) |" }
        lines += ["", exitCodes.prefix(1).uppercased() + exitCodes.dropFirst() + "."]
        return lines.joined(separator: "\n")
    }
}
