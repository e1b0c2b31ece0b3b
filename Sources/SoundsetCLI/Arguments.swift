/// Bad usage: the command line itself is wrong (exit 64).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A command's arguments, parsed by its declaration (`CommandSpec`): `--name value`, `--name=value`,
/// flags and positionals.
struct Arguments {
    let spec: CommandSpec
    private(set) var options: [String: String] = [:]
    /// Values of options that may be given more than once, in order.
    private(set) var repeated: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// `--help` or `-h` was given.
    var wantsHelp: Bool { flags.contains(Option.help.name) }

    /// The value of `option` as given, or its declared default.
    func value(_ option: Option) -> String? { options[option.name] ?? option.defaultValue }

    /// The value of `option` as given (nil when it was not).
    func given(_ option: Option) -> String? { options[option.name] }

    /// Whether the flag `option` was given.
    func has(_ option: Option) -> Bool { flags.contains(option.name) }

    /// Every value of the repeatable `option`, in order.
    func values(_ option: Option) -> [String] { repeated[option.name] ?? [] }

    /// The value of `option` (or its default), held to its declared choices.
    /// - Throws: `UsageError` (`--format must be text or json`) for any other value.
    func choice(_ option: Option) throws -> String? {
        guard let value = value(option) else { return nil }
        guard option.choices?.contains(value) ?? true else { throw UsageError(option.choiceProblem) }
        return value
    }

    /// The `--format` option (`text`, the default, or `json`).
    /// - Throws: `UsageError` for anything else.
    func format() throws -> String { try choice(spec.option(named: Option.format.name) ?? .format) ?? "text" }

    /// The arguments besides the options, held to the command's declaration (`Positionals`).
    /// - Throws: `UsageError` for none where one or more is needed, more than one where one is, or
    ///   any where none is.
    func arguments() throws -> [String] {
        let declared = spec.arguments
        if declared.name.isEmpty, let extra = positionals.first {
            throw UsageError("\(declared.refusal ?? "\(spec.name) takes no arguments"), got '\(ClipNamePrinting.safe(extra))'")
        }
        if !declared.name.isEmpty && positionals.isEmpty { throw UsageError(declared.missing) }
        if !declared.name.isEmpty && !declared.many && positionals.count > 1 { throw UsageError("give one \(declared.name), got \(positionals.count)") }
        return positionals
    }

    /// Refuses `option` with the one its declaration says it cannot be given with
    /// (`--quiet and --verbose cannot both be given`).
    func refuseWithExcluded(_ option: Option) throws {
        guard let other = option.notWith, has(option) || given(option) != nil, flags.contains(other) || options[other] != nil else { return }
        throw UsageError("\(other) and \(option.name) cannot both be given")
    }

    /// Refuses `option` without the flag its declaration says it goes with (`--poll-ms is for --watch`).
    func refuseWithoutItsFlag(_ option: Option) throws {
        guard let flag = option.onlyWith, has(option) || given(option) != nil, !flags.contains(flag) else { return }
        throw UsageError("\(option.name) is for \(flag)")
    }

    /// Parses `arguments` by `spec`: its options (with their values) and flags, and `--help`.
    /// An argument that starts with `-` and then a digit or `.` is a positional (so `-2.50` reaches
    /// the amount parser, which explains the sign); `--` ends the options.
    init(_ arguments: [String], spec: CommandSpec) throws {
        self.spec = spec
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !onlyPositionals, !argument.hasPrefix("--"), let option = spec.option(named: argument), option.value == nil {
                flags.insert(option.name)  // short flags such as -h
                continue
            }
            if onlyPositionals || !argument.hasPrefix("--") || argument == "--" {
                if argument == "--" && !onlyPositionals {
                    onlyPositionals = true
                    continue
                }
                let looksNumeric = argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
                if !onlyPositionals && argument.hasPrefix("-") && argument.count > 1 && !looksNumeric { throw Self.unknown(argument, in: spec) }
                positionals.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.option(named: name), option.name == name else { throw Self.unknown(name, in: spec) }
            guard option.value != nil else {
                guard value == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if value == nil {
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty else { throw UsageError("\(name) needs a value") }
            if option.repeatable {
                repeated[name, default: []].append(value)
                continue
            }
            if options[name] != nil { throw UsageError("\(name) is given more than once") }
            options[name] = value
        }
    }

    /// `unknown option '--ouput': did you mean --output?`: the nearest declared option, when one
    /// is a slip away (the usage line after it names the command's help).
    static func unknown(_ argument: String, in spec: CommandSpec) -> UsageError {
        let shown = "unknown option '\(ClipNamePrinting.safe(argument))'"
        let names = spec.accepted.map(\.name)
        let scored = names.map { ($0, editDistance(argument, $0)) }.filter { $0.1 <= max(1, min(3, $0.0.count / 4)) }
        guard let nearest = scored.min(by: { $0.1 < $1.1 }) else { return UsageError(shown) }
        return UsageError("\(shown): did you mean \(nearest.0)?")
    }

    /// The Levenshtein distance between `a` and `b`, in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
