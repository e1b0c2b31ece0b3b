import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// The runtime reads and writes CAF, WAV and AIFF in pure Swift; libsndfile, which writes the set,
/// must agree with it both ways, in every container and encoding the build can write.
@Suite struct RuntimeFormatInteropTests {
    static let formats: [(Container, Encoding)] = Container.allCases.flatMap { container in Encoding.allCases.map { (container, $0) } }

    @Test(arguments: formats)
    func theRuntimeReadsWhatLibsndfileWrites(container: Container, encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("clip.\(container.fileExtension)")
        let samples: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 * 61 - 30000) }
        do {
            let writer = try SoundFile.create(writing: url.path, container: container, encoding: encoding, sampleRate: 22050)
            try writer.write(samples)
        }
        let byLibsndfile = try SoundFile.open(reading: url.path)
        let sound = try SoundData(parsing: Data(contentsOf: url), name: url.lastPathComponent)
        #expect(sound.format.container == container)
        #expect(sound.format.encoding == encoding)
        #expect(sound.format.sampleRate == 22050)
        #expect(sound.frames == byLibsndfile.info.frames)
        // Re-encoded by the runtime, libsndfile decodes the same samples.
        let again = folder.url.appendingPathComponent("again.\(container.fileExtension)")
        try sound.encoded().write(to: again)
        let reread = try SoundFile.open(reading: again.path)
        #expect(reread.info.frames == byLibsndfile.info.frames)
        #expect(reread.info.container == container)
        #expect(reread.info.encoding == encoding)
        #expect(try reread.readAll() == byLibsndfile.readAll())
    }

    @Test(arguments: formats)
    func libsndfileReadsWhatTheRuntimeComposes(container: Container, encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try FakeSets.write(in: folder.url, container: container, encoding: encoding, rate: 16000)
        let plan = try Planner(manifest: manifest).plan(try Amount("305.07"))
        let data = try Composer.compose(plan, manifest: manifest, soundsFolder: folder.url.appendingPathComponent("Sounds"), leadInFrames: 7)
        let out = folder.url.appendingPathComponent("composed.\(container.fileExtension)")
        try data.write(to: out)
        let file = try SoundFile.open(reading: out.path)
        #expect(file.info.frames == 7 + plan.totalFrames)
        #expect(file.info.sampleRate == 16000)
        #expect(file.info.container == container)
        #expect(file.info.encoding == encoding)
        #expect(file.info.truncation == nil)
        let composed = try file.readAll()
        for step in plan.steps {
            let clip = try SoundFile.open(reading: folder.url.appendingPathComponent("Sounds/\(step.file)").path).readAll()
            #expect(Array(composed[7 + step.startFrame..<7 + step.startFrame + step.frames]) == clip, "\(step.clip)")
        }
        // Silence: exact zero in PCM; a-law has no zero code, its silence decodes to ±8/32768.
        #expect(composed[0..<7].allSatisfy { abs($0) <= 8.0 / 32768 })
    }
}
