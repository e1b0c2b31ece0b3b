import SoundsetRuntime

/// One option of a command, declared once: the parser, the command's `--help`, its synopsis and
/// docs/cli.md are all read from it.
struct Option: Sendable, Hashable {
    /// `--output`.
    var name: String
    /// The one short alias (`-h`), if any.
    var short: String?
    /// What the value is called in the help (`DIR`, `text|json`); nil for a flag.
    var value: String?
    /// The values allowed, when they are a fixed list (`--format`): `Arguments.choice` holds the
    /// value to them.
    var choices: [String]?
    /// The value the command reads when the option is not given, shown as `(default: VALUE)`.
    var defaultValue: String?
    /// How the help states a default that is not one value (`the number of cores`); it wins over
    /// `defaultValue` in the help.
    var shownDefault: String?
    /// What the option does, as the help says it (without its default).
    var help: String
    /// May be given more than once; the values are kept in order (`--reading`).
    var repeatable = false
    /// Shown without brackets in the synopsis: the command refuses to run without it.
    var required = false
    /// Given only with this flag (`--poll-ms` with `--watch`): shown inside its brackets.
    var onlyWith: String?
    /// Cannot be given with this option: shown with it as `[A | B]`.
    var notWith: String?
    /// Shown in the synopsis's arguments rather than as an option of its own (`--payload`).
    var inSynopsis = true

    /// A flag: `--quiet`.
    static func flag(_ name: String, short: String? = nil, help: String) -> Option {
        Option(name: name, short: short, help: help)
    }

    /// An option with a value: `--output DIR`.
    static func value(_ name: String, _ placeholder: String, default defaultValue: String? = nil, shown: String? = nil, help: String) -> Option {
        Option(name: name, value: placeholder, defaultValue: defaultValue, shownDefault: shown, help: help)
    }

    /// An option whose value is one of `choices`: `--format text|json`.
    static func choice(_ name: String, _ choices: [String], default defaultValue: String? = nil, shown: String? = nil, help: String) -> Option {
        Option(name: name, value: choices.joined(separator: "|"), choices: choices, defaultValue: defaultValue, shownDefault: shown, help: help)
    }

    /// The same option, saying `text` for what it does.
    func helping(_ text: String) -> Option {
        var option = self
        option.help = text
        return option
    }

    /// The same option, its value one of `choices` (the first the default).
    func choosing(_ choices: [String]) -> Option {
        var option = self
        option.choices = choices
        option.value = choices.joined(separator: "|")
        option.defaultValue = choices.first
        return option
    }

    /// The same option, with another default (`nil`: none the command reads) and how the help says it.
    func defaulting(to value: String?, shown: String? = nil) -> Option {
        var option = self
        option.defaultValue = value
        option.shownDefault = shown
        return option
    }

    /// The option and its value as the help writes them: `--output DIR`, `-h, --help`.
    var label: String {
        (short.map { "\($0), " } ?? "") + name + (value.map { " \($0)" } ?? "")
    }

    /// What the help says of the option: what it does, then its default.
    var helpText: String {
        guard let shown = shownDefault ?? defaultValue else { return help }
        return "\(help) (default: \(shown))"
    }

    /// `--format must be text, json or markdown`, for a value outside `choices`.
    var choiceProblem: String {
        let choices = choices ?? []
        let listed = choices.count > 1 ? choices.dropLast().joined(separator: ", ") + " or " + choices.last! : choices.joined()
        return "\(name) must be \(listed)"
    }
}

/// The options several commands share, declared once; a command may say one in its own words
/// (`helping`) or with its own default (`defaulting`).
extension Option {
    static let help = Option.flag("--help", short: "-h", help: "show this help")
    static let output = Option.value("--output", "DIR", default: "Output", help: "the built sound set")
    static let assets = Option.value("--assets", "DIR", default: "Assets", help: "folder of recordings")
    static let format = Option.choice("--format", ["text", "json"], default: "text", help: "output format")
    static let locale = Option.choice(
        "--locale", SpeechLocale.allCases.map(\.rawValue), help: SpeechLocale.allCases.map(\.rawValue).joined(separator: " or "))
    static let group = Option.value("--group", "DIR", help: "the folder that stands in for the App Group's container")
    static let quiet = Option.flag("--quiet", help: "print only warnings and errors")
    static let jobs = Option.value("--jobs", "N", shown: "the number of cores", help: "clips processed at once")
    static let voice = Option.value(
        "--voice", "NAME", shown: "the only voice, or the defaultVoice of Assets/soundset.json",
        help: "the voice, when Assets holds several (Assets/voices/NAME/, built into OUTPUT/voices/NAME/)")

    /// `--group DIR`, which the command cannot run without.
    static var requiredGroup: Option {
        var option = group
        option.required = true
        return option
    }
}
