import Foundation

/// Small packs of generated recordings for build tests: short, so debug builds stay quick.
public enum AssetPacks {
    /// Writes a few takes in various formats into `folder`: digits `1` `2` `3` and `yuan`, with levels
    /// 20 dB apart and one take whose peaks sit 18 dB above its loudness.
    public static func small(in folder: URL) throws {
        let takes: [(String, Double, Double, Int, Int, WAVFile.Format)] = [
            // name, word seconds, level dBFS RMS, rate, channels, format
            ("1", 0.12, -12, 16000, 1, .pcm16),
            ("2", 0.3, -34, 22050, 2, .pcm24),
            ("3", 0.5, -24, 48000, 1, .float32),
            ("yuan", 0.8, -20, 32000, 1, .pcm16),
        ]
        for (index, take) in takes.enumerated() {
            let crest = take.0 == "3" ? 14.0 : 10.0
            let made = Takes.word(word: take.1, rate: take.3, levelDb: take.2, crest: crest, seed: UInt64(index + 1))
            var samples = made.samples
            if take.4 == 2 { samples = samples.flatMap { [$0, $0 * 0.9] } }
            try WAVFile.write(samples, to: folder.appendingPathComponent("\(take.0).wav"), rate: take.3, channels: take.4, format: take.5)
        }
    }
}
