import Foundation
import SoundsetAudio
import SoundsetTestSupport
import Testing

@Suite struct TrimmerTests {
    let rate = 16000

    /// A take whose room tone starts off zero (DC) must not count its first window as sound.
    @Test func roomToneStartingOffZeroIsNotSound() throws {
        let offset = [Float](repeating: 0.0003, count: Int(0.65 * Double(rate)))
        let dry =
            Signals.silence(seconds: 0.15, rate: rate) + Signals.tone(300, seconds: 0.3, rate: rate, amplitudeDb: -40)
            + Signals.silence(seconds: 0.2, rate: rate)
        let take = Signals.mix(Signals.mix(dry, offset), Signals.noise(seconds: 0.65, rate: rate, rmsDb: -100))
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        #expect(abs(region.soundStart - Int(0.15 * Double(rate))) <= rate / 100, "\(region.soundStart)")
    }

    /// Room tone, a noise burst 35 dB below the tone that follows (a soft fricative onset), the tone,
    /// room tone. The burst must be kept, the room tone dropped.
    @Test func keepsSoftOnsetAndDropsRoomTone() throws {
        let room = -75.0
        let lead = Signals.silence(seconds: 0.2, rate: rate)
        let burst = Signals.noise(seconds: 0.08, rate: rate, rmsDb: -50, seed: 3)
        let tone = Signals.tone(220, seconds: 0.3, rate: rate, amplitudeDb: -12)  // RMS -15 dBFS
        let tail = Signals.silence(seconds: 0.25, rate: rate)
        let dry = lead + burst + tone + tail
        let take = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: room, seed: 9))
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        let truthStart = lead.count
        let truthEnd = lead.count + burst.count + tone.count
        #expect(abs(region.soundStart - truthStart) <= rate / 100, "start \(region.soundStart) vs \(truthStart)")
        #expect(abs(region.soundEnd - truthEnd) <= rate / 100, "end \(region.soundEnd) vs \(truthEnd)")
        #expect(abs(region.noiseFloorDb - room) < 6)
        // The default pad is 20 ms on each side.
        #expect(region.keepStart == region.soundStart - rate / 50)
        #expect(region.keepEnd == region.soundEnd + rate / 50)
    }

    /// Zero padding after the room tone must not make the floor -inf (which would count room tone as sound).
    @Test func digitalSilenceIsNotTheNoiseFloor() throws {
        let dry =
            Signals.silence(seconds: 0.15, rate: rate) + Signals.tone(300, seconds: 0.3, rate: rate, amplitudeDb: -20)
            + Signals.silence(seconds: 0.15, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: 0.6, rate: rate, rmsDb: -70)) + Signals.silence(seconds: 0.5, rate: rate)
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        #expect(abs(region.noiseFloorDb - -70) < 3)
        #expect(abs(region.soundStart - Int(0.15 * Double(rate))) <= rate / 100)
        #expect(abs(region.soundEnd - Int(0.45 * Double(rate))) <= rate / 100)
    }

    @Test func dropsABreathSeparatedFromTheWord() throws {
        let breath = Signals.noise(seconds: 0.1, rate: rate, rmsDb: -45, seed: 5)
        let dry =
            Signals.silence(seconds: 0.1, rate: rate) + breath + Signals.silence(seconds: 0.4, rate: rate)
            + Signals.tone(300, seconds: 0.3, rate: rate) + Signals.silence(seconds: 0.1, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -72))
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        #expect(abs(region.soundStart - Int(0.6 * Double(rate))) <= rate / 100)
        // 30 dB under the word: a breath, not a second word.
        #expect(region.dropped.isEmpty)
    }

    /// A take saying its word twice with a pause longer than the gap the trimmer bridges: the
    /// louder is kept, and the other is named (where it starts, how long it is) as left out,
    /// whichever side of the kept word it lies.
    @Test(arguments: [false, true], [16000, 44100])
    func aSecondWordIsNamedAsLeftOut(louderFirst: Bool, rate: Int) throws {
        let first = Signals.tone(300, seconds: 0.3, rate: rate, amplitudeDb: louderFirst ? -12 : -16)
        let second = Signals.tone(250, seconds: 0.25, rate: rate, amplitudeDb: louderFirst ? -16 : -12)
        let dry =
            Signals.silence(seconds: 0.1, rate: rate) + first + Signals.silence(seconds: 1.5, rate: rate) + second
            + Signals.silence(seconds: 0.2, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -72))
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        let (keptStart, droppedStart, droppedLength) = louderFirst ? (0.1, 1.9, 0.25) : (1.9, 0.1, 0.3)
        #expect(abs(region.soundStart - Int(keptStart * Double(rate))) <= rate / 100, "\(region.soundStart)")
        #expect(region.dropped.count == 1, "\(region.dropped)")
        let dropped = try #require(region.dropped.first)
        #expect(abs(dropped.lowerBound - Int(droppedStart * Double(rate))) <= rate / 100, "\(dropped)")
        // Its length within two 5 ms hops (a window's reach and the filter's ring).
        #expect(abs(dropped.count - Int(droppedLength * Double(rate))) <= rate / 100, "\(dropped)")
    }

    /// Two 15 ms taps 150 ms apart after the word (a key pressed and let go to stop the recorder),
    /// as loud as speech: bridged into one run, but no stretch of it is 50 ms of sound, so nothing
    /// is named as a second word.
    @Test(arguments: [-25.0, -30.0])
    func twoTapsAreNoSecondWord(levelDb: Double) throws {
        let tap = Signals.noise(seconds: 0.015, rate: rate, rmsDb: levelDb, seed: 7)
        let dry =
            Signals.silence(seconds: 0.1, rate: rate) + Signals.tone(300, seconds: 0.3, rate: rate) + Signals.silence(seconds: 0.8, rate: rate) + tap
            + Signals.silence(seconds: 0.15, rate: rate) + tap + Signals.silence(seconds: 0.2, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -72))
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        #expect(region.dropped.isEmpty, "\(region.dropped)")
        #expect(abs(region.soundEnd - Int(0.4 * Double(rate))) <= rate / 100, "\(region.soundEnd)")
    }

    /// A pause the trimmer bridges (a two-syllable word) leaves nothing out.
    @Test func aPauseWithinTheGapLeavesNothingOut() throws {
        let syllable = Signals.tone(300, seconds: 0.2, rate: rate)
        let dry =
            Signals.silence(seconds: 0.1, rate: rate) + syllable + Signals.silence(seconds: 0.2, rate: rate) + syllable
            + Signals.silence(seconds: 0.1, rate: rate)
        let take = Signals.mix(dry, Signals.noise(seconds: Double(dry.count) / Double(rate), rate: rate, rmsDb: -72))
        let region = try Trimmer.findRegion(take, sampleRate: rate)
        #expect(region.dropped.isEmpty)
        #expect(abs(region.soundEnd - Int(0.7 * Double(rate))) <= rate / 100, "\(region.soundEnd)")
    }

    @Test func silenceIsNoSpeech() {
        #expect(throws: TrimError.noSpeech(thresholdDb: -.infinity, noiseFloorDb: -.infinity)) {
            try Trimmer.findRegion(Signals.silence(seconds: 0.5, rate: rate), sampleRate: rate)
        }
    }

    @Test func noiseAloneIsNoSpeech() throws {
        let error = #expect(throws: TrimError.self) {
            try Trimmer.findRegion(Signals.noise(seconds: 1, rate: rate, rmsDb: -30), sampleRate: rate)
        }
        #expect(error?.description.hasPrefix("no speech found above") == true)
    }

    @Test func aClickIsTooShort() throws {
        let take = Signals.mix(
            Signals.silence(seconds: 0.2, rate: rate) + Signals.tone(1000, seconds: 0.02, rate: rate) + Signals.silence(seconds: 0.2, rate: rate),
            Signals.noise(seconds: 0.42, rate: rate, rmsDb: -70))
        let error = #expect(throws: TrimError.self) { try Trimmer.findRegion(take, sampleRate: rate) }
        guard case .tooShort(let ms, _) = error else { Issue.record("expected tooShort, got \(String(describing: error))"); return }
        #expect(ms < 50)
    }

    @Test func fadeStartsAndEndsAtZero() {
        var samples = Signals.tone(440, seconds: 0.1, rate: rate, amplitudeDb: 0).map { _ in Float(0.8) }
        Fade.applyEdges(&samples, frames: 80)
        #expect(samples.first == 0)
        #expect(abs(samples.last!) < 1e-6)
        #expect(samples[80] == 0.8)
        #expect(abs(samples[40] - 0.4) < 0.01)
        // No fade (trim.fadeMs 0) leaves every sample as it was.
        var unfaded = [Float](repeating: 0.8, count: 100)
        Fade.applyEdges(&unfaded, frames: 0)
        #expect(unfaded == [Float](repeating: 0.8, count: 100))
    }

    @Test func monoIsTheMeanAndDCIsRemoved() {
        let stereo: [Float] = [1, 0, 0.5, 0.5, 0, 1, 0.2, 0.4]
        var mono = Mono.mixDown(stereo, channels: 2)
        #expect(mono == [0.5, 0.5, 0.5, 0.3])
        #expect(Mono.mixDown([3, 0, 0, 0, 3, 0.3], channels: 3) == [1, 1.1])
        let offset = Mono.removeDC(&mono)
        #expect(abs(offset - 0.45) < 1e-6)
        #expect(abs(mono.reduce(0, +)) < 1e-6)
    }
}

@Suite struct HighPassTests {
    /// `samples` through a filter primed with the first, as the trimmer runs it.
    func filtered(_ samples: [Float], sampleRate: Int) -> [Float] {
        var filter = HighPass(sampleRate: sampleRate, primedWith: samples.first ?? 0)
        return samples.map { Float(filter($0)) }
    }

    @Test func aTakeThatStartsOffZeroHasNoStartTransient() {
        let constant = [Float](repeating: 0.01, count: 1600)
        #expect(filtered(constant, sampleRate: 16000).allSatisfy { abs($0) < 1e-7 })
    }

    @Test func passesSpeechAndStopsHum() throws {
        let hum = filtered(Signals.tone(50, seconds: 0.5, rate: 16000, amplitudeDb: 0), sampleRate: 16000)
        let voice = filtered(Signals.tone(1000, seconds: 0.5, rate: 16000, amplitudeDb: 0), sampleRate: 16000)
        let humPeak = hum[4000...].map(abs).max()!
        let voicePeak = voice[4000...].map(abs).max()!
        #expect(20 * log10(Double(humPeak)) < -11)  // 2nd order at half the cut-off: about -12 dB
        #expect(abs(20 * log10(Double(voicePeak))) < 0.1)
    }
}

@Suite struct SoftFinalSoundTests {
    /// A word whose last sound is a 2 ms burst 4.5 dB over the trimmer's threshold (1 dB under it
    /// over a 10 ms window), 40 ms after the vowel: the sound ends after the burst (within one 10 ms
    /// window), not 42 ms earlier with the vowel.
    @Test(arguments: [16000, 44100])
    func theSoundEndsWithASoftFinalStop(rate: Int) throws {
        let take = Takes.softFinalStop(rate: rate)
        let region = try Trimmer.findRegion(take.samples, sampleRate: rate)
        #expect(abs(region.thresholdDb - -64) < 1.5, "\(region.thresholdDb)")
        let lateMs = Double(region.soundEnd - take.burstEnd) * 1000 / Double(rate)
        #expect(lateMs >= 0 && lateMs <= 10, "sound ends \(lateMs) ms after the burst")
    }

    /// A burst below the threshold is room tone: the sound ends with the vowel.
    @Test func aBurstUnderTheThresholdIsNotSound() throws {
        let rate = 16000
        let take = Takes.softFinalStop(rate: rate, burstDb: -70)
        let region = try Trimmer.findRegion(take.samples, sampleRate: rate)
        let vowelEnd = take.burstEnd - Int(0.042 * Double(rate))
        #expect(abs(region.soundEnd - vowelEnd) <= rate / 100, "\(region.soundEnd) vs \(vowelEnd)")
    }
}
