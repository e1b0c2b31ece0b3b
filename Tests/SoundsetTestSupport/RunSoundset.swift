import Foundation

/// What one run of the built `soundset` executable did.
public struct RunResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs the `soundset` executable that `swift build` put beside the test bundle.
public enum SoundsetExecutable {
    /// The package's folder (where README.md is).
    public static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The built executable's location.
    public static var url: URL {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: first).deletingLastPathComponent()
            // macOS runs tests from inside an .xctest bundle; the executable sits beside the bundle.
            while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
            candidates.append(folder.appendingPathComponent("soundset"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/soundset"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    /// The environment a run gets: this process's, with the built tool's folder first on the PATH
    /// (as `make install` puts `soundset` on it, so hints say `soundset`), without the variable
    /// soundset's Makefile sets, and with `environment` added.
    public static func environment(adding environment: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = url.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["SOUNDSET_MAKE"] = nil
        for (key, value) in environment { env[key] = value }
        return env
    }

    /// Runs `soundset arguments…` in `directory` with `environment` added, and waits for it.
    /// - Parameter prefix: a command that runs soundset (`Unprivileged.prefix`), or none.
    public static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], prefix: [String] = []
    ) throws -> RunResult {
        if let wrapper = prefix.first {
            return try spawn(URL(fileURLWithPath: wrapper), prefix.dropFirst() + [url.path] + arguments, in: directory, environment: environment)
        }
        return try spawn(url, arguments, in: directory, environment: environment)
    }

    /// Runs `command` with `/bin/sh -c` in `directory`, with `environment` added (`soundset` is the
    /// built tool, first on the PATH), and waits for it: a command as a user types it.
    public static func shell(_ command: String, in directory: URL? = nil, environment: [String: String] = [:]) throws -> RunResult {
        try spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: directory, environment: environment)
    }

    private static func spawn(_ executable: URL, _ arguments: [String], in directory: URL?, environment: [String: String]) throws -> RunResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = Self.environment(adding: environment)
        let scratch = try TemporaryDirectory("soundset-run")
        defer { scratch.remove() }
        let outURL = scratch.url.appendingPathComponent("out")
        let errURL = scratch.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        // Read through FileHandle: Data(contentsOf:) on an empty file leaks its buffer in this
        // toolchain's Foundation, which the address sanitizer (make sanitize) reports.
        func text(_ url: URL) throws -> String {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        }
        return RunResult(status: process.terminationStatus, stdout: try text(outURL), stderr: try text(errURL))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SoundsetExecutable {
    /// Runs `soundset arguments…` (give absolute paths) with output discarded and returns its exit
    /// status and peak resident memory in kilobytes (GNU time's figure where it is installed, else
    /// `wait4`'s rusage for the child).
    public static func runMeasuringMemory(_ arguments: [String]) throws -> (status: Int32, maxRSSKilobytes: Int) {
        #if os(Linux)
            // Linux carries a process's peak RSS across exec, so a child spawned from this test
            // runner reports at least the runner's own peak (tens of MB once other tests have run).
            // GNU time forks the command from its own small process: its figure is soundset's alone.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
                let scratch = try TemporaryDirectory("soundset-time")
                defer { scratch.remove() }
                let report = scratch.url.appendingPathComponent("rss")
                let status = try spawn(["/usr/bin/time", "-f", "%M", "-o", report.path, url.path] + arguments).status
                let lines = (try? String(contentsOf: report, encoding: .utf8))?.split(separator: "\n") ?? []
                if let kilobytes = lines.last.flatMap({ Int($0) }) { return (status, kilobytes) }
            }
        #endif
        return try spawn([url.path] + arguments)
    }

    /// Spawns `command` (a path, then its arguments) with no output, waits, and returns its status
    /// and the peak RSS `wait4` reports for it.
    private static func spawn(_ command: [String]) throws -> (status: Int32, maxRSSKilobytes: Int) {
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        #if canImport(Darwin)
            let kilobytes = Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
            let kilobytes = Int(usage.ru_maxrss)  // kilobytes on Linux
        #endif
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, kilobytes)
    }
}

/// A `soundset` process started and not yet waited for, its output going to files.
public final class RunningSoundset: @unchecked Sendable {
    // @unchecked: set up once in `init`; `wait` is called once, from one thread.
    public let process = Process()
    private let scratch: TemporaryDirectory
    private let out: URL
    private let err: URL

    /// Starts `soundset arguments…` in `directory`, with `environment` added.
    /// - Parameter executable: another program to start with `arguments` instead (`setpriv`, which
    ///   then names soundset among them).
    public init(_ arguments: [String], in directory: URL, environment: [String: String] = [:], executable: String? = nil) throws {
        scratch = try TemporaryDirectory("soundset-running")
        out = scratch.url.appendingPathComponent("out")
        err = scratch.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = executable.map { URL(fileURLWithPath: $0) } ?? SoundsetExecutable.url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = SoundsetExecutable.environment(adding: environment)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// What it printed to stdout so far.
    public var stdoutSoFar: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }

    /// What it printed to stderr so far.
    public var stderrSoFar: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

    /// Waits for it to end.
    public func wait() -> RunResult {
        process.waitUntilExit()
        defer { scratch.remove() }
        return RunResult(
            status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
