import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetTestSupport
import Testing

@Suite struct ComposerTests {
    @Test(arguments: [(Container.caf, Encoding.pcm16), (.caf, .ulaw), (.caf, .alaw), (.wav, .pcm16), (.wav, .ulaw), (.wav, .alaw)])
    func composedFileDecodesWithTheExactFrames(container: Container, encoding: Encoding) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try FakeSets.write(in: folder.url, container: container, encoding: encoding)
        let plan = try Planner(manifest: manifest).plan(try Amount("22.22"))
        let data = try Composer.compose(plan, soundsFolder: folder.url.appendingPathComponent("Sounds"))
        let out = folder.url.appendingPathComponent("announcement.\(container.rawValue)")
        try data.write(to: out)
        let file = try SoundFile.open(reading: out.path)
        #expect(file.info.frames == plan.totalFrames)
        #expect(plan.totalFrames == plan.steps.map(\.frames).reduce(0, +) + (plan.steps.count - 1) * 200)
        #expect(file.info.sampleRate == 8000)
        #expect(file.info.container == container)
        #expect(file.info.encoding == encoding)
        // The samples are the clips' samples, with digital silence in the gaps.
        let composed = try file.readAll()
        for step in plan.steps {
            let clip = try SoundFile.open(reading: folder.url.appendingPathComponent("Sounds/\(step.file)").path).readAll()
            #expect(Array(composed[step.startFrame..<step.startFrame + step.frames]) == clip, "\(step.clip)")
        }
        let firstGap = plan.steps[0].frames
        // a-law has no exact zero: its silence code decodes to ±8/32768.
        #expect(composed[firstGap..<firstGap + plan.gapFrames].allSatisfy { abs($0) <= 8.0 / 32768 })
    }

    func sound(_ container: String, _ encoding: String, rate: Int = 8000, frames: Int = 10) -> SoundData {
        let format = SoundFormat(
            container: container, encoding: encoding, sampleRate: rate, channels: 1,
            bytesPerFrame: encoding == "pcm16" ? 2 : 1, littleEndian: container == "wav")
        return SoundData(format: format, samples: Data(repeating: 7, count: frames * format.bytesPerFrame))
    }

    @Test func roundTripsItsOwnEncoding() throws {
        for (container, encoding) in [("caf", "pcm16"), ("caf", "ulaw"), ("wav", "pcm16"), ("wav", "alaw")] {
            let original = sound(container, encoding, frames: 11)
            #expect(try SoundData(parsing: original.encoded(), name: "x") == original)
        }
    }

    @Test func refusesClipsWhoseFormatsDiffer() {
        #expect(throws: ComposeError.formatsDiffer("a.caf", "b.caf")) {
            try Composer.compose([sound("caf", "pcm16"), sound("caf", "pcm16", rate: 16000)], names: ["a.caf", "b.caf"], gapFrames: 0)
        }
        #expect(throws: ComposeError.formatsDiffer("a.caf", "b.caf")) {
            try Composer.compose([sound("caf", "pcm16"), sound("caf", "ulaw")], names: ["a.caf", "b.caf"], gapFrames: 0)
        }
    }

    @Test func refusesThirtySecondsOrMore() {
        let long = sound("wav", "pcm16", rate: 8000, frames: 8000 * 15)
        #expect(throws: ComposeError.tooLong(30)) {
            try Composer.compose([long, long], names: ["a", "b"], gapFrames: 0)
        }
        #expect(ComposeError.tooLong(30).description == "the composed sound would last 30.00 s; iOS plays the default sound for 30 s or more")
    }

    @Test(arguments: ["caf", "wav"])
    func refusesTruncatedData(container: String) throws {
        var bytes = sound(container, "pcm16", frames: 100).encoded()
        bytes.removeLast(50)
        let error = #expect(throws: ComposeError.self) { try SoundData(parsing: bytes, name: "cut") }
        guard case .unreadable(let name, let reason) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(name == "cut")
        #expect(reason.contains("truncated"), "\(reason)")
    }

    @Test func refusesOverflowingHeaderFields() throws {
        // A CAF desc chunk claiming 2^63 - 1 bytes.
        var caf = sound("caf", "pcm16").encoded()
        caf.replaceSubrange(12..<20, with: [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ComposeError.self) { try SoundData(parsing: caf, name: "big.caf") }
        // A WAV data chunk claiming 4 GiB.
        var wav = sound("wav", "pcm16").encoded()
        wav.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ComposeError.self) { try SoundData(parsing: wav, name: "big.wav") }
        // Zero channels, absurd rates.
        var channels = sound("wav", "pcm16").encoded()
        channels.replaceSubrange(22..<24, with: [0, 0])
        #expect(throws: ComposeError.self) { try SoundData(parsing: channels, name: "none.wav") }
        var rate = sound("caf", "pcm16").encoded()
        rate.replaceSubrange(20..<28, with: Array(repeating: 0xFF, count: 8))
        #expect(throws: ComposeError.self) { try SoundData(parsing: rate, name: "nan.caf") }
        #expect(throws: ComposeError.unreadable("junk", "not a CAF or WAV file")) { try SoundData(parsing: Data("junkjunk".utf8), name: "junk") }
        #expect(throws: ComposeError.self) { try SoundData(parsing: Data(), name: "empty") }
    }
}
