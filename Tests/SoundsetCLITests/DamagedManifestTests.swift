import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// A manifest that no longer decodes (a merge conflict, a cut file), in a folder that is otherwise
/// the build's (issue 27): the check names it and says to build, and the build replaces it, rather
/// than refuse the folder as one that holds files but no set.
@Suite struct DamagedManifestTests {
    /// The ways a committed manifest is damaged: cut in half, and a merge's conflict markers around
    /// two versions of it.
    static let damages: [(String, @Sendable (Data) -> Data)] = [
        ("cut in half", { $0.prefix($0.count / 2) }),
        (
            "a merge conflict",
            { whole in
                let text = String(decoding: whole, as: UTF8.self)
                let other = text.replacingOccurrences(of: "\"channels\" : 1", with: "\"channels\" : 2")
                return Data("<<<<<<< HEAD\n\(text)=======\n\(other)>>>>>>> other-branch\n".utf8)
            }
        ),
    ]

    /// A folder with the Chinese pack built in it: the folder, its manifest and the manifest's bytes.
    static func builtSet() throws -> (TemporaryDirectory, URL, Data) {
        let folder = try TemporaryDirectory()
        try AssetPacks.completeChinese(in: try folder.folder("Assets"))
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        let manifestURL = folder.url.appendingPathComponent("Output/manifest.json")
        return (folder, manifestURL, try Data(contentsOf: manifestURL))
    }

    @Test(arguments: damages.indices)
    func theCheckSaysToBuildAndTheBuildReplacesIt(damage: Int) throws {
        let (folder, manifestURL, whole) = try Self.builtSet()
        defer { folder.remove() }
        try Self.damages[damage].1(whole).write(to: manifestURL)

        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        #expect(
            check.stdout.hasPrefix(
                "[integrity] Output/manifest.json: not a soundset manifest (no schemaVersion (not valid JSON)): run soundset build --assets Assets --output Output\n"
            ), "\(Self.damages[damage].0): \(check.stdout)")

        // As the check says: the build writes the set again, and the check passes.
        let build = try SoundsetExecutable.run(["build"], in: folder.url)
        #expect(build.status == 0, "\(Self.damages[damage].0): \(build.stderr)")
        #expect(try Data(contentsOf: manifestURL) == whole)
        let after = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(after.status == 0, "\(Self.damages[damage].0): \(after.stdout)")
    }

    /// A file soundset did not write beside the damaged manifest: the folder is not replaced (the
    /// file is kept), and the check and the build both name it and the fix; once it is moved out,
    /// the build replaces the set.
    @Test func aFileSoundsetDidNotWriteKeepsTheFolderAsItIs() throws {
        let (folder, manifestURL, whole) = try Self.builtSet()
        defer { folder.remove() }
        try whole.prefix(whole.count / 2).write(to: manifestURL)
        let notes = folder.url.appendingPathComponent("Output/notes.txt")
        try Data("keep me".utf8).write(to: notes)

        let check = try SoundsetExecutable.run(["check"], in: folder.url)
        #expect(check.status == 1)
        #expect(
            check.stdout.hasPrefix(
                "[integrity] Output/manifest.json: not a soundset manifest (no schemaVersion (not valid JSON)), and the build will not replace Output while it holds Output/notes.txt, which soundset did not write: move it out, then run soundset build --assets Assets --output Output\n"
            ), "\(check.stdout)")
        let refused = try SoundsetExecutable.run(["build", "--quiet"], in: folder.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix(
                "error: Output: its manifest.json does not decode, and it holds notes.txt, which soundset did not write; refusing to replace it (move notes.txt out, or empty it)\n"
            ), "\(refused.stderr)")
        #expect(try Data(contentsOf: notes) == Data("keep me".utf8))

        try FileManager.default.removeItem(at: notes)
        #expect(try SoundsetExecutable.run(["build", "--quiet"], in: folder.url).status == 0)
        #expect(try Data(contentsOf: manifestURL) == whole)
    }
}
