import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetBuild
@testable import SoundsetSetFolder

/// The staged set is checked with the check's own integrity code before it is swapped in: a set
/// whose files are not what its manifest says never replaces Output.
@Suite struct StagedSetTests {
    /// A built small set, and its files as a `SoundSetFiles` to commit again.
    func builtSet(in folder: TemporaryDirectory) async throws -> (output: URL, assets: URL, files: SoundSetFiles) {
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let output = folder.url.appendingPathComponent("Output")
        let report = try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2))
        let sounds = output.appendingPathComponent("Sounds")
        let clips = try report.manifest.clips.map { clip in
            SoundSetFiles.ClipFile(name: clip.file, copyName: clip.copy, content: .bytes(try Data(contentsOf: sounds.appendingPathComponent(clip.file))))
        }
        return (output, assets, SoundSetFiles(clips: clips, manifest: report.manifest, facts: [:]))
    }

    func commit(_ files: SoundSetFiles, to output: URL, assets: URL) throws(BuildProblem) {
        try OutputFolder(url: output, displayName: "Output", assets: assets).commit(files)
    }

    @Test func theSameSetCommitsAgain() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (output, assets, files) = try await builtSet(in: folder)
        let before = snapshot(of: output)
        try commit(files, to: output, assets: assets)
        #expect(snapshot(of: output) == before)
    }

    /// A set whose manifest is over the runtime's cap (`Manifest.maxBytes`, what the app's
    /// extension can afford to decode) is written all the same (the build makes sets of any size:
    /// a pack of hundreds of takes, a benchmark), and read back by the build; the check's file-free
    /// parts, which the build prints as warnings, name it, and the check fails it.
    @Test func aManifestOverTheRuntimesCapIsWrittenAndNamed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (output, assets, files) = try await builtSet(in: folder)
        var large = files
        let model = files.manifest.clips[0]
        let bytes = try Data(contentsOf: output.appendingPathComponent("Sounds").appendingPathComponent(model.file))
        large.manifest.clips = (0..<600).map { index in
            var clip = model
            clip.name = String(format: "c%03d", index)
            clip.file = "\(clip.name).caf"
            clip.copy = nil
            return clip
        }
        large.clips = large.manifest.clips.map { SoundSetFiles.ClipFile(name: $0.file, copyName: nil, content: .bytes(bytes)) }
        let size = try large.manifest.encoded().count
        #expect(size > Manifest.maxBytes)
        try commit(large, to: output, assets: assets)
        let manifest = output.appendingPathComponent("manifest.json")
        #expect(try ManifestFiles.load(from: manifest) == large.manifest)
        #expect(throws: ManifestError.tooLarge(path: manifest.path, size: size, limit: Manifest.maxBytes)) { try Manifest.load(from: manifest) }
        #expect(
            Checker.manifestSize(large.manifest, manifestPath: "Output/manifest.json") == [
                CheckProblem(
                    .integrity, "Output/manifest.json",
                    "is \(size) bytes for 600 clips, more than the 262144 an app's extension can afford to read: split the set into sets of fewer clips (about 450 fit)")
            ])
        // The small set's manifest is far under it, and nothing is said of it.
        #expect(try files.manifest.encoded().count * 20 < Manifest.maxBytes)
        #expect(Checker.manifestSize(files.manifest, manifestPath: "Output/manifest.json").isEmpty)
    }

    @Test func aClipNotAsTheManifestSaysIsRefusedBeforeTheSwap() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (output, assets, files) = try await builtSet(in: folder)
        let before = snapshot(of: output)
        var damaged = files
        guard case .bytes(var bytes) = damaged.clips[1].content else { Issue.record("not bytes"); return }
        bytes[bytes.count - 1] ^= 1
        damaged.clips[1].content = .bytes(bytes)
        #expect(
            throws: BuildProblem(
                "Output/Sounds/2.caf",
                "is not as written (its sha256 differs from the manifest's (damaged or edited by hand)); check the disk")
        ) { try commit(damaged, to: output, assets: assets) }
        #expect(snapshot(of: output) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".soundset-staging") }
        #expect(left.isEmpty)
    }

    @Test func aClipTheManifestListsButTheSetLacksIsRefused() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (output, assets, files) = try await builtSet(in: folder)
        let before = snapshot(of: output)
        var short = files
        short.clips.removeLast()
        #expect(throws: BuildProblem("Output/Sounds/yuan.caf", "is not as written (missing); check the disk")) {
            try commit(short, to: output, assets: assets)
        }
        #expect(snapshot(of: output) == before)
    }

    @Test func aFileTheManifestDoesNotListIsRefused() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (output, assets, files) = try await builtSet(in: folder)
        let before = snapshot(of: output)
        var extra = files
        extra.clips.append(SoundSetFiles.ClipFile(name: "stray.caf", copyName: nil, content: extra.clips[0].content))
        #expect(
            throws: BuildProblem(
                "Output/Sounds/stray.caf",
                "is not as written (is not listed in the manifest, so soundset did not write it: move it out (the build replaces the folder whole)); check the disk"
            )
        ) { try commit(extra, to: output, assets: assets) }
        #expect(snapshot(of: output) == before)
    }
}

extension StagedSetTests {
    /// A folder put where Output was while the set was being built is not swapped out and deleted.
    @Test func aFolderPutAtOutputDuringTheBuildIsRefused() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (output, assets, files) = try await builtSet(in: folder)
        let started = try OutputFolder(url: output, displayName: "Output", assets: assets)
        try FileManager.default.moveItem(at: output, to: folder.url.appendingPathComponent("Output.moved"))
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        try Data("precious".utf8).write(to: output.appendingPathComponent("precious.txt"))
        #expect(
            throws: BuildProblem(
                "Output",
                "holds files but no soundset manifest; refusing to replace it (empty it or choose another --output); it was put there while the set was being built"
            )
        ) { try started.commit(files) }
        #expect(try String(contentsOf: output.appendingPathComponent("precious.txt"), encoding: .utf8) == "precious")
        // A file put there instead.
        try FileManager.default.removeItem(at: output)
        try Data("a file".utf8).write(to: output)
        #expect(
            throws: BuildProblem(
                "Output", "is a file, not a folder; refusing to replace it (choose another --output); it was put there while the set was being built")
        ) { try started.commit(files) }
        #expect(try String(contentsOf: output, encoding: .utf8) == "a file")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".soundset-staging") }
        #expect(left.isEmpty)
    }
}
