import Foundation
import SoundsetAudio
import SoundsetBuild
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct BuildPipelineTests {
    func build(_ assets: URL, _ output: URL) async throws -> BuildReport {
        try await BuildPipeline.run(
            BuildOptions(
                assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2))
    }

    @Test func everyClipLandsAtTheLevelUnderTheCeiling() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let output = folder.url.appendingPathComponent("Output")
        let report = try await build(assets, output)
        let manifest = report.manifest
        #expect(manifest.clips.map(\.name) == ["1", "2", "3", "yuan"])
        #expect(manifest.loudness.setLevel == -16)
        for clip in manifest.clips {
            let file = try SoundFile.open(reading: output.appendingPathComponent("Sounds/\(clip.file)").path)
            let measured = try LoudnessMeter.measure(try file.readAll(), sampleRate: file.info.sampleRate)
            #expect(abs(measured.loudness - -16) <= 0.5, "\(clip.name): \(measured.loudness) LUFS")
            #expect(measured.truePeak <= -1.0, "\(clip.name): \(measured.truePeak) dBTP")
            // The manifest's figures are the file's, read back.
            #expect(file.info.frames == clip.frames)
            #expect(file.info.sampleRate == manifest.sampleRate)
            #expect(file.info.channels == 1)
            #expect(file.info.container == .caf)
            #expect(file.info.encoding == .pcm16)
            #expect(clip.seconds == Double(clip.frames) / 44100)
            #expect(abs(clip.loudness - measured.loudness) < 0.01)
            #expect(try SHA256.hex(fileAt: output.appendingPathComponent("Sounds/\(clip.file)")) == clip.sha256)
        }
        // The peaky clip needed the limiter; the quiet one a large gain.
        #expect(manifest.clip(named: "3")!.limiting > 0)
        #expect(manifest.clip(named: "2")!.gain > 15)
    }

    @Test func copiesAreByteIdenticalAndTheManifestIsStable() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        let output = folder.url.appendingPathComponent("Output")
        let first = try await build(assets, output)
        let firstSnapshot = snapshot(of: output)
        // Digits get copies by default; yuan does not.
        #expect(first.manifest.clips.compactMap(\.copy) == ["1Copy.caf", "2Copy.caf", "3Copy.caf"])
        for clip in first.manifest.clips {
            guard let copy = clip.copy else { continue }
            #expect(firstSnapshot["/Sounds/\(copy)"] == firstSnapshot["/Sounds/\(clip.file)"])
        }
        #expect(Set(firstSnapshot.keys) == Set(["/manifest.json"] + ["1", "1Copy", "2", "2Copy", "3", "3Copy", "yuan"].map { "/Sounds/\($0).caf" }))
        _ = try await build(assets, output)
        #expect(snapshot(of: output) == firstSnapshot)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".soundset") && $0 != ".soundset-cache" }
        #expect(leftovers.isEmpty)
    }

    @Test func aClipNeedingMoreLimitingLowersTheSet() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        try Data(#"{"limiter": {"maxReductionDb": 1}, "sampleRate": 48000, "container": "wav", "encoding": "pcm16"}"#.utf8)
            .write(to: assets.appendingPathComponent("soundset.json"))
        let output = folder.url.appendingPathComponent("Output")
        let report = try await build(assets, output)
        let manifest = report.manifest
        #expect(manifest.loudness.setLevel < -16.5)
        #expect(manifest.loudness.reason.contains("clip '3'"))
        #expect(manifest.loudness.reason.hasPrefix("lowered"))
        for clip in manifest.clips {
            #expect(abs(clip.loudness - manifest.loudness.setLevel) <= 0.5, "\(clip.name)")
            #expect(clip.limiting <= 1.1, "\(clip.name) limited \(clip.limiting) dB")
            #expect(clip.truePeak <= -1)
            #expect(clip.file.hasSuffix(".wav"))
        }
        #expect(manifest.sampleRate == 48000)
        #expect(manifest.container == .wav)
    }

    @Test(arguments: [(Container.caf, Encoding.ulaw), (.caf, .alaw), (.aiff, .ulaw), (.aiff, .alaw)])
    func companderEncodingsStayUnderTheCeilingAndEndSilent(container: Container, encoding: Encoding) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        try AssetPacks.small(in: assets)
        try Data(#"{"container": "\#(container.rawValue)", "encoding": "\#(encoding.rawValue)", "sampleRate": 16000}"#.utf8)
            .write(to: assets.appendingPathComponent("soundset.json"))
        let output = folder.url.appendingPathComponent("Output")
        let manifest = try await build(assets, output).manifest
        for clip in manifest.clips {
            let file = try SoundFile.open(reading: output.appendingPathComponent("Sounds/\(clip.file)").path)
            #expect(file.info.encoding == encoding)
            let samples = try file.readAll()
            #expect(try LoudnessMeter.measure(samples, sampleRate: 16000).truePeak <= -1)
            // The fade ends every clip in silence: no frame libsndfile added for an odd AIFF byte count.
            #expect(abs(samples.last!) < 0.001, "\(clip.name): last sample \(samples.last!) of \(samples.count)")
            #expect(samples.count == clip.frames)
        }
    }
}

@Suite struct AssetPackTests {
    /// The small pack is what the issue asks for: levels 20 dB apart, and a take whose true peak sits
    /// about 18 dB above its loudness.
    @Test func smallPackHasTheRightSpread() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try AssetPacks.small(in: folder.url)
        var loudness: [String: Double] = [:]
        var peakToLoudness: [String: Double] = [:]
        for name in ["1", "2", "3", "yuan"] {
            let file = try SoundFile.open(reading: folder.url.appendingPathComponent("\(name).wav").path)
            let mono = Mono.mixDown(try file.readAll(), channels: file.info.channels)
            let measured = try LoudnessMeter.measure(mono, sampleRate: file.info.sampleRate)
            loudness[name] = measured.loudness
            peakToLoudness[name] = measured.truePeak - measured.loudness
        }
        #expect(loudness.values.max()! - loudness.values.min()! >= 20, "\(loudness)")
        #expect(abs(peakToLoudness["3"]! - 18) < 1, "\(peakToLoudness)")
    }
}
