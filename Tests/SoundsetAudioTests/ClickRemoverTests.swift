import Foundation
@testable import SoundsetAudio
import SoundsetTestSupport
import Testing

@Suite struct ClickRemoverTests {
    let rate = 16000

    /// One full-scale sample in the room tone is found and replaced by the line between its
    /// neighbours; nothing else changes.
    @Test func aFullScaleSampleInTheRoomToneIsReplacedByTheLineBetweenItsNeighbours() {
        let original = Takes.withClick(at: 0.25, rate: rate)
        var samples = original
        let clicks = ClickRemover.remove(&samples, sampleRate: rate)
        let at = 4000
        #expect(clicks == [ClickRemover.Click(start: at, end: at + 1)])
        #expect(abs(samples[at] - (original[at - 1] + original[at + 1]) / 2) < 1e-7)
        #expect(abs(samples[at]) < 0.002, "\(samples[at])")
        #expect(samples.indices.filter { samples[$0] != original[$0] } == [at])
    }

    /// Three samples in a row (a 0.19 ms tick, at half scale) are one click: each is put on the
    /// line from the sample before to the sample after, at a quarter, a half and three quarters.
    @Test func aFewSamplesAreOneClickInterpolatedLinearly() {
        var samples = Takes.withClick(at: 0.25, rate: rate)
        let at = 4000
        samples[at - 1] = 0.0005
        samples[at] = -0.5
        samples[at + 1] = 0.5
        samples[at + 2] = -0.4
        samples[at + 3] = 0.0007
        let clicks = ClickRemover.remove(&samples, sampleRate: rate)
        #expect(clicks == [ClickRemover.Click(start: at, end: at + 3)])
        #expect(abs(samples[at] - 0.00055) < 1e-7)
        #expect(abs(samples[at + 1] - 0.0006) < 1e-7)
        #expect(abs(samples[at + 2] - 0.00065) < 1e-7)
    }

    /// Speech is no click: a word (its peaks up to 18 dB above its RMS, with a 2 ms plosive-like
    /// burst), tones and a 2 ms burst of noise in the room tone are left sample for sample.
    @Test(arguments: [10.0, 14, 18])
    func speechAndBurstsAreLeftAlone(crest: Double) {
        let take = Takes.word(before: 0.1, word: 0.4, after: 0.1, rate: rate, levelDb: -20, crest: crest, seed: 4).samples
        let burst = Signals.silence(seconds: 0.1, rate: rate) + Signals.noise(seconds: 0.002, rate: rate, rmsDb: -20, seed: 2)
        let original = Signals.mix(take, burst) + Signals.tone(1000, seconds: 0.1, rate: rate, amplitudeDb: -3)
        var samples = original
        #expect(ClickRemover.remove(&samples, sampleRate: rate) == [])
        #expect(samples == original)
    }

    /// A click riding on a quiet word (a full-scale sample 30 dB above the vowel's RMS) is found too.
    @Test func aClickOnTheWordIsFound() {
        var samples = Takes.withClick(at: 0.55, rate: rate, levelDb: -32)
        let clicks = ClickRemover.remove(&samples, sampleRate: rate)
        #expect(clicks == [ClickRemover.Click(start: 8800, end: 8801)])
        #expect(abs(samples[8800]) < 0.1)
    }
}

@Suite struct TakeFingerprintTests {
    let rate = 16000

    @Test func theSameSamplesAreTheSameRecording() {
        let take = Takes.word(rate: rate, seed: 8).samples
        let print = TakeFingerprint(take, sampleRate: rate)
        #expect(print.rate == 4000)
        #expect(print.values.count == (take.count + 3) / 4)
        #expect(print.isSameRecording(as: TakeFingerprint(take, sampleRate: rate)))
    }

    /// The rate is the take's over the whole factor nearest 4 kHz: 44.1 kHz gives 4,009 Hz.
    @Test func theRateIsTheTakesOverAWholeFactor() {
        #expect(TakeFingerprint([Float](repeating: 0.1, count: 44100), sampleRate: 44100).rate == 4009)
        #expect(TakeFingerprint([Float](repeating: 0.1, count: 22050), sampleRate: 22050).rate == 3675)
        #expect(TakeFingerprint([Float](repeating: 0.1, count: 48000), sampleRate: 48000).values.count == 4000)
    }

    /// The same take resampled to 22.05 kHz and back (as the build brings every take to the set's
    /// rate), 6 dB quieter, with noise 40 dB under it: the same recording. Another take of the same
    /// word (another seed: its phase drifts) is not, nor is the take with 3 % more room tone at its
    /// end, nor a fingerprint at another rate.
    @Test func nearlyTheSameIsTheSameRecordingAndAnotherTakeIsNot() throws {
        let take = Takes.word(rate: rate, seed: 8).samples
        let print = TakeFingerprint(take, sampleRate: rate)
        let resampled = try Resampler.resample(take.map { $0 * 0.5 }, from: rate, to: 22050, quality: .medium)
        let noisy = Signals.mix(resampled, Signals.noise(seconds: Double(resampled.count) / 22050, rate: 22050, rmsDb: -66, seed: 3))
        let back = try Resampler.resample(noisy, from: 22050, to: rate, quality: .fastest)
        #expect(TakeFingerprint(back, sampleRate: rate).isSameRecording(as: print))
        #expect(!TakeFingerprint(noisy, sampleRate: 22050).isSameRecording(as: print))
        let another = Takes.word(rate: rate, seed: 9).samples
        #expect(!TakeFingerprint(another, sampleRate: rate).isSameRecording(as: print))
        let longer = take + Signals.noise(seconds: 0.03 * Double(take.count) / Double(rate), rate: rate, rmsDb: -70, seed: 4)
        #expect(!TakeFingerprint(longer, sampleRate: rate).isSameRecording(as: print))
    }

    /// Kept in the memo as its rate and its bytes, and read back equal; the old form (bytes alone) is no fingerprint.
    @Test func aFingerprintReadsBackAsWritten() throws {
        let print = TakeFingerprint(Takes.word(rate: rate, seed: 8).samples, sampleRate: rate)
        #expect(try JSONDecoder().decode(TakeFingerprint.self, from: JSONEncoder().encode(print)) == print)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TakeFingerprint.self, from: Data(#""AQID""#.utf8)) }
        // A rate no take has (a forged memo entry's, which would size the search) is no fingerprint.
        for rate in [0, -4000, 384_001, 1_000_000_000] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(TakeFingerprint.self, from: Data(#"{"rate": \#(rate), "values": "AQID"}"#.utf8)) }
        }
        #expect(try JSONDecoder().decode(TakeFingerprint.self, from: Data(#"{"rate": 4009, "values": "AQID"}"#.utf8)).values == [1, 2, 3])
    }
}

/// The same-recording check's shortcut gives the full search's answer: on takes that are one
/// recording, nearly one, and not one, at thresholds around each pair's best correlation.
@Suite struct CorrelationShortcutTests {
    /// The full search, as the definition says it.
    static func bestCorrelation(_ a: [Int8], _ b: [Int8], maxLag: Int) -> Double {
        let energyA = a.reduce(0.0) { $0 + Double($1) * Double($1) }, energyB = b.reduce(0.0) { $0 + Double($1) * Double($1) }
        var best = -Double.infinity
        for lag in -maxLag...maxLag {
            let first = max(0, -lag), last = min(a.count, b.count - lag)
            guard first < last else { continue }
            best = max(best, (first..<last).reduce(0.0) { $0 + Double(a[$1]) * Double(b[$1 + lag]) } / (energyA * energyB).squareRoot())
        }
        return best
    }

    @Test func theShortcutAnswersAsTheFullSearchDoes() throws {
        let rate = 16000
        let take = Takes.word(rate: rate, seed: 8).samples
        let noisy = Signals.mix(take, Signals.noise(seconds: Double(take.count) / Double(rate), rate: rate, rmsDb: -45, seed: 3))
        let prints = [take, noisy, Takes.word(rate: rate, seed: 9).samples, Array(take.dropFirst(40))].map { TakeFingerprint($0, sampleRate: rate) }
        var checked = 0
        for a in prints {
            for b in prints {
                let best = Self.bestCorrelation(a.values, b.values, maxLag: a.maxLag)
                for threshold in [best - 0.01, best - 1e-6, best, best + 1e-6, best + 0.01, 0.5, 0.98] {
                    #expect(TakeFingerprint.correlationReaches(threshold, a.values, b.values, maxLag: a.maxLag) == (best >= threshold))
                    checked += 1
                }
            }
        }
        #expect(checked == 112)
    }
}
