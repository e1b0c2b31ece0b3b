import Foundation
import SoundsetAudio
import SoundsetBuild
import SoundsetRuntime
import SoundsetTestSupport
import Testing

/// What the build knows about each word's speech, and what the runtime does with it: speech bounds
/// in the manifest, joins that do not click, tempo.
@Suite struct SpeechTests {
    func build(_ assets: URL, _ output: URL, cache: Bool = true) async throws -> BuildReport {
        try await BuildPipeline.run(BuildOptions(assets: assets, assetsDisplay: "Assets", output: output, outputDisplay: "Output", jobs: 2, useCache: cache))
    }

    /// A complete zh-CN pack at 16 kHz with `settings` merged into its soundset.json.
    func pack(in folder: TemporaryDirectory, _ settings: String = "") throws -> URL {
        let assets = try folder.folder("Assets")
        try AssetPacks.completeChinese(in: assets)
        let extra = settings.isEmpty ? "" : ", \(settings)"
        try Data(#"{"sampleRate": 16000, "announcement": {"prefix": "received"}\#(extra)}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        return assets
    }

    @Test func theManifestSaysWhereEachWordsSpeechIs() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try folder.folder("Assets")
        // Known words: 0.3 s of speech between 0.2 s and 0.25 s of room tone, at 48 kHz into 16 kHz.
        let take = Takes.word(before: 0.2, word: 0.3, after: 0.25, rate: 48000, levelDb: -20, seed: 3)
        try WAVFile.write(take.samples, to: assets.appendingPathComponent("yuan.wav"), rate: 48000)
        try Data(#"{"sampleRate": 16000}"#.utf8).write(to: assets.appendingPathComponent("soundset.json"))
        let output = folder.url.appendingPathComponent("Output")
        let manifest = try await build(assets, output).manifest
        let clip = try #require(manifest.clips.first)
        let speech = try #require(clip.speech)
        // The 20 ms pad is 320 frames at 16 kHz each side: the bounds sit inside the pads.
        #expect(speech.start == 320)
        #expect(speech.end == clip.frames - 320)
        // The word's 0.3 s (4800 frames), found to the trimmer's 10 ms windows (160 frames) outwards.
        let length = speech.end - speech.start
        #expect(length >= 4800 - 160, "\(length)")
        #expect(length <= 4800 + 2 * 160, "\(length)")
        let file = try SoundFile.open(reading: output.appendingPathComponent("Sounds/\(clip.file)").path)
        #expect(file.info.frames == clip.frames)
    }

    /// Within ±5 ms of every join, no step between adjacent samples is larger than the largest within
    /// the two words' speech: the crossfades do not click (PCM and µ-law).
    @Test(arguments: ["pcm16", "ulaw"])
    func joinsDoNotClick(encoding: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try pack(in: folder, #""encoding": "\#(encoding)""#)
        let output = folder.url.appendingPathComponent("Output")
        let manifest = try await build(assets, output).manifest
        #expect(manifest.announcement?.join == .speech)
        for amount in ["12345.67", "99999999.99", "10.01"] {
            let plan = try Planner(manifest: manifest).plan(try Amount(amount))
            let bytes = try Composer.compose(plan, manifest: manifest, soundsFolder: output.appendingPathComponent("Sounds"))
            let scratch = folder.url.appendingPathComponent("composed.caf")
            try bytes.write(to: scratch)
            let samples = try SoundFile.open(reading: scratch.path).readAll()
            #expect(samples.count == plan.totalFrames)
            let speech = plan.steps.map { step in manifest.clips.first { $0.file == step.file || $0.copy == step.file }!.speech! }
            func largestStep(_ range: Range<Int>) -> Float {
                let range = max(1, range.lowerBound)..<min(samples.count, range.upperBound)
                return range.map { abs(samples[$0] - samples[$0 - 1]) }.max() ?? 0
            }
            let fiveMs = 80
            for index in plan.steps.indices.dropFirst() {
                let before = plan.steps[index - 1]
                let after = plan.steps[index]
                let end = before.startFrame + speech[index - 1].end
                let start = after.startFrame + speech[index].start
                let join = largestStep((end - fiveMs)..<(start + fiveMs))
                let words = max(
                    largestStep((before.startFrame + speech[index - 1].start)..<end), largestStep(start..<(after.startFrame + speech[index].end)))
                #expect(join <= words, "\(amount): join \(index) (\(before.clip) → \(after.clip)): \(join) > \(words)")
            }
        }
    }

    /// The composed lengths the issue asks for, in both joins, on the demo pack.
    @Test func speechJoinsAreShorterThanFileJoinsByThePadsLessTheGap() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let assets = try pack(in: folder)
        let output = folder.url.appendingPathComponent("Output")
        var manifest = try await build(assets, output).manifest
        let bySpeech = try Planner(manifest: manifest).plan(try Amount("12345.67"))
        manifest.announcement?.join = .file
        manifest.announcement?.gapMs = 0
        let byFile = try Planner(manifest: manifest).plan(try Amount("12345.67"))
        // 14 clips, 13 joins; each join saves both 20 ms pads (320 frames at 16 kHz each) less the 25 ms gap.
        #expect(byFile.totalFrames - bySpeech.totalFrames == 13 * (2 * 320 - 400))
    }

    @Test func tempoShortensTheSpeechAndKeepsThePitch() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let normal = try folder.folder("normal")
        let fast = try folder.folder("fast")
        // A steady harmonic vowel at 150 Hz, and the small pack's words.
        var vowel: [Float] = []
        for index in 0..<Int(0.6 * 16000) {
            let t = Double(index) / 16000
            var value = 0.0
            for harmonic in 1...6 { value += sin(2 * .pi * 150 * Double(harmonic) * t) / Double(harmonic) }
            vowel.append(Float(0.1 * value))
        }
        let take = Signals.silence(seconds: 0.2, rate: 16000) + vowel + Signals.silence(seconds: 0.2, rate: 16000)
        for assets in [normal, fast] {
            try AssetPacks.small(in: assets)
            try WAVFile.write(
                Signals.mix(take, Signals.noise(seconds: 1.0, rate: 16000, rmsDb: -70)), to: assets.appendingPathComponent("vowel.wav"), rate: 16000)
        }
        try Data(#"{"sampleRate": 16000}"#.utf8).write(to: normal.appendingPathComponent("soundset.json"))
        try Data(#"{"sampleRate": 16000, "tempo": 0.85}"#.utf8).write(to: fast.appendingPathComponent("soundset.json"))
        let before = try await build(normal, folder.url.appendingPathComponent("normal-out")).manifest
        let after = try await build(fast, folder.url.appendingPathComponent("fast-out")).manifest
        // The speech as the trimmer finds it in the clips themselves, not as the manifest says it.
        func speech(_ folder: String, _ clip: Manifest.Clip) throws -> Int {
            let file = try SoundFile.open(reading: folder + "/Sounds/\(clip.file)")
            let region = try Trimmer.findRegion(try file.readAll(), sampleRate: file.info.sampleRate)
            return region.soundEnd - region.soundStart
        }
        for (slow, quick) in zip(before.clips, after.clips) {
            // Within 2%, to the trimmer's resolution (its 5 ms hops, 80 frames, at each end).
            let fastSpeech = Double(try speech(folder.url.appendingPathComponent("fast-out").path, quick))
            let normalSpeech = Double(try speech(folder.url.appendingPathComponent("normal-out").path, slow))
            #expect(abs(fastSpeech - 0.85 * normalSpeech) <= 0.02 * 0.85 * normalSpeech + 2 * 80, "\(slow.name): \(fastSpeech) of \(normalSpeech)")
            // The manifest's bounds are the stretch's: 0.85 of the take's, to the frame.
            let bounds = Double(quick.speech!.end - quick.speech!.start) / Double(slow.speech!.end - slow.speech!.start)
            #expect(abs(bounds - 0.85) < 0.005, "\(slow.name): \(bounds)")
        }
        // The loudness stays as even as without tempo.
        let spread = after.clips.map(\.loudness).max()! - after.clips.map(\.loudness).min()!
        #expect(spread <= 0.1)
        // The vowel's fundamental, by autocorrelation over its middle, within 2% of 150 Hz.
        let samples = try SoundFile.open(reading: folder.url.appendingPathComponent("fast-out/Sounds/vowel.caf").path).readAll()
        let middle = Array(samples[(samples.count / 2 - 2000)..<(samples.count / 2 + 2000)])
        let pitch = Self.fundamental(middle, rate: 16000)
        #expect(abs(pitch - 150) <= 3, "\(pitch) Hz")
        // No click at the edges: the first and last 2 ms step less than the speech does.
        for clip in after.clips {
            let file = try SoundFile.open(reading: folder.url.appendingPathComponent("fast-out/Sounds/\(clip.file)").path).readAll()
            let steps = (1..<file.count).map { abs(file[$0] - file[$0 - 1]) }
            let edge = (steps.prefix(32) + steps.suffix(32)).max()!
            let speech = steps[clip.speech!.start..<(clip.speech!.end - 1)].max()!
            #expect(edge < speech / 4, "\(clip.name): \(edge) at the edges, \(speech) in the speech")
        }
    }

    /// Without fades (trim.fadeMs 0) the clips keep their edges: the room tone at each end is as
    /// loud in the first and last 2.5 ms as in the 2.5 ms next to them, where the default 5 ms fade
    /// starts and ends every clip at exactly 0 and is far quieter there; and the set still reaches
    /// its level (the build once measured clips of zeros).
    @Test func noFadeBuilds() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let faded = try folder.folder("faded")
        let sharp = try folder.folder("sharp")
        try AssetPacks.small(in: faded)
        try AssetPacks.small(in: sharp)
        try Data(#"{"trim": {"fadeMs": 0}}"#.utf8).write(to: sharp.appendingPathComponent("soundset.json"))
        let fadedSet = try await build(faded, folder.url.appendingPathComponent("faded-out")).manifest
        let manifest = try await build(sharp, folder.url.appendingPathComponent("sharp-out")).manifest
        #expect(manifest.clips.allSatisfy { abs($0.loudness - -16) < 0.5 }, "\(manifest.clips.map(\.loudness))")
        func rms(_ samples: ArraySlice<Float>) -> Double { sqrt(samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))) }
        /// The first (or last) 2.5 ms against the 2.5 ms next to them, and the edge sample itself.
        func edge(_ samples: [Float], rate: Int, atEnd: Bool) -> (ratio: Double, sample: Float) {
            let half = rate / 400
            let ordered = atEnd ? Array(samples.reversed()) : samples
            return (rms(ordered[0..<half]) / rms(ordered[half..<(2 * half)]), ordered[0])
        }
        for clip in manifest.clips {
            let kept = try SoundFile.open(reading: folder.url.appendingPathComponent("sharp-out/Sounds/\(clip.file)").path).readAll()
            let fadedClip = try #require(fadedSet.clips.first { $0.name == clip.name })
            let fadedSamples = try SoundFile.open(reading: folder.url.appendingPathComponent("faded-out/Sounds/\(fadedClip.file)").path).readAll()
            #expect(kept.count == fadedSamples.count, "\(clip.name): the fade changes no length")
            for atEnd in [false, true] {
                let sharpEdge = edge(kept, rate: manifest.sampleRate, atEnd: atEnd)
                let fadedEdge = edge(fadedSamples, rate: manifest.sampleRate, atEnd: atEnd)
                #expect(sharpEdge.ratio > 0.6, "\(clip.name) \(atEnd ? "end" : "start"): \(sharpEdge.ratio) without a fade")
                #expect(fadedEdge.ratio < 0.4, "\(clip.name) \(atEnd ? "end" : "start"): \(fadedEdge.ratio) with the fade")
                #expect(fadedEdge.sample == 0, "\(clip.name) \(atEnd ? "end" : "start")")
            }
        }
    }

    /// At tempo 1.0 the library is not called: the set is the same bytes as without the key.
    @Test func tempoOneChangesNothing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let plain = try folder.folder("plain")
        let one = try folder.folder("one")
        try AssetPacks.small(in: plain)
        try AssetPacks.small(in: one)
        try Data(#"{"tempo": 1.0}"#.utf8).write(to: one.appendingPathComponent("soundset.json"))
        _ = try await build(plain, folder.url.appendingPathComponent("plain-out"), cache: false)
        _ = try await build(one, folder.url.appendingPathComponent("one-out"), cache: false)
        let a = snapshot(of: folder.url.appendingPathComponent("plain-out"))
        #expect(a.count == 8)
        #expect(a == snapshot(of: folder.url.appendingPathComponent("one-out")))
    }

    /// The lag of the highest autocorrelation between 80 and 400 Hz, refined by a parabola.
    static func fundamental(_ samples: [Float], rate: Int) -> Double {
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for index in 0..<(samples.count - lag) { sum += Double(samples[index]) * Double(samples[index + lag]) }
            return sum
        }
        let lags = (rate / 400)...(rate / 80)
        let values = lags.map(correlation)
        let best = values.indices.max { values[$0] < values[$1] }!
        var lag = Double(lags.lowerBound + best)
        if best > 0 && best < values.count - 1 {
            let (a, b, c) = (values[best - 1], values[best], values[best + 1])
            lag += 0.5 * (a - c) / (a - 2 * b + c)
        }
        return Double(rate) / lag
    }
}
