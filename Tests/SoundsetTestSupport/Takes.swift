import Foundation

/// Studio-like takes: a word between stretches of room tone.
public enum Takes {
    /// Room tone, a word, room tone; returns the samples and where the word starts and ends (frames).
    public static func word(
        before: Double = 0.12, word seconds: Double = 0.3, after: Double = 0.15, rate: Int = 16000,
        levelDb: Double = -20, crest: Double = 10, roomDb: Double = -70, seed: UInt64 = 1
    ) -> (samples: [Float], start: Int, end: Int) {
        let word = Signals.word(seconds: seconds, rate: rate, levelDb: levelDb, crest: crest, seed: seed)
        let lead = Int(before * Double(rate))
        var samples = [Float](repeating: 0, count: lead) + word + [Float](repeating: 0, count: Int(after * Double(rate)))
        samples = Signals.mix(samples, Signals.noise(seconds: Double(samples.count) / Double(rate), rate: rate, rmsDb: roomDb, seed: seed))
        return (samples, lead, lead + word.count)
    }
}

extension Takes {
    /// A word whose last sound is a soft stop: room tone, a vowel (`Signals.word`, -18 dBFS RMS),
    /// a closure of room tone, then a 2 ms burst of noise at `burstDb` dBFS RMS (4.5 dB above the
    /// threshold a -70 dBFS room gives the trimmer, -64.5 dBFS, but 1 dB below it averaged over a
    /// 10 ms window), then room tone. Returns the samples, where the vowel starts and where the burst ends.
    public static func softFinalStop(rate: Int = 16000, burstDb: Double = -60, seed: UInt64 = 3) -> (samples: [Float], start: Int, burstEnd: Int) {
        let lead = Signals.silence(seconds: 0.15, rate: rate)
        let vowel = Signals.word(seconds: 0.25, rate: rate, levelDb: -18, seed: seed)
        let closure = Signals.silence(seconds: 0.04, rate: rate)
        let burst = Signals.noise(seconds: 0.002, rate: rate, rmsDb: burstDb, seed: seed + 1)
        let dry = lead + vowel + closure + burst + Signals.silence(seconds: 0.2, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -70, seed: seed + 2))
        return (take, lead.count, lead.count + vowel.count + closure.count + burst.count)
    }

    /// A take with one full-scale sample (`click`) at `clickAt` seconds: room tone, then a word from
    /// `wordAt` seconds (`Signals.word`, 0.3 s at `levelDb` dBFS RMS), room tone.
    public static func withClick(
        at clickAt: Double, wordAt: Double = 0.4, rate: Int = 16000, levelDb: Double = -20, click: Float = 1, seed: UInt64 = 5
    ) -> [Float] {
        var take = word(before: wordAt, word: 0.3, after: 0.2, rate: rate, levelDb: levelDb, seed: seed).samples
        take[Int(clickAt * Double(rate))] = click
        return take
    }
}
