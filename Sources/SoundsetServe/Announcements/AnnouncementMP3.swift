import Foundation
import SoundsetAudio
import SoundsetRuntime

/// An announcement as MP3, the one way `soundset serve` and `soundset render --out FILE.mp3` make
/// it: the set's clips at a speech rate (`sampleRate`, resampled once), composed there by the
/// runtime's `Composer` on the same timeline as the set's own file, and encoded by libmp3lame
/// (`MP3Encoder`) with `settings`.
///
/// Why 16 kHz (measured on the zh-CN set at 44.1 kHz, 54321.87, 4.26 s, one core, through
/// libsndfile's LAME at `-V 5`): 44.1 kHz took 17.0 ms, 22.05 kHz 10.7 ms, 16 kHz 8.2 ms; the set
/// holds nothing above 11 kHz (-75 dB) and its 8-11 kHz band is 31 dB under the whole, so 16 kHz
/// keeps all of the speech but the tail of the sibilants (wideband telephony's band).
///
/// Why VBR `-V 5` at LAME's algorithm quality 7 (libmp3lame 3.100, the same announcement at 16 kHz):
/// quality 7 halves LAME's time at every mode and bitrate (`-V 5`: 10.1-11.9 ms at the default,
/// 5.0-6.1 ms at 7, of which `lame_init_params` is 0.55 ms); at quality 7 VBR, CBR and ABR cost
/// the same, and `-V 5` decodes at 24.1 dB SNR (the default quality's 23.2 dB, its noise within
/// 1.4 dB in every band) in 42 kbit/s, every band's level within 0.1 dB below 6 kHz. Quality 8
/// and 9 give VBR the same bytes. docs/serve.md has the table.
public enum AnnouncementMP3 {
    /// The rate MP3s are made at, from a set at this rate or above.
    public static let sampleRate = 16_000
    /// LAME's settings: VBR `-V 5`, algorithm quality 7 (`-q 7`).
    public static let settings = MP3Encoder.Settings(bitrate: .variable(quality: 5), algorithmQuality: 7)
    /// The MPEG rates under `sampleRate` (MPEG-2 and 2.5).
    static let lowerRates = [8000, 11025, 12000]

    /// The MP3's rate for a set at `rate`: `sampleRate`, or for a set below it the lowest MPEG rate
    /// at or above the set's (an 8 kHz set stays at 8 kHz).
    public static func rate(forSetRate rate: Int) -> Int {
        rate >= sampleRate ? sampleRate : lowerRates.first { $0 >= rate } ?? sampleRate
    }

    /// `played` of `manifest`'s set as MP3, its clips read from `soundsFolder` and checked against
    /// the manifest (`soundset render --out FILE.mp3`): only the clips it plays are resampled, each
    /// exactly as the server resamples it when it loads the set, so the bytes are the server's.
    /// - Throws: `ComposeError` naming a clip that is missing or stale; `RequestProblem` for a set
    ///   MP3 cannot be made of; `SoundFileError` or `ResamplerError` from the libraries.
    public static func render(_ played: PlayedAnnouncement, manifest: Manifest, soundsFolder: URL) throws -> Data {
        var expected: [String: Manifest.Clip] = [:]
        for clip in manifest.clips {
            expected[clip.file] = clip
            if let copy = clip.copy { expected[copy] = clip }
        }
        var clips: [String: SoundData] = [:]
        for file in Set(played.plan.steps.map(\.file)) {
            guard let clip = expected[file] else { throw ComposeError.notInManifest(file) }
            let data: Data
            do throws(RegularFile.Failure) { data = try RegularFile.read(soundsFolder.appendingPathComponent(file), maxBytes: Composer.maxClipBytes) } catch {
                throw error.kind == .missing ? ComposeError.missing(file) : ComposeError.unreadable(file, "the clip file \(error.reason)")
            }
            clips[file] = try Composer.verifiedClip(data, file: file, clip: clip, manifest: manifest)
        }
        return try SpeechRateClips(manifest: manifest, clips: clips).mp3(played)
    }
}

/// A set's clips at the MP3's speech rate (`AnnouncementMP3.rate(forSetRate:)`), resampled once by
/// libsamplerate (`Resampler`, the build's converter for that rate) and held as 16-bit WAV, with
/// the set's manifest restated at that rate: every clip's frames and speech bounds scaled and
/// rounded, so the `Timeline` places the clips as it does at the set's rate, to a frame.
public struct SpeechRateClips: Sendable {
    /// The rate the clips are held at.
    public let rate: Int
    /// The set's manifest at `rate` (16-bit WAV): what the composer checks the plan against.
    let manifest: Manifest
    /// The clips resampled, by file name.
    let clips: [String: SoundData]
    private let setRate: Int

    /// Resamples `clips` (verified clips of `manifest`'s set, by file name: all of them for the
    /// server, the ones an announcement plays for `render`). Each clip's resampled length is its
    /// frames scaled to `rate` and rounded, whichever clips are resampled with it.
    /// - Throws: `RequestProblem` (500) for a set that is not mono; the libraries' errors.
    init(manifest: Manifest, clips: [String: SoundData]) throws {
        guard manifest.channels == 1 else { throw RequestProblem(500, "MP3 is made of mono sets only", hint: "build the set in mono") }
        setRate = manifest.sampleRate
        let rate = AnnouncementMP3.rate(forSetRate: manifest.sampleRate)
        self.rate = rate
        let format = SoundFormat(container: .wav, encoding: .pcm16, sampleRate: rate, channels: 1, littleEndian: true)
        var speech = manifest
        speech.sampleRate = rate
        speech.container = .wav
        speech.encoding = .pcm16
        let scale = { (frames: Int) in Int((Double(frames) * Double(rate) / Double(manifest.sampleRate)).rounded()) }
        speech.clips = manifest.clips.map { clip in
            var scaled = clip
            scaled.frames = max(1, scale(clip.frames))
            scaled.seconds = Double(scaled.frames) / Double(rate)
            if let bounds = clip.speech {
                let start = min(scale(bounds.start), scaled.frames - 1)
                scaled.speech = .init(start: start, end: max(start + 1, min(scaled.frames, scale(bounds.end))))
            }
            return scaled
        }
        self.manifest = speech
        var resampled: [String: SoundData] = [:]
        let framesByFile = Dictionary(speech.clips.flatMap { clip in [(clip.file, clip.frames)] + (clip.copy.map { [($0, clip.frames)] } ?? []) }) { first, _ in first }
        for (file, sound) in clips {
            guard let frames = framesByFile[file] else { continue }
            var samples = try SoundFile.open(bytes: sound.encoded(), path: file).readAll()
            if rate != manifest.sampleRate {
                samples = try Resampler.resample(samples, from: manifest.sampleRate, to: rate, quality: Resampler.quality(forTargetRate: rate))
            }
            // libsamplerate's length is its own: cut or padded with silence to the manifest's.
            if samples.count > frames { samples.removeLast(samples.count - frames) }
            if samples.count < frames { samples += [Float](repeating: 0, count: frames - samples.count) }
            var bytes = Data(count: frames * 2)
            bytes.withUnsafeMutableBytes { out in
                for (index, sample) in samples.enumerated() {
                    out.storeBytes(of: Int16(clamping: Int((Double(sample) * 32768).rounded())).littleEndian, toByteOffset: index * 2, as: Int16.self)
                }
            }
            resampled[file] = SoundData(format: format, samples: bytes)
        }
        self.clips = resampled
    }

    /// `played` composed at `rate`: the same clips, the same join and crossfades, the lead-in and
    /// the gap scaled and rounded to this rate. A WAV file's bytes.
    func composed(_ played: PlayedAnnouncement) throws(ComposeError) -> Data {
        var byFile: [String: Manifest.Clip] = [:]
        for clip in manifest.clips {
            byFile[clip.file] = clip
            if let copy = clip.copy { byFile[copy] = clip }
        }
        var plan = played.plan
        plan.sampleRate = rate
        plan.gapFrames = scale(plan.gapFrames)
        var timings: [ClipTiming] = []
        for step in plan.steps {
            guard let clip = byFile[step.file] else { throw .notInManifest(step.file) }
            timings.append(ClipTiming(clip, join: plan.join))
        }
        let timeline = Timeline(timings, gapFrames: plan.gapFrames, crossfades: plan.join == .speech, rate: rate)
        for (index, placement) in timeline.placements.enumerated() {
            plan.steps[index].startFrame = placement.start
            plan.steps[index].frames = placement.frames
            plan.steps[index].start = Double(placement.start) / Double(rate)
            plan.steps[index].seconds = Double(placement.frames) / Double(rate)
            if plan.steps[index].speechEnd != nil { plan.steps[index].speechEnd = timings[index].frames - timings[index].tail }
        }
        plan.totalFrames = timeline.totalFrames
        plan.totalSeconds = Double(timeline.totalFrames) / Double(rate)
        // Every clip is here: the folder is never read (a clip not resampled is missing).
        return try Composer.compose(
            plan, manifest: manifest, soundsFolder: URL(fileURLWithPath: "/nonexistent-speech-rate-clips"), leadInFrames: scale(played.leadInFrames),
            verified: clips)
    }

    /// `played` as MP3: composed at `rate`, encoded with `AnnouncementMP3.settings`.
    func mp3(_ played: PlayedAnnouncement) throws -> Data {
        let sound = try SoundData(parsing: try composed(played), name: "announcement.wav")
        let pcm = sound.samples.withUnsafeBytes { bytes in
            (0..<(bytes.count / 2)).map { Float(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))) / 32768 }
        }
        return try MP3Encoder(sampleRate: rate, settings: AnnouncementMP3.settings).encode(pcm)
    }

    private func scale(_ frames: Int) -> Int { Int((Double(frames) * Double(rate) / Double(setRate)).rounded()) }
}
