import Foundation

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
            if let assets, assets != "Assets" { words.append("ASSETS=\(Self.shellWord(assets))") }
            if output != "Output" { words.append("OUTPUT=\(Self.shellWord(output))") }
            return words.joined(separator: " ")
        }
        return "\(Self.shellWord(program)) build" + (assets.map { " --assets \(Self.shellWord($0))" } ?? "")
            + " --output \(Self.shellWord(output))"
    }

    /// `arguments` after the program: `soundset clips`, `.build/release/soundset clips`.
    public func command(_ arguments: String) -> String { "\(Self.shellWord(program)) \(arguments)" }

    public var description: String { make.map { "\($0) (\(program))" } ?? program }

    /// `text` as one word for a POSIX shell: as it is when plain, else in single quotes.
    public static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%=".unicodeScalars.contains($0) }
        return plain ? text : "'" + ClipName.printable(text).replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
