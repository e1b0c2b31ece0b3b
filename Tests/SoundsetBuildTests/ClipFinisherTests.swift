import Foundation
import SoundsetTestSupport
import Testing

@testable import SoundsetAudio
@testable import SoundsetBuild
@testable import SoundsetFindings

@Suite struct ClipFinisherTests {
    let rate = 44100

    func prepared(_ samples: [Float], envelope: TruePeakEnvelope, measurement: LoudnessMeasurement) -> PreparedClip {
        let info = SoundFileInfo(
            frames: samples.count, sampleRate: rate, channels: 1, containerName: "WAV", encodingName: "PCM_16", container: .wav,
            encoding: .pcm16, truncation: nil)
        let recording = Recording(
            name: "7", fileName: "7.wav", url: URL(fileURLWithPath: "/nonexistent/7.wav"), displayPath: "Assets/7.wav", info: info)
        let region = TrimRegion(soundStart: 0, soundEnd: samples.count, keepStart: 0, keepEnd: samples.count, noiseFloorDb: -90, peakDb: 0, thresholdDb: -60)
        let summary = ClipSummary(
            recording: recording, sourceSHA256: "", key: "", region: region, measurement: measurement,
            analysis: ClipAnalysis(
                sourceRate: rate, sourceFrames: samples.count, notes: [], envelope: ClipEnvelope(samples, rate: rate),
                fingerprint: TakeFingerprint(samples, sampleRate: rate)),
            sampleCount: samples.count)
        return PreparedClip(summary: summary, samples: samples, envelope: envelope)
    }

    /// A clip finished from its partly measured envelope (as prepared) is the one a fully measured
    /// envelope gives, sample for sample, at levels that need from 0 to about 8 dB of limiting.
    @Test(arguments: [-26.0, -20, -16, -13])
    func partlyMeasuredEnvelopeFinishesTheSameClip(level: Double) throws {
        let samples = Signals.word(seconds: 0.7, rate: rate, levelDb: -30, crest: 17, seed: 5)
        let (measurement, envelope) = try LoudnessMeter(sampleRate: rate).measure(samples, envelopeBlock: Limiter.envelopeBlock)
        #expect(envelope.exactAbove > 0)
        let full = try envelope.refined(samples, sampleRate: rate, exactAbove: 0)
        let partly = try ClipFinisher.finish(prepared(samples, envelope: envelope, measurement: measurement), level: level, ceilingDb: -1.05, sampleRate: rate)
        let fully = try ClipFinisher.finish(prepared(samples, envelope: full, measurement: measurement), level: level, ceilingDb: -1.05, sampleRate: rate)
        #expect(partly.pcm == fully.pcm)
        #expect(partly.gainDb == fully.gainDb && partly.limitingDb == fully.limitingDb)
        if level > -20 { #expect(partly.limitingDb > 1) }
    }

    /// Quantising rounds exactly as `Float.rounded()` and clamps to 16 bits, also at every half
    /// step (the ties), just either side of them, at full scale and beyond.
    @Test func quantizeRoundsHalvesAwayFromZero() {
        var samples: [Float] = [0, -0, 1, -1, 1.5, -1.5, 32767.5 / 32768, -32768.5 / 32768, 2, -2, 1e-30, -1e-30]
        for step in -65540...65540 {
            let tie = Float(step) / 2 / 32768
            samples += [tie, tie.nextUp, tie.nextDown]
        }
        var random = SplitMix64(seed: 11)
        for _ in 0..<100_000 { samples.append(Float(Double(random.next() % 2_200_001) / 1_000_000 - 1.1)) }
        let expected = samples.map { Int16(clamping: Int(($0 * 32768).rounded())) }
        #expect(ClipFinisher.quantize(samples) == expected)
        #expect(ClipFinisher.quantize([0.5 / 32768, 1.5 / 32768, -0.5 / 32768, -2.5 / 32768]) == [1, 2, -1, -3])
    }
}
