import Foundation
import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

@Suite struct ComposerTests {
    static let formats: [(Container, Encoding)] = Container.allCases.flatMap { container in Encoding.allCases.map { (container, $0) } }

    @Test(arguments: formats)
    func composedFileHoldsTheClipsWithExactFrames(container: Container, encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try FakeSets.write(in: folder.url, container: container, encoding: encoding)
        let plan = try Planner(manifest: manifest).plan(try Amount("22.22"))
        let sounds = folder.url.appendingPathComponent("Sounds")
        let data = try Composer.compose(plan, manifest: manifest, soundsFolder: sounds, leadInFrames: 40)
        let composed = try SoundData(parsing: data, name: "composed")
        #expect(composed.frames == 40 + plan.totalFrames)
        #expect(plan.totalFrames == plan.steps.map(\.frames).reduce(0, +) + (plan.steps.count - 1) * 200)
        #expect(composed.format.sampleRate == 8000)
        #expect(composed.format.container == container)
        #expect(composed.format.encoding == encoding)
        // The samples are the clips' bytes, with the encoding's digital silence in the lead-in and the gaps.
        let bytes = encoding.bytesPerSample
        let silence: UInt8 = encoding == .ulaw ? 0xFF : encoding == .alaw ? 0xD5 : 0
        #expect(composed.samples.prefix(40 * bytes).allSatisfy { $0 == silence })
        for step in plan.steps {
            let clip = try SoundData(parsing: Data(contentsOf: sounds.appendingPathComponent(step.file)), name: step.file)
            let from = composed.samples.startIndex + (40 + step.startFrame) * bytes
            #expect(composed.samples[from..<from + step.frames * bytes] == clip.samples, "\(step.clip)")
        }
        let gap = composed.samples.startIndex + (40 + plan.steps[0].frames) * bytes
        #expect(composed.samples[gap..<gap + plan.gapFrames * bytes].allSatisfy { $0 == silence })
    }

    func sound(_ container: Container, _ encoding: Encoding, rate: Int = 8000, frames: Int = 10) -> SoundData {
        let format = SoundFormat(container: container, encoding: encoding, sampleRate: rate)
        return SoundData(format: format, samples: FakeSets.samples(index: 3, frames: frames, encoding: encoding, littleEndian: format.littleEndian))
    }

    @Test(arguments: formats)
    func roundTripsItsOwnEncoding(container: Container, encoding: Encoding) throws {
        for frames in [1, 11, 12] {
            let original = sound(container, encoding, rate: 44100, frames: frames)
            let bytes = original.encoded()
            #expect(try SoundData(parsing: bytes, name: "x") == original)
            // Chunks of odd size are padded, and the pad is not a sample.
            #expect(bytes.count % 2 == 0 || container == .caf)
        }
    }

    @Test func readsAIFFRatesThatAreNotPowersOfTwo() throws {
        for rate in [8000, 11025, 22050, 44100, 48000, 96000] {
            let original = sound(.aiff, .pcm16, rate: rate)
            #expect(try SoundData(parsing: original.encoded(), name: "x").format.sampleRate == rate)
        }
    }

    @Test func refusesClipsWhoseFormatsDiffer() {
        #expect(throws: ComposeError.formatsDiffer("a.caf", "b.caf")) {
            try Composer.compose([sound(.caf, .pcm16), sound(.caf, .pcm16, rate: 16000)], names: ["a.caf", "b.caf"], gapFrames: 0)
        }
        #expect(throws: ComposeError.formatsDiffer("a.caf", "b.caf")) {
            try Composer.compose([sound(.caf, .pcm16), sound(.caf, .ulaw)], names: ["a.caf", "b.caf"], gapFrames: 0)
        }
    }

    @Test func refusesThirtySecondsOrMore() {
        let long = sound(.wav, .pcm16, rate: 8000, frames: 8000 * 15)
        #expect(throws: ComposeError.tooLong(30)) {
            try Composer.compose([long, long], names: ["a", "b"], gapFrames: 0)
        }
        #expect(ComposeError.tooLong(30).description == "the composed sound would last 30.00 s; iOS plays the default sound for 30 s or more")
    }

    @Test func throwsInsteadOfTrappingOnBadArguments() {
        let clip = sound(.caf, .pcm16)
        #expect(throws: ComposeError.invalid("the gap cannot be negative")) { try Composer.compose([clip, clip], names: ["a", "b"], gapFrames: -5) }
        #expect(throws: ComposeError.invalid("2 clips but 1 names")) { try Composer.compose([clip, clip], names: ["a"], gapFrames: 0) }
        #expect(throws: ComposeError.tooLong(Double(Int.max / 2 + 10) / 8000)) {
            try Composer.compose([clip, clip], names: ["a", "b"], gapFrames: Int.max / 2)
        }
    }

    @Test(arguments: Container.allCases)
    func refusesTruncatedData(container: Container) throws {
        var bytes = sound(container, .pcm16, frames: 100).encoded()
        bytes.removeLast(50)
        let error = #expect(throws: ComposeError.self) { try SoundData(parsing: bytes, name: "cut") }
        guard case .unreadable(let name, let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(name == "cut")
        #expect(reason.contains("truncated"), "\(reason)")
    }

    @Test func refusesOverflowingHeaderFields() throws {
        // A CAF desc chunk claiming 2^63 - 1 bytes.
        var caf = sound(.caf, .pcm16).encoded()
        caf.replaceSubrange(12..<20, with: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ComposeError.self) { try SoundData(parsing: caf, name: "big.caf") }
        // A WAV data chunk claiming 4 GiB.
        var wav = sound(.wav, .pcm16).encoded()
        wav.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ComposeError.self) { try SoundData(parsing: wav, name: "big.wav") }
        // An AIFF COMM chunk claiming 2^32 - 1 frames.
        var aiff = sound(.aiff, .pcm16).encoded()
        aiff.replaceSubrange(22..<26, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ComposeError.unreadable("big.aiff", "the COMM chunk claims 4294967295 frames but the SSND chunk holds 20 bytes (truncated)")) {
            try SoundData(parsing: aiff, name: "big.aiff")
        }
        // Zero channels, absurd rates.
        var channels = sound(.wav, .pcm16).encoded()
        channels.replaceSubrange(22..<24, with: [0, 0])
        #expect(throws: ComposeError.self) { try SoundData(parsing: channels, name: "none.wav") }
        var rate = sound(.caf, .pcm16).encoded()
        rate.replaceSubrange(20..<28, with: Array(repeating: 0xFF, count: 8))
        #expect(throws: ComposeError.self) { try SoundData(parsing: rate, name: "nan.caf") }
        var aiffRate = sound(.aiff, .pcm16).encoded()
        aiffRate.replaceSubrange(28..<30, with: [0x7F, 0xFF])
        #expect(throws: ComposeError.unreadable("inf.aiff", "the sample rate is not a positive whole number")) { try SoundData(parsing: aiffRate, name: "inf.aiff") }
        #expect(throws: ComposeError.unreadable("junk", "not a CAF, WAV or AIFF file")) { try SoundData(parsing: Data("junkjunk".utf8), name: "junk") }
        #expect(throws: ComposeError.self) { try SoundData(parsing: Data(), name: "empty") }
    }

    @Test func namesAClipWhoseFileIsNotWhatTheManifestSays() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var manifest = try FakeSets.write(in: folder.url)
        let sounds = folder.url.appendingPathComponent("Sounds")
        let plan = try Planner(manifest: manifest).plan(try Amount("2"))

        // Bytes changed: the sha256 no longer matches.
        var bytes = try Data(contentsOf: sounds.appendingPathComponent("2.caf"))
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: sounds.appendingPathComponent("2.caf"))
        #expect(throws: ComposeError.stale(clip: "2", file: "2.caf", reason: "its sha256 differs from the manifest's")) {
            try Composer.compose(plan, manifest: manifest, soundsFolder: sounds)
        }
        #expect(
            ComposeError.stale(clip: "2", file: "2.caf", reason: "its sha256 differs from the manifest's").description
                == "2.caf: clip '2' is not the file the manifest describes (its sha256 differs from the manifest's); install the set again or run soundset build")

        // The manifest's frames edited: the file's own header disagrees.
        manifest = try FakeSets.write(in: folder.url)
        let index = manifest.clips.firstIndex { $0.name == "2" }!
        manifest.clips[index].frames += 3
        let stalePlan = try Planner(manifest: manifest).plan(try Amount("2"))
        #expect(throws: ComposeError.stale(clip: "2", file: "2.caf", reason: "274 frames, the manifest says 277")) {
            try Composer.compose(stalePlan, manifest: manifest, soundsFolder: sounds)
        }
        // A plan made from another manifest.
        #expect(throws: ComposeError.stale(clip: "2", file: "2.caf", reason: "the plan says 274 frames, the manifest 277")) {
            try Composer.compose(plan, manifest: manifest, soundsFolder: sounds)
        }

        // A missing file, and a FIFO where a clip should be (read without blocking, and refused).
        try FileManager.default.removeItem(at: sounds.appendingPathComponent("2.caf"))
        #expect(throws: ComposeError.missing("2.caf")) { try Composer.compose(stalePlan, manifest: manifest, soundsFolder: sounds) }
        #expect(mkfifo(sounds.appendingPathComponent("2.caf").path, 0o644) == 0)
        #expect(throws: ComposeError.unreadable("2.caf", "the clip file is not a regular file")) {
            try Composer.compose(stalePlan, manifest: manifest, soundsFolder: sounds)
        }
    }

    /// An extension has about 24 MB: a composed file that would hold more than 4 MiB of samples is
    /// refused from the manifest's frames, before any clip is read; a clip file is read only up to
    /// the largest the build makes (30 s of 48 kHz 16-bit stereo).
    @Test func refusesWhatAnExtensionCannotHoldBeforeReadingAClip() throws {
        var manifest = FakeSets.manifest()
        manifest.sampleRate = 48000
        manifest.channels = 2
        for index in manifest.clips.indices {
            manifest.clips[index].frames = 120_000
            manifest.clips[index].seconds = 2.5
        }
        let plan = try Planner(manifest: manifest).plan(try Amount("12345"))
        #expect(plan.steps.count == 11)
        #expect(Double(plan.totalFrames) / 48000 < 30)
        #expect(throws: ComposeError.tooLarge(plan.totalFrames * 4)) {
            try Composer.compose(plan, manifest: manifest, soundsFolder: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(
            ComposeError.tooLarge(5_280_000).description
                == "the composed sound would need 5.0 MB, more than the 4 MB an extension can spare (build the set at a lower sample rate, or in mono)")
        #expect(Composer.maxComposedBytes == 4 << 20)
        #expect(Composer.maxClipBytes == 30 * 48000 * 2 * 2 + 65536)
    }
}
