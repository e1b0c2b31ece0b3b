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
