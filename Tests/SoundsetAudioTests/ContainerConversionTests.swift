import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// `SoundData.convert`: an announcement written in another container than the set's (`render --out
/// a.wav` of a CAF set) holds the same samples, and libsndfile reads it as that container.
@Suite struct ContainerConversionTests {
    static let pairs: [(Container, Container)] = Container.allCases.flatMap { from in Container.allCases.map { (from, $0) } }

    @Test(arguments: pairs, Encoding.allCases)
    func theSamplesSurviveEveryContainer(_ pair: (Container, Container), encoding: Encoding) throws {
        let (from, to) = pair
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let source = folder.url.appendingPathComponent("source.\(from.fileExtension)")
        // 1001 frames: an odd number of bytes for µ-law and a-law, so WAV and AIFF need their pad byte.
        let samples: [Int16] = (0..<1001).map { Int16(truncatingIfNeeded: $0 * 61 - 30000) }
        do {
            let writer = try SoundFile.create(writing: source.path, container: from, encoding: encoding, sampleRate: 22050)
            try writer.write(samples)
        }
        let original = try SoundFile.open(reading: source.path)
        let converted = try SoundData.convert(try Data(contentsOf: source), to: to, name: "source")
        let target = folder.url.appendingPathComponent("converted.\(to.fileExtension)")
        try converted.write(to: target)
        let reread = try SoundFile.open(reading: target.path)
        #expect(reread.info.container == to)
        #expect(reread.info.encoding == encoding)
        #expect(reread.info.sampleRate == 22050)
        #expect(reread.info.frames == original.info.frames)
        #expect(reread.info.truncation == nil)
        #expect(try reread.readAll() == original.readAll())
        let parsed = try SoundData(parsing: converted, name: "converted")
        #expect(parsed.format.container == to)
        if from == to { #expect(converted == (try Data(contentsOf: source))) }
        if encoding == .pcm16 && to != .caf { #expect(parsed.format.littleEndian == (to == .wav)) }
    }

    @Test func anythingButASoundFileIsRefused() {
        #expect(throws: ComposeError.unreadable("notes", "not a CAF, WAV or AIFF file")) {
            try SoundData.convert(Data("hello, world".utf8), to: .wav, name: "notes")
        }
    }

    @Test func theExtensionNamesTheContainer() {
        #expect(Container(fileExtension: "WAV") == .wav)
        #expect(Container(fileExtension: "aif") == .aiff)
        #expect(Container(fileExtension: "aiff") == .aiff)
        #expect(Container(fileExtension: "caf") == .caf)
        #expect(Container(fileExtension: "mp3") == nil)
        #expect(Container(fileExtension: "") == nil)
    }
}
