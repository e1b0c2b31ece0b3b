import Foundation
@testable import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// Joins by speech: where the timeline puts each clip, what the composer mixes, and the codec it
/// mixes with.
@Suite struct SpeechJoinTests {
    /// Random clips with pads, as the build makes them.
    static func clips(seed: UInt64, count: Int) -> [ClipTiming] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let lead = Int(random.next() % 400)
            let tail = Int(random.next() % 400)
            return ClipTiming(frames: lead + tail + 200 + Int(random.next() % 3000), lead: lead, tail: tail)
        }
    }

    @Test(arguments: [0, 25, 100, 1000])
    func eachWordStartsTheGapAfterTheLastOnesSpeech(gap: Int) {
        for seed in UInt64(1)...20 {
            let clips = Self.clips(seed: seed, count: 1 + Int(seed % 9))
            let timeline = Timeline(clips, gapFrames: gap, crossfades: true, rate: 8000)
            #expect(timeline.placements.count == clips.count)
            #expect(timeline.placements[0].start == 0)
            for index in clips.indices.dropFirst() {
                let previous = timeline.placements[index - 1]
                let speechEnd = previous.start + clips[index - 1].frames - clips[index - 1].tail
                let speechStart = timeline.placements[index].start + clips[index].lead
                #expect(speechStart - speechEnd == gap)
                // The crossfade lies over the gap, at least 5 ms (40 frames at 8 kHz) long.
                let fade = timeline.placements[index].fadeIn!
                #expect(fade == previous.fadeOut!)
                #expect(fade.count == max(gap, 40))
                #expect(fade.lowerBound <= speechEnd && fade.upperBound >= speechStart)
            }
            let last = timeline.placements.last!
            #expect(timeline.totalFrames == last.start + last.frames)
            #expect(timeline.totalFrames == Timeline.length(of: clips, gapFrames: gap))
        }
    }

    @Test func fileJoinsFollowEachOtherWithTheGap() {
        let clips = Self.clips(seed: 3, count: 6).map { ClipTiming(frames: $0.frames) }
        let timeline = Timeline(clips, gapFrames: 25, crossfades: false, rate: 8000)
        var position = 0
        for (clip, placement) in zip(clips, timeline.placements) {
            #expect(placement.start == position && placement.fadeIn == nil && placement.fadeOut == nil)
            position += clip.frames + 25
        }
        #expect(timeline.totalFrames == position - 25)
        #expect(timeline.totalFrames == Timeline.length(of: clips, gapFrames: 25))
    }

    @Test func crossfadesKeepThePowerAndEndAtTheirEdges() {
        let clips = [ClipTiming(frames: 1000, lead: 100, tail: 150), ClipTiming(frames: 900, lead: 120, tail: 100)]
        let timeline = Timeline(clips, gapFrames: 80, crossfades: true, rate: 8000)
        let (first, second) = (timeline.placements[0], timeline.placements[1])
        let fade = first.fadeOut!
        for frame in fade {
            let power = first.gain(at: frame) * first.gain(at: frame) + second.gain(at: frame) * second.gain(at: frame)
            #expect(abs(power - 1) < 1e-12)
        }
        #expect(first.gain(at: fade.lowerBound - 1) == 1 && first.gain(at: fade.upperBound) == 0)
        #expect(second.gain(at: fade.lowerBound - 1) == 0 && second.gain(at: fade.upperBound) == 1)
        #expect(first.audible == 0..<fade.upperBound)
        #expect(second.audible == fade.lowerBound..<(second.start + 900))
    }

    // MARK: The composer

    /// A set whose clips have 60-frame pads at both ends.
    func padded(in folder: URL, encoding: Encoding = .pcm16, gapMs: Double = 25) throws -> Manifest {
        try FakeSets.write(
            in: folder, encoding: encoding, gapMs: gapMs, announcement: AnnouncementSettings(join: .speech),
            speech: { frames in Manifest.Speech(start: 60, end: frames - 60) })
    }

    @Test(arguments: Encoding.allCases)
    func theComposerMixesOnlyTheCrossfades(encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try padded(in: folder.url, encoding: encoding)
        let plan = try Planner(manifest: manifest).plan(try Amount("123.45"))
        #expect(plan.join == .speech)
        #expect(plan.gapFrames == 200)  // 25 ms at 8 kHz
        let sounds = folder.url.appendingPathComponent("Sounds")
        let composed = try SoundData(parsing: try Composer.compose(plan, manifest: manifest, soundsFolder: sounds, leadInFrames: 30), name: "c")
        #expect(composed.frames == 30 + plan.totalFrames)
        let timeline = Timeline(
            plan.steps.map { ClipTiming(frames: $0.frames, lead: 60, tail: 60) }, gapFrames: plan.gapFrames, crossfades: true, rate: 8000)
        #expect(timeline.placements.map(\.start) == plan.steps.map(\.startFrame))
        let bytes = encoding.bytesPerSample
        let format = composed.format
        for (index, step) in plan.steps.enumerated() {
            let clip = try SoundData(parsing: Data(contentsOf: sounds.appendingPathComponent(step.file)), name: step.file)
            let placement = timeline.placements[index]
            // Between its crossfades a clip is its own bytes.
            let solo = (placement.fadeIn?.upperBound ?? placement.start)..<(placement.fadeOut?.lowerBound ?? placement.start + step.frames)
            let from = composed.samples.startIndex + (30 + solo.lowerBound) * bytes
            let own = clip.samples.startIndex + (solo.lowerBound - placement.start) * bytes
            #expect(composed.samples[from..<from + solo.count * bytes] == clip.samples[own..<own + solo.count * bytes], "\(step.clip)")
            // In the crossfade out, the gain-weighted sum of the two clips, within one step of the encoding.
            guard let fade = placement.fadeOut else { continue }
            let next = try SoundData(parsing: Data(contentsOf: sounds.appendingPathComponent(plan.steps[index + 1].file)), name: "n")
            let following = timeline.placements[index + 1]
            for frame in fade {
                func value(_ sound: SoundData, _ at: Int) -> Double {
                    guard at >= 0 && at < sound.frames else { return 0 }
                    return Double(sound.samples.withUnsafeBytes { SampleCodec.decode($0, at: at, format: format) })
                }
                let expected = placement.gain(at: frame) * value(clip, frame - placement.start) + following.gain(at: frame) * value(next, frame - following.start)
                let got = Double(composed.samples.withUnsafeBytes { SampleCodec.decode($0, at: 30 + frame, format: format) })
                let step = encoding == .pcm16 ? 1.0 : max(16, abs(expected) / 8)
                #expect(abs(got - expected) <= step, "\(step) frame \(frame): \(got) vs \(expected)")
            }
        }
    }

    @Test func theChainStartsEachClipWhereThePlanDoes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try padded(in: folder.url)
        let plan = try Planner(manifest: manifest).plan(try Amount("12345.67"))
        let schedule = try NotificationSchedule(plan: plan, announcementID: "a")
        #expect(schedule.items.map(\.delay) == plan.steps.map(\.start))
        // Each clip after the first starts inside the one before it (by the pads less the gap).
        for (before, after) in zip(plan.steps, plan.steps.dropFirst()) {
            #expect(after.startFrame == before.startFrame + before.frames - 60 + plan.gapFrames - 60)
        }
    }

    /// Pads longer than the gap: the composed file overlaps them, but a chain (where a new sound
    /// cuts the one playing) starts each clip only once the previous clip's speech has ended.
    @Test func aChainNeverCutsAWord() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try FakeSets.write(
            in: folder.url, gapMs: 25, announcement: AnnouncementSettings(join: .speech), frames: { _ in 2000 },
            speech: { frames in Manifest.Speech(start: 300, end: frames - 100) })
        let plan = try Planner(manifest: manifest).plan(try Amount("12345.67"))
        let schedule = try NotificationSchedule(plan: plan, announcementID: "a")
        let starts = schedule.items.map { Int(($0.delay * 8000).rounded()) }
        #expect(starts[0] == 0)
        for index in starts.indices.dropFirst() {
            // The previous speech ends 1900 frames in; the gap (200) is shorter than the lead (300).
            #expect(starts[index] == starts[index - 1] + 1900)
            #expect(plan.steps[index].startFrame == plan.steps[index - 1].startFrame + 1900 + 200 - 300)
        }
        let timings = Array(repeating: ClipTiming(frames: 2000, lead: 200, tail: 100), count: plan.steps.count)
        #expect(Int((schedule.totalSeconds * 8000).rounded()) == Timeline.length(of: timings, gapFrames: 200))
    }

    @Test func aPlanMadeForAnotherManifestIsRefused() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try padded(in: folder.url)
        var plan = try Planner(manifest: manifest).plan(try Amount("12"))
        plan.steps[1].startFrame += 1
        #expect(throws: ComposeError.invalid("the plan's start frames are not where the manifest's clips place them (plan it again with this manifest)")) {
            try Composer.compose(plan, manifest: manifest, soundsFolder: folder.url.appendingPathComponent("Sounds"))
        }
    }

    @Test func aManifestWithoutSpeechBoundsJoinsItsFilesWhole() throws {
        var manifest = FakeSets.manifest()
        manifest.announcement = AnnouncementSettings(prefix: "received", join: .speech, gapMs: 25)
        let plan = try Planner(manifest: manifest).plan(try Amount("1"))
        #expect(plan.steps[1].startFrame == plan.steps[0].frames + 25)
        manifest.clips[0].speech = Manifest.Speech(start: 5, end: 3)
        #expect(manifest.problem == "clip '0' has speech from frame 5 to 3, not inside its 300 frames")
        manifest.clips[0].speech = Manifest.Speech(start: 0, end: 301)
        #expect(manifest.problem == "clip '0' has speech from frame 0 to 301, not inside its 300 frames")
        manifest.clips[0].speech = Manifest.Speech(start: 0, end: 300)
        #expect(manifest.problem == nil)
    }

    // MARK: The codec

    @Test func g711TablesHoldTheStandardsValues() {
        #expect(SampleCodec.ulawTable[0x00] == -32124 && SampleCodec.ulawTable[0x80] == 32124)
        #expect(SampleCodec.ulawTable[0xFF] == 0 && SampleCodec.ulawTable[0x7F] == 0)
        #expect(SampleCodec.ulawTable[0xFE] == 8 && SampleCodec.ulawTable[0x7E] == -8)
        #expect(SampleCodec.alawTable[0xD5] == 8 && SampleCodec.alawTable[0x55] == -8)
        #expect(SampleCodec.alawTable[0xAA] == 32256 && SampleCodec.alawTable[0x2A] == -32256)
        // Every code reads back as itself (µ-law's two zeros read back as one).
        for code in 0...255 {
            #expect(Int(SampleCodec.alaw(SampleCodec.alawTable[code])) == code)
            if code != 0x7F { #expect(Int(SampleCodec.ulaw(SampleCodec.ulawTable[code])) == code) }
        }
    }

    /// Each 16-bit value is encoded to the nearest code's value or the next one towards zero: within
    /// one step of its segment.
    @Test func g711EncodesEveryValueToANeighbouringCode() {
        let ulaw = Set(SampleCodec.ulawTable).sorted()
        let alaw = Set(SampleCodec.alawTable).sorted()
        for value in stride(from: -32768, through: 32767, by: 7) {
            for (table, codes, encode) in [
                (SampleCodec.ulawTable, ulaw, SampleCodec.ulaw), (SampleCodec.alawTable, alaw, SampleCodec.alaw),
            ] as [([Int], [Int], (Int) -> UInt8)] {
                let got = table[Int(encode(value))]
                let above = codes.first { $0 >= value } ?? codes.last!
                let below = codes.last { $0 <= value } ?? codes.first!
                #expect(got == above || got == below, "\(value) -> \(got)")
            }
        }
    }

    @Test func pcm16ReadsAndWritesBothByteOrders() {
        for littleEndian in [true, false] {
            let format = SoundFormat(container: littleEndian ? .wav : .caf, encoding: .pcm16, sampleRate: 8000, littleEndian: littleEndian)
            var bytes = [UInt8](repeating: 0xAA, count: 14)
            bytes.withUnsafeMutableBytes { raw in
                for (index, value) in [-32768.0, -1, 0, 1, 12345, 32767, 40000].enumerated() { SampleCodec.encode(value, format: format, into: raw, at: index) }
            }
            #expect(Array(bytes[2..<4]) == [0xFF, 0xFF] && Array(bytes[8..<10]) == (littleEndian ? [0x39, 0x30] : [0x30, 0x39]))
            let decoded = bytes.withUnsafeBytes { raw in (0..<7).map { SampleCodec.decode(raw, at: $0, format: format) } }
            #expect(decoded == [-32768, -1, 0, 1, 12345, 32767, 32767])
        }
    }
}
