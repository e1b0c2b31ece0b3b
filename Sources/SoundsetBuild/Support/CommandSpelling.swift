/// How the user runs soundset where they are, so that every hint names a command that works there:
/// `make sounds` when soundset's Makefile ran it, `soundset` once it is installed on the PATH, and
/// otherwise the path it was run by (`.build/release/soundset`). The command line works it out
/// (`Invocation`); the check, the build and the report only spell their hints with it.
public struct CommandSpelling: Sendable, Hashable, CustomStringConvertible {
    /// The program as the user can type it: `soundset`, or a path.
    public var program: String
    /// The make command that runs soundset's Makefile from where the user is (`make`, or
    /// `make -C /path/to/soundset`), when the Makefile ran soundset; nil otherwise.
    public var make: String?

    public init(program: String = "soundset", make: String? = nil) {
        self.program = program
        self.make = make
    }

    /// `soundset` on the PATH: what a library caller, and the README, assume.
    public static let installed = CommandSpelling()

    /// The command that builds the set: `make sounds [ASSETS=…] [OUTPUT=…]` through make, else
    /// `<program> build [--assets DIR] --output DIR`.
    /// - Parameter assets: nil to leave it out (a command that only reads the set).
    public func build(assets: String? = nil, output: String) -> String {
        if let make {
            var words = ["\(make) sounds"]
            if let assets, assets != "Assets" { words.append("ASSETS=\(Checker.shellWord(assets))") }
            if output != "Output" { words.append("OUTPUT=\(Checker.shellWord(output))") }
            return words.joined(separator: " ")
        }
        return "\(Checker.shellWord(program)) build" + (assets.map { " --assets \(Checker.shellWord($0))" } ?? "")
            + " --output \(Checker.shellWord(output))"
    }

    /// `arguments` after the program: `soundset clips`, `.build/release/soundset clips`.
    public func command(_ arguments: String) -> String { "\(Checker.shellWord(program)) \(arguments)" }

    public var description: String { make.map { "\($0) (\(program))" } ?? program }
}
