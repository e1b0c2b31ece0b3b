import Foundation
import SoundsetBuild
import SoundsetSetFolder

/// How the user ran soundset, for the hints (`CommandSpelling`): through soundset's Makefile (it
/// says so in `SOUNDSET_MAKE`), as `soundset` found on the PATH, or by a path.
enum Invocation {
    /// The variable soundset's Makefile sets on the commands it runs: how to run that Makefile
    /// from where the user is (`make`, or `make -C /path/to/soundset`).
    static let makeVariable = "SOUNDSET_MAKE"

    /// The spelling for a process started as `program` (its `argv[0]`) with `environment`.
    ///
    /// `soundset` when the first `soundset` on the PATH is this very file; otherwise `program` as
    /// typed, made absolute when the user's shell is elsewhere than the process (`make -C`).
    static func spelling(program: String, environment: [String: String]) -> CommandSpelling {
        let make = environment[makeVariable].flatMap { $0.isEmpty ? nil : $0 }
        // Found on the PATH by the shell: the name it was typed as.
        guard program.contains("/") else { return CommandSpelling(program: program, make: make) }
        let here = URL(fileURLWithPath: program).standardizedFileURL
        if let path = environment["PATH"], let found = firstOnPath("soundset", path: path), sameFile(found, here) {
            return CommandSpelling(program: "soundset", make: make)
        }
        let cwd = FileManager.default.currentDirectoryPath
        // A relative path works where the user is only when the user is here.
        let userDirectory = environment["PWD"].map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if program.hasPrefix("/") || userDirectory == nil || userDirectory == URL(fileURLWithPath: cwd).standardizedFileURL.path {
            return CommandSpelling(program: program, make: make)
        }
        return CommandSpelling(program: here.path, make: make)
    }

    /// The first executable file named `name` in the colon-separated `path`, as a shell finds it.
    static func firstOnPath(_ name: String, path: String) -> URL? {
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = URL(fileURLWithPath: folder.isEmpty ? "." : String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Whether two paths name one file (links resolved).
    static func sameFile(_ a: URL, _ b: URL) -> Bool {
        a.resolvingSymlinksInPath().standardizedFileURL.path == b.resolvingSymlinksInPath().standardizedFileURL.path
    }
}
