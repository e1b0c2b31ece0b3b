import Foundation
import SoundsetTestSupport
import Testing

/// Every hint names a command that works where the user is: `make sounds` when soundset's Makefile
/// ran the tool, `soundset` when it is on the PATH, else the path it was run by.
@Suite struct HintTests {
    /// A folder with recordings' settings but no set, where the check's hint is the build command.
    static func unbuilt() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let assets = try folder.folder("Sounds/Assets")
        try Data("{}".utf8).write(to: assets.appendingPathComponent("soundset.json"))
        return folder
    }

    static let check = ["check", "--assets", "Sounds/Assets", "--output", "Sounds/Output"]

    @Test func installedItSaysSoundset() throws {
        let folder = try Self.unbuilt()
        defer { folder.remove() }
        // The test helper puts the built tool first on the PATH, as `make install` does.
        let result = try SoundsetExecutable.run(Self.check, in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "[integrity] Sounds/Output/manifest.json: missing or unreadable: run soundset build --assets Sounds/Assets --output Sounds/Output\n"))
    }

    @Test func notOnThePathItSaysThePathItWasRunBy() throws {
        let folder = try Self.unbuilt()
        defer { folder.remove() }
        let absolute = try SoundsetExecutable.run(Self.check, in: folder.url, environment: ["PATH": "/usr/bin:/bin"])
        #expect(absolute.stdout.contains("run \(SoundsetExecutable.url.path) build --assets Sounds/Assets --output Sounds/Output\n"))
        // Run as ./bin/soundset from the folder: that is what works there.
        let bin = try folder.folder("bin")
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("soundset"), withDestinationURL: SoundsetExecutable.url)
        let relative = try SoundsetExecutable.shell(
            "./bin/soundset " + Self.check.joined(separator: " "), in: folder.url, environment: ["PATH": "/usr/bin:/bin"])
        #expect(relative.stdout.contains("run ./bin/soundset build --assets Sounds/Assets --output Sounds/Output\n"), "\(relative.stdout)")
        // The usage hint too.
        let usage = try SoundsetExecutable.shell("./bin/soundset check --frobnicate", in: folder.url, environment: ["PATH": "/usr/bin:/bin"])
        #expect(usage.status == 64)
        #expect(usage.stderr.hasSuffix("run './bin/soundset check --help' for usage\n"))
    }

    @Test func throughMakeItSaysMakeSounds() throws {
        let folder = try Self.unbuilt()
        defer { folder.remove() }
        let result = try SoundsetExecutable.run(Self.check, in: folder.url, environment: ["SOUNDSET_MAKE": "make"])
        #expect(
            result.stdout.hasPrefix(
                "[integrity] Sounds/Output/manifest.json: missing or unreadable: run make sounds ASSETS=Sounds/Assets OUTPUT=Sounds/Output\n"))
        // Run by make -C from elsewhere, with the default folders.
        let defaults = try TemporaryDirectory()
        defer { defaults.remove() }
        try Data("{}".utf8).write(to: try defaults.folder("Assets").appendingPathComponent("soundset.json"))
        let elsewhere = try SoundsetExecutable.run(["check"], in: defaults.url, environment: ["SOUNDSET_MAKE": "make -C /opt/soundset"])
        #expect(
            elsewhere.stdout.hasPrefix("[integrity] Output/manifest.json: missing or unreadable: run make -C /opt/soundset sounds\n"), "\(elsewhere.stdout)")
    }
}
