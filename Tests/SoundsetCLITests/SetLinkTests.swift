import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A set whose manifest, Sounds folder or a clip is a symbolic link to a file outside it (issue 27):
/// a commit or an Xcode folder reference carries the link, which points nowhere on another machine,
/// not the file. The check refuses it, the build replaces the link with the file (writing nothing
/// where it points), and announce, plan, render and serve refuse to read it.
@Suite struct SetLinkTests {
    /// Whether `url` is a symbolic link (not followed).
    static func isLink(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Moves `item` (a path in `output`) into `elsewhere` and puts a link to it in its place;
    /// returns where it went.
    @discardableResult
    static func replaceWithLink(_ item: String, in output: URL, elsewhere: URL) throws -> URL {
        let moved = elsewhere.appendingPathComponent((item as NSString).lastPathComponent)
        try FileManager.default.moveItem(at: output.appendingPathComponent(item), to: moved)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent(item), withDestinationURL: moved)
        return moved
    }

    /// What the check says of each, and what a commit would carry instead.
    @Test(arguments: [("Sounds/0.caf", "the sound"), ("Sounds", "the sounds"), ("manifest.json", "the manifest")])
    func theCheckRefusesALinkAndTheBuildReplacesIt(item: String, carried: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.completeChinese(in: try folder.folder("Assets"))
        let built = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(built.status == 0, "\(built.stderr)")
        let output = folder.url.appendingPathComponent("Output")
        let elsewhere = try folder.folder("elsewhere")
        let moved = try Self.replaceWithLink(item, in: output, elsewhere: elsewhere)
        let outside = snapshot(of: elsewhere)
        #expect(!outside.isEmpty)

        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        #expect(
            check.stdout.hasPrefix(
                "[integrity] Output/\(item): is a link to \(moved.path): a commit or an app bundle carries the link, not \(carried): run soundset build --assets Assets --output Output, which replaces the link\n"
            ), "\(check.stdout)")

        // The build does not find the set up to date: it writes the set again, the link replaced by
        // the file, and nothing where the link pointed.
        let build = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        #expect(!build.stdout.contains("up to date"), "\(build.stdout)")
        #expect(
            build.stderr.contains(
                "soundset: Output/\(item) is a link to \(moved.path), which a commit or an app bundle carries instead of the file: the set is written again with files in their place\n"
            ), "\(build.stderr)")
        #expect(!Self.isLink(output.appendingPathComponent(item)))
        #expect(snapshot(of: elsewhere) == outside)
        // The file in the set holds what the link pointed to.
        if item == "Sounds/0.caf" {
            #expect(try Data(contentsOf: output.appendingPathComponent(item)) == Data(contentsOf: moved))
        }
        let after = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(after.status == 0, "\(after.stdout)")
    }

    /// announce, plan and render read no set with a link in it: the link and the fix are named.
    @Test(arguments: ["Sounds/3.caf", "Sounds", "manifest.json"])
    func announcePlanAndRenderRefuseASetWithALink(item: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let output = folder.url.appendingPathComponent("Output")
        try FakeSets.write(in: output, prefix: "received", gapMs: 0)
        let elsewhere = try folder.folder("elsewhere")
        let moved = try Self.replaceWithLink(item, in: output, elsewhere: elsewhere)
        let carried = ["Sounds/3.caf": "the sound", "Sounds": "the sounds", "manifest.json": "the manifest"][item]!
        let refusal =
            "Output/\(item) is a link to \(moved.path): a commit or an app bundle carries the link, not \(carried) (run soundset build --output Output first)"

        let announce = try SoundsetExecutable.run(["announce", "3", "--group", "G", "--now", "1000", "--format", "json"], in: folder.url)
        #expect(announce.status == 0, "\(announce.stderr)")
        let decision = try JSONDecoder().decode(AnnouncementDecision.self, from: Data(announce.stdout.utf8))
        #expect(decision.outcome == .fallback)
        #expect(decision.reason == "the sound set cannot be used: \(refusal)")
        // Nothing was installed from it.
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("G/Library/Sounds").path))

        for arguments in [["plan", "3"], ["render", "3", "--out", "a.wav"]] {
            let result = try SoundsetExecutable.run(arguments, in: folder.url)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "soundset: \(refusal)\n", "\(arguments)")
            #expect(result.stdout == "")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("a.wav").path))
    }
}
