import Foundation

/// Joins a plan's clips into one sound file, in the set's own format, in pure Swift: the app sets
/// it as the push's sound (`Library/Sounds` in the App Group) instead of chaining notifications.
///
/// Every clip file is checked against the manifest before it is used (sha256, frames, rate,
/// encoding), so a stale or damaged clip is named instead of played. The file is built in one
/// buffer, clip by clip: peak memory is the composed file and the samples of its distinct clips.
public enum Composer {
    /// The largest clip file read: 30 s of 16-bit stereo at 48 kHz (the most the build makes), and
    /// its header. A Notification Service Extension has about 24 MB (12 MB on old systems): the
    /// installer holds one clip at a time.
    public static let maxClipBytes = 30 * 48_000 * 4 + (1 << 16)
    /// The most sample bytes a composed file may hold: 4 MiB, 47 s of 44.1 kHz 16-bit mono (22 s
    /// stereo), far over any banner. The composer holds the file and the clips it is made of (which
    /// it plays whole, so they are no larger), and checks this before it reads a clip.
    public static let maxComposedBytes = 4 << 20

    /// Composes `plan` from the clip files in `soundsFolder`, each checked against `manifest`.
    ///
    /// The clips are placed as `Timeline` places them for the plan's join: with `join` file the
    /// clips' bytes follow each other with the gap's silence; with `join` speech the pads overlap
    /// and each join is mixed (decoded, crossfaded, encoded again) over the gap between the two
    /// words' speech, every other frame being a clip's own bytes.
    /// - Parameters:
    ///   - leadInFrames: digital silence before the first clip.
    /// - Returns: the file's bytes: exactly `leadInFrames + plan.totalFrames` frames.
    /// - Throws: `ComposeError` naming the clip that is missing, unreadable, stale or in another
    ///   format, or saying why the plan cannot be composed.
    public static func compose(_ plan: AnnouncementPlan, manifest: Manifest, soundsFolder: URL, leadInFrames: Int = 0) throws(ComposeError) -> Data {
        try compose(plan, manifest: manifest, soundsFolder: soundsFolder, leadInFrames: leadInFrames, verified: [:])
    }

    /// `compose`, with `verified`: clips already read and checked by
    /// `verifiedClip(_:file:clip:manifest:)`, by file name (a server holding a set in memory); the
    /// others are read from `soundsFolder` and checked.
    public static func compose(
        _ plan: AnnouncementPlan, manifest: Manifest, soundsFolder: URL, leadInFrames: Int, verified: [String: SoundData]
    ) throws(ComposeError) -> Data {
        func read(_ file: String) throws(ComposeError) -> Data {
            do throws(RegularFile.Failure) { return try RegularFile.read(soundsFolder.appendingPathComponent(file), maxBytes: maxClipBytes) } catch {
                throw error.kind == .missing ? .missing(file) : .unreadable(file, "the clip file \(error.reason)")
            }
        }
        return try compose(plan, manifest: manifest, leadInFrames: leadInFrames, verified: verified, read: read)
    }

    /// `compose` with each clip file's bytes from `read` (the announcer reads through the group's
    /// folder, never following a link), but for the clips in `verified`.
    static func compose(
        _ plan: AnnouncementPlan, manifest: Manifest, leadInFrames: Int = 0, verified: [String: SoundData] = [:],
        read: (String) throws(ComposeError) -> Data
    ) throws(ComposeError) -> Data {
        if let problem = manifest.numericProblem { throw .invalid(problem) }
        guard !plan.steps.isEmpty else { throw .empty }
        guard leadInFrames >= 0, plan.gapFrames >= 0 else { throw .invalid("the lead-in and the gap cannot be negative") }
        guard plan.sampleRate == manifest.sampleRate else { throw .invalid("the plan is at \(plan.sampleRate) Hz, the set at \(manifest.sampleRate) Hz") }
        var expected: [String: Manifest.Clip] = [:]
        for clip in manifest.clips {
            expected[clip.file] = clip
            if let copy = clip.copy { expected[copy] = clip }
        }
        var timings: [ClipTiming] = []
        var total = leadInFrames
        for (index, step) in plan.steps.enumerated() {
            guard let clip = expected[step.file] else { throw .notInManifest(step.file) }
            guard step.frames == clip.frames else { throw .stale(clip: clip.name, file: step.file, reason: "the plan says \(step.frames) frames, the manifest \(clip.frames)") }
            timings.append(ClipTiming(clip, join: plan.join))
            total += clip.frames + (index > 0 ? plan.gapFrames : 0)  // a bound: overlaps only shorten it
            try checkLength(total, rate: manifest.sampleRate)
        }
        let bytes = (leadInFrames + plan.totalFrames) * manifest.channels * manifest.encoding.bytesPerSample
        guard bytes <= maxComposedBytes else { throw .tooLarge(bytes) }
        // The manifest's own timing, not the plan's numbers, places the clips.
        let timeline = Timeline(timings, gapFrames: plan.gapFrames, crossfades: plan.join == .speech, rate: manifest.sampleRate)
        guard timeline.placements.map(\.start) == plan.steps.map(\.startFrame), timeline.totalFrames == plan.totalFrames else {
            throw .invalid("the plan's start frames are not where the manifest's clips place them (plan it again with this manifest)")
        }

        // Each file is read and checked once, however often it plays (99999999.99 says 9 nine times):
        // its samples are kept until the end, a few clips at most beside the composed file.
        var verified = verified
        var sounds: [SoundData] = []
        for step in plan.steps {
            let sound: SoundData
            if let known = verified[step.file] {
                sound = known
            } else {
                sound = try verifiedClip(try read(step.file), file: step.file, clip: expected[step.file]!, manifest: manifest)
                verified[step.file] = sound
            }
            guard sound.format.samplesMatch(sounds.first?.format ?? sound.format) else { throw .formatsDiffer(plan.steps[0].file, step.file) }
            sounds.append(sound)
        }
        let format = sounds[0].format
        let frames = leadInFrames + timeline.totalFrames
        var out = Data()
        out.reserveCapacity(frames * format.bytesPerFrame + 128)
        out.append(SoundData.header(format, frames: frames))
        out.append(Data(repeating: format.silentByte, count: leadInFrames * format.bytesPerFrame))
        mix(sounds, timeline: timeline, format: format, into: &out)
        out.append(SoundData.trailer(format, frames: frames))
        return out
    }

    /// Appends the samples of `sounds` placed on `timeline` to `out` (the composed file is built in
    /// one buffer, never copied): cut at every edge of a file, an audible range and a crossfade; a
    /// stretch with one clip at full gain is that clip's bytes, a stretch with none is silence, and
    /// only the crossfades are mixed.
    static func mix(_ sounds: [SoundData], timeline: Timeline, format: SoundFormat, into out: inout Data) {
        let placements = timeline.placements
        var cuts: Set<Int> = [0, timeline.totalFrames]
        for placement in placements {
            let audible = placement.audible
            cuts.formUnion([audible.lowerBound, audible.upperBound])
            for fade in [placement.fadeIn, placement.fadeOut].compactMap({ $0 }) { cuts.formUnion([fade.lowerBound, fade.upperBound]) }
        }
        let edges = cuts.filter { $0 >= 0 && $0 <= timeline.totalFrames }.sorted()
        let bytesPerFrame = format.bytesPerFrame
        for (lower, upper) in zip(edges, edges.dropFirst()) where upper > lower {
            let sounding = placements.indices.filter { placements[$0].audible.overlaps(lower..<upper) }
            let whole = sounding.count == 1 && placements[sounding[0]].gain(at: lower) == 1 && placements[sounding[0]].gain(at: upper - 1) == 1
            if sounding.isEmpty {
                out.append(Data(repeating: format.silentByte, count: (upper - lower) * bytesPerFrame))
            } else if whole {
                let samples = sounds[sounding[0]].samples
                let offset = samples.startIndex + (lower - placements[sounding[0]].start) * bytesPerFrame
                out.append(samples[offset..<(offset + (upper - lower) * bytesPerFrame)])
            } else {
                crossfade(sounding.map { (sounds[$0], placements[$0]) }, frames: lower..<upper, format: format, into: &out)
            }
        }
    }

    /// The frames `frames` of the announcement mixed from `clips`, each at its gain, appended to
    /// `out`. Each clip is added in turn into one buffer of sums (the same sums, in the same order,
    /// as adding the clips frame by frame), its gain computed once a frame; the sums are encoded in
    /// place at the end of `out`. (A per-sample closure and a two-byte array per sample made this
    /// 14 % of `soundset serve`'s time for a new amount.)
    private static func crossfade(
        _ clips: [(sound: SoundData, placement: Timeline.Placement)], frames: Range<Int>, format: SoundFormat, into out: inout Data
    ) {
        let channels = format.channels
        var sums = [Double](repeating: 0, count: frames.count * channels)
        sums.withUnsafeMutableBufferPointer { sums in
            for (sound, placement) in clips {
                let lower = max(frames.lowerBound, placement.start)
                let upper = min(frames.upperBound, placement.start + sound.frames)
                guard lower < upper else { continue }
                sound.samples.withUnsafeBytes { bytes in
                    for frame in lower..<upper {
                        let gain = placement.gain(at: frame)
                        let source = (frame - placement.start) * channels
                        let target = (frame - frames.lowerBound) * channels
                        for channel in 0..<channels {
                            sums[target + channel] += gain * Double(SampleCodec.decode(bytes, at: source + channel, format: format))
                        }
                    }
                }
            }
        }
        let start = out.count
        out.count += sums.count * format.encoding.bytesPerSample
        out.withUnsafeMutableBytes { bytes in
            let region = UnsafeMutableRawBufferPointer(rebasing: bytes[start...])
            for (index, sum) in sums.enumerated() { SampleCodec.encode(sum, format: format, into: region, at: index) }
        }
    }

    /// The bytes `data` of the clip file `file`, checked against the manifest's entry for `clip`:
    /// its sha256, frames, rate, encoding, container and channels.
    public static func verifiedClip(_ data: Data, file: String, clip: Manifest.Clip, manifest: Manifest) throws(ComposeError) -> SoundData {
        guard SHA256Digest.hex(data) == clip.sha256 else {
            throw .stale(clip: clip.name, file: file, reason: "its sha256 differs from the manifest's")
        }
        let sound = try SoundData(parsing: data, name: file)
        var differences: [String] = []
        if sound.frames != clip.frames { differences.append("\(sound.frames) frames, the manifest says \(clip.frames)") }
        if sound.format.sampleRate != manifest.sampleRate { differences.append("\(sound.format.sampleRate) Hz, the manifest says \(manifest.sampleRate)") }
        if sound.format.encoding != manifest.encoding { differences.append("\(sound.format.encoding.rawValue), the manifest says \(manifest.encoding.rawValue)") }
        if sound.format.container != manifest.container { differences.append("\(sound.format.container.rawValue), the manifest says \(manifest.container.rawValue)") }
        if sound.format.channels != manifest.channels { differences.append("\(sound.format.channels) channels, the manifest says \(manifest.channels)") }
        guard differences.isEmpty else { throw .stale(clip: clip.name, file: file, reason: differences.joined(separator: "; ")) }
        return sound
    }

    /// Joins `clips` with `gapFrames` of silence between each two.
    /// - Parameter names: the clips' names, for errors; one for each clip.
    public static func compose(_ clips: [SoundData], names: [String], gapFrames: Int) throws(ComposeError) -> SoundData {
        guard let first = clips.first else { throw .empty }
        guard names.count == clips.count else { throw .invalid("\(clips.count) clips but \(names.count) names") }
        guard gapFrames >= 0 else { throw .invalid("the gap cannot be negative") }
        let format = first.format
        var total = 0
        for (index, clip) in clips.enumerated() {
            guard clip.format.samplesMatch(format), clip.format.container == format.container else { throw .formatsDiffer(names[0], names[index]) }
            total += clip.frames + (index > 0 ? gapFrames : 0)
            try checkLength(total, rate: format.sampleRate)
        }
        var samples = Data(capacity: total * format.bytesPerFrame)
        for (index, clip) in clips.enumerated() {
            if index > 0 { samples.append(Data(repeating: format.silentByte, count: gapFrames * format.bytesPerFrame)) }
            samples.append(clip.samples)
        }
        return SoundData(format: format, samples: samples)
    }

    /// Refuses 30 s or more (iOS plays the default sound instead); checked as frames add up, so the
    /// sum can never overflow.
    private static func checkLength(_ frames: Int, rate: Int) throws(ComposeError) {
        let seconds = Double(frames) / Double(max(1, rate))
        guard seconds < NotificationSchedule.maxSeconds else { throw .tooLong(seconds) }
    }
}

/// Why an announcement could not be composed.
public enum ComposeError: Error, Equatable, CustomStringConvertible {
    /// The clip file is not in the sounds folder.
    case missing(String)
    /// The clip file cannot be read or parsed.
    case unreadable(String, String)
    /// The clip file is not what the manifest says: the clip, its file, and how it differs.
    case stale(clip: String, file: String, reason: String)
    /// The plan names a file the manifest does not list.
    case notInManifest(String)
    case formatsDiffer(String, String)
    case tooLong(Double)
    /// The composed file would hold this many sample bytes, more than `Composer.maxComposedBytes`.
    case tooLarge(Int)
    case empty
    /// The request itself is wrong (a negative gap, a manifest out of range ...).
    case invalid(String)

    public var description: String {
        switch self {
        case .missing(let file): "\(file): the clip file is missing (run soundset build, or install the set again)"
        case .unreadable(let file, let reason): "\(file): \(reason)"
        case .stale(let clip, let file, let reason):
            "\(file): clip '\(clip)' is not the file the manifest describes (\(reason)); install the set again or run soundset build"
        case .notInManifest(let file): "\(file): the manifest lists no clip with this file"
        case .formatsDiffer(let a, let b): "\(b): its format differs from \(a)'s; every clip must share one format (rebuild the set)"
        case .tooLong(let seconds): String(format: "the composed sound would last %.2f s; iOS plays the default sound for 30 s or more", seconds)
        case .tooLarge(let bytes):
            String(
                format: "the composed sound would need %.1f MB, more than the %.0f MB an extension can spare (build the set at a lower sample rate, or in mono)",
                Double(bytes) / 1_048_576, Double(Composer.maxComposedBytes) / 1_048_576)
        case .empty: "the announcement has no clips"
        case .invalid(let reason): "cannot compose: \(reason)"
        }
    }
}
