import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct SoundFileTests {
    @Test(arguments: Container.allCases, Encoding.allCases)
    func writesWhatItReadsBack(container: Container, encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("clip.\(container.fileExtension)").path
        let pcm: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 * 29) }
        do {
            let file = try SoundFile.create(writing: path, container: container, encoding: encoding, sampleRate: 22050)
            try file.write(pcm)
        }
        let file = try SoundFile.open(reading: path)
        #expect(file.info.frames == 1000)
        #expect(file.info.sampleRate == 22050)
        #expect(file.info.channels == 1)
        #expect(file.info.container == container)
        #expect(file.info.encoding == encoding)
        let samples = try file.readAll()
        let expected = pcm.map { Float($0) / 32768 }
        if encoding == .pcm16 {
            #expect(samples == expected)
        } else {
            // G.711 keeps about 5 bits of each sample's mantissa: within 1/16 of it, or of its
            // smallest step (32/32768 for a-law) near zero.
            for (decoded, original) in zip(samples, expected) {
                #expect(abs(decoded - original) <= max(abs(original) / 16, 32 / 32768), "\(original) came back as \(decoded)")
            }
            #expect(samples.count == 1000)
        }
        // Encoded in memory, the bytes are those libsndfile writes to a file.
        let inMemory = try SoundFile.encode(pcm, container: container, encoding: encoding, sampleRate: 22050, path: "clip")
        #expect(inMemory == (try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(try SoundFile.open(bytes: inMemory, path: "clip").readAll() == samples)
    }

    @Test func randomBytesGiveLibsndfilesReason() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("noise.wav")
        try Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: url)
        let error = #expect(throws: SoundFileError.self) { try SoundFile.open(reading: url.path) }
        #expect(error?.code != 0)
        #expect(error?.reason.isEmpty == false)
        #expect(error?.description.hasPrefix(url.path + ": ") == true)
    }

    /// libsndfile reads a truncated file's frames silently; the note it logs is what the build
    /// refuses the file by (`AssetCatalog.headerProblem`, tested through the build).
    @Test func truncatedDataIsReadSilentlyButNoted() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("short.wav")
        var data = WAVFile.bytes(Signals.tone(440, seconds: 0.5, rate: 8000), rate: 8000)
        data.removeLast(4000)
        try data.write(to: url)
        let file = try SoundFile.open(reading: url.path)
        // libsndfile trusts the file's length and reads what is there, silently; the note it logs
        // is kept, so the build can refuse the file instead of building from half a take.
        #expect(file.info.frames == 2000)
        #expect(file.info.truncation == "data : 8000 (should be 4000)")
        #expect(try file.readAll().count == 2000)
    }
}
