import Foundation
import SoundsetAudio
import SoundsetTestSupport
import Testing

@Suite struct ResamplerTests {
    @Test(arguments: [(48000, 44100), (22050, 44100), (32000, 44100), (44100, 16000)])
    func keepsDurationAndPitch(from: Int, to: Int) throws {
        let input = Signals.tone(1000, seconds: 0.5, rate: from, amplitudeDb: -6)
        let output = try Resampler.resample(input, from: from, to: to)
        let expected = Double(input.count) * Double(to) / Double(from)
        #expect(abs(Double(output.count) - expected) <= 2, "\(output.count) vs \(expected)")
        // 1 kHz for 0.5 s: 1000 zero crossings, counted away from the edges.
        let middle = output[(to / 20)..<(output.count - to / 20)]
        let crossings = zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 800) <= 2, "\(crossings)")
        let level = try LoudnessMeter.measure(Array(middle), sampleRate: to).truePeak
        #expect(abs(level - -6) < 0.1)
    }

    @Test func equalRatesReturnTheInput() throws {
        let input = Signals.noise(seconds: 0.1, rate: 44100, rmsDb: -20)
        #expect(try Resampler.resample(input, from: 44100, to: 44100) == input)
    }
}
