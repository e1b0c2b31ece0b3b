import Foundation
import SoundsetTestSupport
import Testing

@testable import SoundsetAudio
@testable import SoundsetBuild

/// The same-recording check (#28): the groups the index and the remembered verdicts give are the
/// groups every pair compared in full gives, and the work is what changed, counted.
@Suite struct SameRecordingsTests {
    static let rate = 8000

    /// 160 words of 0.2-0.6 s (many within 2 % of another's length), and among them copies: one
    /// byte for byte, one with its loudest 10 ms 3 dB louder, one 6 dB quieter with noise 34 dB under it, one resampled to 11.025 kHz and
    /// back with noise 40 dB under it, one with 2 ms more room tone before it. Fingerprints as the build makes them.
    static let takes: [(file: String, fingerprint: TakeFingerprint)] = {
        var words = (0..<160).map { index -> (String, [Float]) in
            let seconds = 0.2 + Double(index % 40) * 0.01
            return ("w\(index).wav", word(seconds: seconds, pitch: 100 + Double(index) * 0.9, levelDb: -20 - Double(index % 3), seed: index))
        }
        let source = words[17].1
        words.append(("copy.wav", source))
        let noise = Signals.noise(seconds: Double(source.count) / Double(rate), rate: rate, rmsDb: -76, seed: 3)
        words.append(("quieter.wav", Signals.mix(source.map { $0 * 0.5 }, noise)))
        let up = try! Resampler.resample(words[42].1, from: rate, to: 11025, quality: .fastest)
        let back = try! Resampler.resample(up, from: 11025, to: rate, quality: .fastest)
        words.append(("resampled.wav", Signals.mix(back, Signals.noise(seconds: Double(back.count) / Double(rate), rate: rate, rmsDb: -60, seed: 4))))
        words.append(("later.wav", [Float](repeating: 0, count: rate / 500) + words[99].1))
        // The loudest 10 ms 3 dB louder: the envelope's crest moves a lot, the take is the same.
        var boosted = words[55].1
        let loudest = stride(from: 0, to: boosted.count - rate / 100, by: rate / 100).max { a, b in
            boosted[a..<(a + rate / 100)].reduce(0) { $0 + $1 * $1 } < boosted[b..<(b + rate / 100)].reduce(0) { $0 + $1 * $1 }
        }!
        for index in loudest..<(loudest + rate / 100) { boosted[index] *= 1.41 }
        words.append(("boosted.wav", boosted))
        return words.map { ($0.0, TakeFingerprint($0.1, sampleRate: rate)) }
    }()

    /// A vowel-like word of its own: harmonics of `pitch` at phases `seed` picks, under a rise and
    /// fall, between 20 ms of room tone.
    static func word(seconds: Double, pitch: Double, levelDb: Double, seed: Int) -> [Float] {
        var state = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let phases = (1...8).map { _ -> Double in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 * .pi
        }
        let count = Int(seconds * Double(rate))
        let gain = pow(10, levelDb / 20) / 2
        let vowel = (0..<count).map { index -> Float in
            let t = Double(index) / Double(rate)
            let value = (1...8).reduce(0.0) { $0 + sin(2 * .pi * pitch * Double($1) * t + phases[$1 - 1]) / Double($1) }
            return Float(gain * sin(.pi * Double(index) / Double(count - 1)) * value)
        }
        let room = [Float](repeating: 0, count: rate / 50)
        let dry = room + vowel + room
        return Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -70, seed: UInt64(seed + 1)))
    }

    /// Every pair compared in full, by union-find: the check before the index.
    static func everyPair(_ takes: [(file: String, fingerprint: TakeFingerprint)]) -> [[String]] {
        var parent = Array(takes.indices)
        func root(_ index: Int) -> Int { parent[index] == index ? index : root(parent[index]) }
        for a in takes.indices {
            for b in takes.indices where a < b && takes[a].fingerprint.isSameRecording(as: takes[b].fingerprint) {
                parent[root(b)] = root(a)
            }
        }
        return Dictionary(grouping: takes.indices, by: root).values.filter { $0.count > 1 }.map { $0.map { takes[$0].file }.sorted() }
            .sorted { $0[0] < $1[0] }
    }

    @Test func theIndexFindsWhatEveryPairFinds() {
        let found = SameRecordings.find(Self.takes, known: nil)
        let expected = [["boosted.wav", "w55.wav"], ["copy.wav", "quieter.wav", "w17.wav"], ["later.wav", "w99.wav"], ["resampled.wav", "w42.wav"]]
        #expect(Self.everyPair(Self.takes) == expected)
        #expect(found.groups == expected)
        // Far fewer than the pairs of a length within 2 % (each length is shared by 4 words, and
        // the lengths are 1-5 % apart).
        var withinLength = 0
        for a in Self.takes.indices {
            for b in Self.takes.indices where a < b {
                let (x, y) = (Self.takes[a].fingerprint.values.count, Self.takes[b].fingerprint.values.count)
                if Double(abs(x - y)) <= 0.02 * Double(max(x, y)) { withinLength += 1 }
            }
        }
        #expect(found.compared < withinLength, "\(found.compared) of \(withinLength)")
        let digests = Dictionary(grouping: Self.takes, by: { SameRecordings.digest($0.fingerprint) }).values.filter { $0.count > 1 }.map { $0.map(\.file) }
        #expect(digests == [["w17.wav", "copy.wav"]])
        #expect(found.verdicts.takes.count == Self.takes.count - 1)  // copy.wav is w17.wav's fingerprint
    }

    /// With the verdicts kept, nothing is compared again; one take changed is compared with a few
    /// candidates only, and the groups are those of every pair.
    @Test func rememberedVerdictsCompareOnlyWhatChanged() {
        let first = SameRecordings.find(Self.takes, known: nil)
        let again = SameRecordings.find(Self.takes, known: first.verdicts)
        #expect(again.compared == 0)
        #expect(again.groups == first.groups)
        #expect(again.verdicts == first.verdicts)

        // w99 re-recorded (another take): later.wav is no longer its copy; resampled.wav's source
        // gone: it stands alone.
        var changed = Self.takes.filter { $0.file != "w42.wav" }
        let index = changed.firstIndex { $0.file == "w99.wav" }!
        changed[index].fingerprint = TakeFingerprint(
            Self.word(seconds: 0.39, pitch: 151, levelDb: -20, seed: 999), sampleRate: Self.rate)
        let after = SameRecordings.find(changed, known: first.verdicts)
        #expect(after.groups == Self.everyPair(changed))
        #expect(after.groups == [["boosted.wav", "w55.wav"], ["copy.wav", "quieter.wav", "w17.wav"]])
        #expect(after.compared <= 8, "\(after.compared)")
    }

    /// Silence is the same recording as nothing, not even its own copy (nothing to correlate).
    @Test func silenceIsNoRecording() {
        let silent = TakeFingerprint([Float](repeating: 0, count: 2000), sampleRate: Self.rate)
        #expect(SameRecordings.groups([("a.wav", silent), ("b.wav", silent)]).isEmpty)
    }
}
