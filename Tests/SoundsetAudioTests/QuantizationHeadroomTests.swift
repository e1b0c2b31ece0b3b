import Foundation
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@testable import SoundsetAudio

/// The headroom a clip is limited with so that its encoding cannot push its true peak over the
/// ceiling: decided once, where the set's level is, instead of finishing a clip again after it was
/// encoded.
@Suite struct QuantizationHeadroomTests {
    @Test func sixteenBitNeedsOnlyTheLeastHeadroom() {
        #expect(QuantizationHeadroom.decibels(for: .pcm16, ceilingDb: -1, sampleRate: 44100) == QuantizationHeadroom.least)
        #expect(QuantizationHeadroom.decibels(for: .pcm16, ceilingDb: -12, sampleRate: 8000) == QuantizationHeadroom.least)
    }

    /// µ-law and a-law step by 1/32 of full scale near the top: at -1 dBTP, a little over half a dB
    /// (the interpolator's gain times the step, against the ceiling); lower ceilings lie in finer
    /// segments, but the step against the ceiling stays about the same.
    @Test(arguments: [Encoding.ulaw, .alaw]) func companderHeadroomFollowsTheStep(encoding: Encoding) {
        let top = QuantizationHeadroom.decibels(for: encoding, ceilingDb: -1, sampleRate: 44100)
        #expect(top > 0.5 && top < 0.7, "\(top)")
        for ceiling in [-3.0, -6.1, -9, -12] {
            let headroom = QuantizationHeadroom.decibels(for: encoding, ceilingDb: ceiling, sampleRate: 16000)
            #expect(headroom > 0.4 && headroom < 1.3, "\(ceiling) dBTP: \(headroom)")
        }
    }

    /// Measured: peaky clips limited under the ceiling less the headroom, written in µ-law and
    /// a-law as the set writes them, read back and measured, stay under the ceiling; without the
    /// headroom some go over.
    @Test(arguments: [Encoding.ulaw, .alaw]) func encodedClipsStayUnderTheCeiling(encoding: Encoding) throws {
        let rate = 16000
        var worstWith = -Double.infinity, worstWithout = -Double.infinity
        for seed in 1...6 {
            let clip = Signals.word(seconds: 0.4, rate: rate, levelDb: -14, crest: 16, seed: UInt64(seed))
            for ceiling in [-1.0, -3] {
                for headroom in [QuantizationHeadroom.decibels(for: encoding, ceilingDb: ceiling, sampleRate: rate), QuantizationHeadroom.least] {
                    let limited = try Limiter.apply(clip, sampleRate: rate, ceilingDb: ceiling - headroom).samples
                    let pcm = limited.map { Int16(clamping: Int(($0 * 32768).rounded())) }
                    let bytes = try SoundFile.encode(pcm, container: .caf, encoding: encoding, sampleRate: rate, path: "clip")
                    let decoded = try SoundFile.open(bytes: bytes, path: "clip").readAll()
                    let over = try LoudnessMeter.measure(decoded, sampleRate: rate).truePeak - ceiling
                    if headroom == QuantizationHeadroom.least { worstWithout = max(worstWithout, over) } else { worstWith = max(worstWith, over) }
                }
            }
        }
        #expect(worstWith <= 0, "\(worstWith) dB over the ceiling with the headroom")
        #expect(worstWithout > 0, "the clips should need the headroom: \(worstWithout) dB")
    }
}
