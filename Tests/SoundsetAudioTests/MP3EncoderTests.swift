import Foundation
import SoundsetAudio
import SoundsetTestSupport
import Testing

/// libmp3lame through `MP3Encoder`, read back by libsndfile (mpg123).
@Suite struct MP3EncoderTests {
    private static func rmsDb(_ samples: ArraySlice<Float>) -> Double {
        10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
    }

    @Test(arguments: [
        MP3Encoder.Settings(bitrate: .variable(quality: 5), algorithmQuality: 7),
        MP3Encoder.Settings(bitrate: .variable(quality: 5)),
        MP3Encoder.Settings(bitrate: .constant(kbps: 48), algorithmQuality: 7),
        MP3Encoder.Settings(bitrate: .average(kbps: 40), algorithmQuality: 7),
    ])
    func aToneComesBackAtItsRateLengthAndLevel(settings: MP3Encoder.Settings) throws {
        // 1.3 s of 440 Hz at -12 dBFS: not a whole number of MP3 frames (576 samples at 16 kHz).
        let tone = Signals.tone(440, seconds: 1.3, rate: 16000)
        let mp3 = try MP3Encoder(sampleRate: 16000, settings: settings).encode(tone)
        // The first frame is LAME's Info frame ("Xing" for VBR, "Info" for CBR), filled in: a
        // frame header, then the tag after the side information (9 bytes, MPEG-2 mono).
        #expect(mp3.count > 100)
        #expect(mp3.prefix(2) == Data([0xFF, 0xF3]) || mp3.prefix(2) == Data([0xFF, 0xF2]), "\(Array(mp3.prefix(4)))")
        let tag = String(decoding: mp3[13..<17], as: UTF8.self)
        #expect(tag == "Xing" || tag == "Info", "\(tag)")

        let decoded = try SoundFile.open(bytes: mp3, path: "tone.mp3")
        #expect(decoded.info.sampleRate == 16000)
        #expect(decoded.info.channels == 1)
        let samples = try decoded.readAll()
        // The Info frame gives the decoder LAME's delay and padding: the samples encoded, exactly
        // (without it, 576 + 529 of delay and up to 575 of padding more).
        #expect(samples.count == tone.count)
        // The level away from the ends (the tone starts and stops abruptly) within 1 dB.
        let middle = 1600..<(tone.count - 1600)
        #expect(abs(Self.rmsDb(samples[middle]) - Self.rmsDb(tone[middle])) < 1, "\(Self.rmsDb(samples[middle])) dB for \(Self.rmsDb(tone[middle]))")
        // In step with the input: the decoded tone correlates with the one encoded.
        let dot = middle.reduce(0.0) { $0 + Double(samples[$1]) * Double(tone[$1]) }
        let energy = middle.reduce(0.0) { $0 + Double(tone[$1]) * Double(tone[$1]) }
        #expect(dot / energy > 0.9, "correlation \(dot / energy)")
    }

    /// Every MPEG version's frames (1152 samples at 32 kHz and up, 576 below) and its Info frame.
    @Test(arguments: [8000, 11025, 12000, 22050, 32000, 44100, 48000])
    func everyMPEGRateComesBackAtItsLength(rate: Int) throws {
        let tone = Signals.tone(440, seconds: 0.7, rate: rate)
        let mp3 = try MP3Encoder(sampleRate: rate, settings: .init(bitrate: .variable(quality: 5), algorithmQuality: 7)).encode(tone)
        let decoded = try SoundFile.open(bytes: mp3, path: "tone.mp3")
        #expect(decoded.info.sampleRate == rate)
        #expect(try decoded.readAll().count == tone.count)
    }

    @Test func anEncoderEncodesOneStream() throws {
        let encoder = try MP3Encoder(sampleRate: 16000, settings: .init(bitrate: .variable(quality: 5), algorithmQuality: 7))
        _ = try encoder.encode(Signals.tone(440, seconds: 0.2, rate: 16000))
        #expect(throws: MP3EncoderError.self) { try encoder.encode(Signals.tone(440, seconds: 0.2, rate: 16000)) }
    }

    @Test func ratesMP3HasNotAreRefused() {
        // (A bitrate the MPEG version has not is not refused: LAME takes the nearest it has.)
        #expect(throws: MP3EncoderError.self) { try MP3Encoder(sampleRate: 96000, settings: .init(bitrate: .variable(quality: 5))) }
        #expect(throws: MP3EncoderError.self) { try MP3Encoder(sampleRate: 0, settings: .init(bitrate: .variable(quality: 5))) }
    }

    @Test func anEmptyStreamIsValid() throws {
        let mp3 = try MP3Encoder(sampleRate: 16000, settings: .init(bitrate: .variable(quality: 5), algorithmQuality: 7)).encode([])
        #expect(try SoundFile.open(bytes: mp3, path: "empty.mp3").readAll().count == 0)
    }
}
