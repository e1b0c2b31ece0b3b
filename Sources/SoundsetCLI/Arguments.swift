/// Bad usage: the command line itself is wrong (exit 64).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A small argument parser: `--name value`, `--name=value`, flags and positionals.
struct Arguments {
    private(set) var options: [String: String] = [:]
    /// Values of options that may be given more than once, in order.
    private(set) var repeated: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// `--help` or `-h` was given.
    var wantsHelp: Bool { flags.contains("--help") || flags.contains("-h") }

    /// The `--format` option: `text` (the default) or `json`.
    /// - Throws: `UsageError` for anything else.
    func format() throws -> String {
        let format = options["--format"] ?? "text"
        guard format == "text" || format == "json" else { throw UsageError("--format must be text or json") }
        return format
    }

    /// Parses `arguments`, accepting only the listed options (which take a value) and flags.
    /// Options in `repeatable` may be given more than once. An argument that starts with `-` and then
    /// a digit or `.` is a positional (so `-2.50` reaches the amount parser, which explains the sign).
    init(_ arguments: [String], options allowedOptions: Set<String>, flags allowedFlags: Set<String>, repeatable: Set<String> = []) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !onlyPositionals && allowedFlags.contains(argument) && !argument.hasPrefix("--") {
                flags.insert(argument)  // short flags such as -h
                continue
            }
            if onlyPositionals || !argument.hasPrefix("--") || argument == "--" {
                if argument == "--" && !onlyPositionals { onlyPositionals = true; continue }
                let looksNumeric = argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
                if !onlyPositionals && argument.hasPrefix("-") && argument.count > 1 && !looksNumeric {
                    throw UsageError("unknown option '\(ClipNamePrinting.safe(argument))'")
                }
                positionals.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            if allowedFlags.contains(name) {
                guard value == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
            } else if allowedOptions.contains(name) || repeatable.contains(name) {
                if value == nil {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard let value, !value.isEmpty else { throw UsageError("\(name) needs a value") }
                if repeatable.contains(name) {
                    repeated[name, default: []].append(value)
                    continue
                }
                if options[name] != nil { throw UsageError("\(name) is given more than once") }
                options[name] = value
            } else {
                throw UsageError("unknown option '\(ClipNamePrinting.safe(name))'")
            }
        }
    }
}
