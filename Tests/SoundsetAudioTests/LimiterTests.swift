import Foundation
import SoundsetAudio
import SoundsetTestSupport
import Testing

@Suite struct LimiterTests {
    let rate = 44100

    @Test func holdsTruePeakUnderTheCeilingWithoutClipping() throws {
        // Peaks 18 dB above loudness, then pushed 6 dB over a -1 dBTP ceiling.
        var clip = Signals.word(seconds: 0.5, rate: rate, levelDb: -20, crest: 18)
        let before = try LoudnessMeter.measure(clip, sampleRate: rate)
        let push = Float(pow(10, (-1 + 6 - before.truePeak) / 20))
        clip = clip.map { $0 * push }
        let result = try Limiter.apply(clip, sampleRate: rate, ceilingDb: -1)
        let after = try LoudnessMeter.measure(result.samples, sampleRate: rate)
        #expect(after.truePeak <= -1 + 0.05, "true peak \(after.truePeak)")
        #expect(abs(result.maxReductionDb - 6) < 0.6, "reduction \(result.maxReductionDb)")
        #expect(result.samples.allSatisfy { abs($0) < 1 })
        // Smooth: the applied gain never jumps between neighbouring samples by more than 1 dB.
        var largestStep = 0.0
        for index in 1..<clip.count where abs(clip[index]) > 0.01 && abs(clip[index - 1]) > 0.01 {
            let g0 = Double(result.samples[index - 1] / clip[index - 1])
            let g1 = Double(result.samples[index] / clip[index])
            largestStep = max(largestStep, abs(20 * log10(g1 / g0)))
        }
        #expect(largestStep < 1, "step \(largestStep) dB")
    }

    @Test func leavesQuietClipsAlone() throws {
        let clip = Signals.tone(500, seconds: 0.2, rate: rate, amplitudeDb: -6)
        let result = try Limiter.apply(clip, sampleRate: rate, ceilingDb: -1)
        #expect(result.maxReductionDb == 0)
        #expect(result.samples == clip)
    }
}
