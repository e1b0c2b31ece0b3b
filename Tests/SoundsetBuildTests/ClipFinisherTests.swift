import Foundation
import SoundsetTestSupport
import Testing

@testable import SoundsetAudio
@testable import SoundsetBuild

@Suite struct ClipFinisherTests {
    let rate = 44100

    func prepared(_ samples: [Float], envelope: TruePeakEnvelope, measurement: LoudnessMeasurement) -> PreparedClip {
        let info = SoundFileInfo(
            frames: samples.count, sampleRate: rate, channels: 1, containerName: "WAV", encodingName: "PCM_16", container: .wav,
            encoding: .pcm16, truncation: nil)
        let recording = Recording(
            name: "7", fileName: "7.wav", url: URL(fileURLWithPath: "/nonexistent/7.wav"), displayPath: "Assets/7.wav", info: info)
        return PreparedClip(
            recording: recording, sourceSHA256: "", region: TrimRegion(soundStart: 0, soundEnd: samples.count, keepStart: 0, keepEnd: samples.count, noiseFloorDb: -90, peakDb: 0, thresholdDb: -60),
            samples: samples, measurement: measurement, envelope: envelope, warnings: [])
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
}
