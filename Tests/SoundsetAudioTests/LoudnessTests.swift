import Foundation
import SoundsetAudio
import SoundsetTestSupport
import Testing

@Suite struct LoudnessTests {
    /// A 1 kHz sine at 0 dBFS reads -3.01 LUFS (K-weighting is ~0 dB at 1 kHz); at -20 dBFS, -23.01.
    @Test(arguments: [44100, 48000, 22050])
    func sineReadsItsKnownLoudness(rate: Int) throws {
        let sine = Signals.tone(1000, seconds: 1.3, rate: rate, amplitudeDb: -20)
        let measured = try LoudnessMeter.measure(sine, sampleRate: rate)
        #expect(abs(measured.loudness - -23.01) < 0.1, "\(measured.loudness)")
        #expect(abs(measured.truePeak - -20) < 0.1, "\(measured.truePeak)")
    }

    /// Whole-clip loudness is defined for clips far shorter than the 400 ms gating block and agrees
    /// with the same sound looped to 3 s.
    @Test(arguments: [0.12, 0.25, 0.61, 1.7])
    func shortClipsAgreeWithTheirLoop(seconds: Double) throws {
        let rate = 44100
        let clip = Signals.word(seconds: seconds, rate: rate, levelDb: -24, crest: 14)
        var looped: [Float] = []
        while looped.count < 3 * rate { looped += clip }
        let short = try LoudnessMeter.measure(clip, sampleRate: rate).loudness
        let long = try LoudnessMeter.measure(looped, sampleRate: rate).loudness
        #expect(short.isFinite)
        #expect(abs(short - long) < 0.1, "\(short) vs \(long)")
    }

    @Test func silenceIsMinusInfinity() throws {
        let measured = try LoudnessMeter.measure(Signals.silence(seconds: 0.5, rate: 16000), sampleRate: 16000)
        #expect(measured.loudness == -.infinity)
        #expect(measured.truePeak == -.infinity)
    }
}
