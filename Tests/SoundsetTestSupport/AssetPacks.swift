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

extension AssetPacks {
    /// Every clip a zh-CN set needs (0-9, ten ... yuan) plus the phrase `received`, as short 16 kHz
    /// takes of different lengths and levels (no two the same recording: takes of one pitch differ
    /// in length by 8 % or more), and a soundset.json that builds at 16 kHz with the prefix.
    public static func completeChinese(in folder: URL) throws {
        let names = (0...9).map(String.init) + ["ten", "hundred", "thousand", "ten_thousand", "hundred_million", "point", "yuan"]
        for (index, name) in names.enumerated() {
            let take = Takes.word(
                before: 0.05, word: 0.1 + Double(index % 7) * 0.015, after: 0.05, rate: 16000,
                levelDb: -30 + Double(index % 4) * 4, seed: UInt64(index + 1))
            try WAVFile.write(take.samples, to: folder.appendingPathComponent("\(name).wav"), rate: 16000)
        }
        let phrase = Takes.word(before: 0.05, word: 0.6, after: 0.05, rate: 16000, levelDb: -24, seed: 99)
        try WAVFile.write(phrase.samples, to: folder.appendingPathComponent("received.wav"), rate: 16000)
        try Data(#"{"sampleRate": 16000, "announcement": {"prefix": "received"}}"#.utf8)
            .write(to: folder.appendingPathComponent("soundset.json"))
    }
}

extension AssetPacks {
    /// Every clip an en-US set needs (0-19, the tens, hundred ... cents) plus `received`, as short
    /// 16 kHz takes (no two the same recording: takes of one pitch differ in length by 9 %), and a
    /// soundset.json for en-US at 16 kHz with the prefix.
    public static func completeEnglish(in folder: URL) throws {
        let names =
            (0...19).map(String.init) + (2...9).map { String($0 * 10) }
            + ["hundred", "thousand", "million", "billion", "dollar", "dollars", "and", "cent", "cents"]
        for (index, name) in names.enumerated() {
            let take = Takes.word(
                before: 0.05, word: 0.08 * pow(1.09, Double(index / 5)), after: 0.05, rate: 16000, levelDb: -30 + Double(index % 4) * 4,
                seed: UInt64(index + 1))
            try WAVFile.write(take.samples, to: folder.appendingPathComponent("\(name).wav"), rate: 16000)
        }
        let phrase = Takes.word(before: 0.05, word: 0.5, after: 0.05, rate: 16000, levelDb: -24, seed: 98)
        try WAVFile.write(phrase.samples, to: folder.appendingPathComponent("received.wav"), rate: 16000)
        try Data(#"{"locale": "en-US", "sampleRate": 16000, "announcement": {"prefix": "received"}}"#.utf8)
            .write(to: folder.appendingPathComponent("soundset.json"))
    }

    /// An assets folder of two voices: `voices/zh-CN` (`completeChinese`) and `voices/en-US`
    /// (`completeEnglish`), and no `soundset.json` beside them.
    public static func twoVoices(in assets: URL) throws {
        for (voice, make) in [("zh-CN", completeChinese), ("en-US", completeEnglish)] {
            let folder = assets.appendingPathComponent("voices").appendingPathComponent(voice)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try make(folder)
        }
    }
}
