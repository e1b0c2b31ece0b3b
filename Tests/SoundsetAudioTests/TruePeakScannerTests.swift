import Foundation
@testable import SoundsetAudio
import SoundsetTestSupport
import Testing

@Suite struct TruePeakScannerTests {
    let rate = 44100

    /// libebur128's own impulse response confirms the interpolator the bound is made from, at the
    /// rates of each of its three designs (4x, 2x, none).
    @Test(arguments: [(8000, 12), (22050, 12), (44100, 12), (48000, 12), (96000, 24), (176_400, 24), (192_000, 0)])
    func boundIsConfirmedByTheLibrary(rate: Int, reach: Int) throws {
        let bound = try #require(InterpolatorBound.at(rate))
        #expect(bound.reach == reach)
        // The largest sum of one phase's taps: 1.864 for 4x, 2.307 for 2x (its half-sample phase has 24 taps).
        #expect(abs(Double(bound.gain) - [0: 1, 12: 1.864, 24: 2.307][reach, default: 0]) < 0.01, "gain \(bound.gain)")
    }

    /// The signal that drives the half-sample phase hardest (every tap's sign matched) reaches the
    /// bound to within 0.001 dB, and not above it: the bound is safe and tight.
    @Test func theWorstSignalReachesTheBoundAndNoFurther() throws {
        let bound = try #require(InterpolatorBound.at(rate))
        var clip = [Float](repeating: 0, count: 400)
        for frame in 0...12 {
            // Tap 4·frame + 2 of the 49-tap Hann-windowed sinc, as libebur128 designs it.
            let m = Double(4 * frame + 2 - 24) / 4
            clip[200 - frame] = sin(.pi * m) / m >= 0 ? 0.5 : -0.5
        }
        let truePeak = try LoudnessMeter.measure(clip, sampleRate: rate).truePeak
        let limit = 20 * log10(Double(bound.gain) * 0.5)
        #expect(truePeak <= limit)
        #expect(truePeak > limit - 0.001, "true peak \(truePeak) dBTP, bound \(limit) dBTP")
    }

    /// Blocks measured after a gap get the value one pass over the whole clip gives them, to the bit.
    @Test func aBlockMeasuredAloneMatchesOnePassOverTheClip() throws {
        let clip = Signals.mix(
            Signals.word(seconds: 0.6, rate: rate, levelDb: -20, crest: 16), Signals.noise(seconds: 0.6, rate: rate, rmsDb: -40))
        let ends = stride(from: 32, through: clip.count + 31, by: 32).map { UInt32(min($0, clip.count)) }
        var whole = [Float](repeating: -1, count: ends.count)
        try TruePeakScanner(sampleRate: rate).measure(clip, blockEnds: ends, into: &whole) { _ in true }
        var some = [Float](repeating: -1, count: ends.count)
        try TruePeakScanner(sampleRate: rate).measure(clip, blockEnds: ends, into: &some) { $0 % 3 == 0 || $0 % 7 == 1 }
        for block in ends.indices {
            #expect(some[block] == (block % 3 == 0 || block % 7 == 1 ? whole[block] : -1), "block \(block)")
        }
        #expect(whole.allSatisfy { $0 > 0 })
    }

    /// A measured envelope is exact above `exactAbove` and an upper bound below; refined, it is the
    /// whole clip's; its highest point is the clip's true peak; and it measured under half the blocks.
    @Test func envelopeIsExactWhereItMatters() throws {
        var clip = Signals.word(seconds: 1.2, rate: rate, levelDb: -24, crest: 18)
        for index in 30_000..<30_064 { clip[index] = index % 2 == 0 ? 0.7 : -0.7 }
        let (measurement, envelope) = try LoudnessMeter(sampleRate: rate).measure(clip, envelopeBlock: 32)
        let full = try envelope.refined(clip, sampleRate: rate, exactAbove: 0)
        #expect(full.exactAbove == 0)
        #expect(envelope.exactAbove == clip.map(abs).max())
        var measured = 0
        for (bounded, exact) in zip(envelope.blockPeaks, full.blockPeaks) {
            #expect(bounded >= exact)
            if bounded > envelope.exactAbove { #expect(bounded == exact) }
            if bounded == exact { measured += 1 }
        }
        #expect(measured < envelope.blockPeaks.count / 2, "\(measured) of \(envelope.blockPeaks.count) blocks measured")
        #expect(envelope.highest == full.highest)
        #expect(abs(20 * log10(Double(full.highest)) - measurement.truePeak) < 1e-9)
        // Refining only down to a threshold leaves every block above it exact.
        let half = try envelope.refined(clip, sampleRate: rate, exactAbove: envelope.exactAbove / 2)
        #expect(half.exactAbove == envelope.exactAbove / 2)
        for (value, exact) in zip(half.blockPeaks, full.blockPeaks) where value > half.exactAbove { #expect(value == exact) }
    }

    /// The limiter gives the same samples from a partly measured envelope as from a fully measured
    /// one, from no limiting to 12 dB of it.
    @Test(arguments: [0.0, 3, 6, 9, 12])
    func limiterSeesWhatAFullEnvelopeShows(overDb: Double) throws {
        let clip = Signals.word(seconds: 0.8, rate: rate, levelDb: -22, crest: 16, seed: 3)
        let (measurement, envelope) = try LoudnessMeter(sampleRate: rate).measure(clip, envelopeBlock: 32)
        let full = try envelope.refined(clip, sampleRate: rate, exactAbove: 0)
        let gain = Float(Decibels.toAmplitude(-1 - measurement.truePeak + overDb))
        let partly = try Limiter.apply(clip, gain: gain, envelope: envelope, sampleRate: rate, ceilingDb: -1)
        let fully = try Limiter.apply(clip, gain: gain, envelope: full, sampleRate: rate, ceilingDb: -1)
        #expect(partly.samples == fully.samples)
        #expect(abs(partly.maxReductionDb - overDb) < 0.5)
    }
}
