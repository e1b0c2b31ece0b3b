import Foundation
import SoundsetTestSupport
import Testing

@Suite struct ReportCommandTests {
    @Test func writesTheReportBesideTheSet() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let result = try SoundsetExecutable.run(["report"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote Output.report.html: 4 clips, "))
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output.report.html").path))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Output/report.html").path))
        // Where --out says.
        let out = try SoundsetExecutable.run(["report", "--out", "set.html"], in: folder.url)
        #expect(out.stdout.hasPrefix("wrote set.html: 4 clips, "), "\(out.stdout)")
        #expect(
            try Data(contentsOf: folder.url.appendingPathComponent("set.html")) == Data(contentsOf: folder.url.appendingPathComponent("Output.report.html")))
        // The report does not make the set fail its check (the small pack is no complete zh-CN set,
        // so completeness fails).
        let check = try SoundsetExecutable.run(["check", "--format", "json"], in: folder.url)
        let problems = (try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as! [String: Any])["problems"] as! [[String: String]]
        #expect(problems.filter { $0["check"] == "integrity" || $0["check"] == "freshness" || $0["check"] == "report" }.isEmpty, "\(problems)")
        #expect(problems.contains { $0["check"] == "completeness" })
        let missing = try SoundsetExecutable.run(["report", "--output", "Nowhere"], in: folder.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: Nowhere/manifest.json: missing or unreadable: run soundset build --assets Assets --output Nowhere first\n")
    }

    /// On a terminal the build shows one updating progress line; on a pipe, none. (util-linux's
    /// script(1) provides the terminal, so this runs on Linux.)
    @Test(.enabled(if: isLinux)) func progressOnlyOnATerminal() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: try folder.folder("Assets"))
        let piped = try SoundsetExecutable.run(["build", "--no-cache"], in: folder.url)
        #expect(!piped.stderr.contains("\r"))
        #expect(!piped.stdout.contains("[1/4]"))
        let screen = try onTerminal("build --no-cache --verbose", in: folder.url)
        for done in 1...4 { #expect(screen.contains("[\(done)/4] "), "\(done)") }
        #expect(screen.contains("\r\u{1B}[2K"))
        // The line is wiped before the clip table, which then starts on a clean line.
        #expect(screen.contains("\r\u{1B}[2Kclip "))
        #expect(!(try onTerminal("build --no-cache --quiet", in: folder.url)).contains("[1/4]"))
    }

    /// Runs `soundset arguments` with a pseudo-terminal (script(1)) and returns what it showed.
    func onTerminal(_ arguments: String, in folder: URL) throws -> String {
        let typescript = folder.appendingPathComponent("typescript")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "\(SoundsetExecutable.url.path) \(arguments)", typescript.path]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: try Data(contentsOf: typescript), as: UTF8.self)
    }
}

#if os(Linux)
    let isLinux = true
#else
    let isLinux = false
#endif
