import Foundation
@testable import SoundsetAudio
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

    @Test func slidingMinimumMatchesTheDefinition() {
        var generator = SplitMix64(seed: 5)
        for (count, window) in [(1, 3), (7, 1), (10, 3), (64, 8), (100, 7), (131, 132), (500, 33)] {
            let values = (0..<count).map { _ in Float(generator.next() % 1000) / 1000 }
            let expected = (0..<count).map { values[$0..<min(count, $0 + window)].min()! }
            #expect(Limiter.slidingMinimum(values, window: window) == expected, "count \(count), window \(window)")
        }
    }

    @Test func leavesQuietClipsAlone() throws {
        let clip = Signals.tone(500, seconds: 0.2, rate: rate, amplitudeDb: -6)
        let result = try Limiter.apply(clip, sampleRate: rate, ceilingDb: -1)
        #expect(result.maxReductionDb == 0)
        #expect(result.samples == clip)
    }
}

@Suite struct TruePeakEnvelopeTests {
    /// The envelope is one true peak per 32-sample block (blocks restart at each 400 ms window), and
    /// at every sample at least the sample itself and its own block's true peak.
    @Test func coversEverySampleWithItsNeighbourhoodsTruePeak() throws {
        let rate = 44100
        // 0.5 s: a 4,410-sample remainder first, then one 400 ms window; a loud burst in the middle.
        var clip = Signals.word(seconds: 0.5, rate: rate, levelDb: -30, crest: 10)
        for index in 10_000..<10_040 { clip[index] = index % 2 == 0 ? 0.9 : -0.9 }
        let (measurement, envelope) = try LoudnessMeter(sampleRate: rate).measure(clip, envelopeBlock: 32)
        #expect(envelope.blockEnds.count == (4410 + 31) / 32 + (17640 + 31) / 32)
        #expect(envelope.blockEnds.last.map(Int.init) == clip.count)
        #expect(envelope.blockEnds.contains(4410))
        let values = envelope.values(for: clip)
        #expect(values.count == clip.count)
        #expect(zip(values, clip).allSatisfy { $0 >= abs($1) })
        // Its highest point is the clip's true peak, and the limiter's quick test agrees.
        let highest = try #require(values.max())
        #expect(abs(Double(20 * log10(highest)) - measurement.truePeak) < 0.01)
        #expect(envelope.highest == highest)
        // Far from the burst the envelope is the quiet word's, not the burst's.
        #expect(values[2000] < 0.2 && values[9_960] > 0.85 && values[10_200] < 0.2)
    }
}
