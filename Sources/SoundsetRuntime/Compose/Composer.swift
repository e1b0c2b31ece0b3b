import Foundation

/// Joins a plan's clips into one sound file, in the set's own format, in pure Swift: the app sets
/// it as the push's sound (`Library/Sounds` in the App Group) instead of chaining notifications.
///
/// Every clip file is checked against the manifest before it is used (sha256, frames, rate,
/// encoding), so a stale or damaged clip is named instead of played. The file is built in one
/// buffer, clip by clip: peak memory is the composed file and the samples of its distinct clips.
public enum Composer {
    /// The largest clip file read: 30 s of 16-bit stereo at 384 kHz, and its header.
    public static let maxClipBytes = 30 * 384_000 * 4 + (1 << 16)

    /// Composes `plan` from the clip files in `soundsFolder`, each checked against `manifest`.
    /// - Parameters:
    ///   - leadInFrames: digital silence before the first clip.
    /// - Returns: the file's bytes: exactly `leadInFrames + plan.totalFrames` frames.
    /// - Throws: `ComposeError` naming the clip that is missing, unreadable, stale or in another
    ///   format, or saying why the plan cannot be composed.
    public static func compose(_ plan: AnnouncementPlan, manifest: Manifest, soundsFolder: URL, leadInFrames: Int = 0) throws(ComposeError) -> Data {
        if let problem = manifest.numericProblem { throw .invalid(problem) }
        guard !plan.steps.isEmpty else { throw .empty }
        guard leadInFrames >= 0, plan.gapFrames >= 0 else { throw .invalid("the lead-in and the gap cannot be negative") }
        var expected: [String: Manifest.Clip] = [:]
        for clip in manifest.clips {
            expected[clip.file] = clip
            if let copy = clip.copy { expected[copy] = clip }
        }
        var total = leadInFrames
        for (index, step) in plan.steps.enumerated() {
            guard let clip = expected[step.file] else { throw .notInManifest(step.file) }
            guard step.frames == clip.frames else { throw .stale(clip: clip.name, file: step.file, reason: "the plan says \(step.frames) frames, the manifest \(clip.frames)") }
            total += clip.frames + (index > 0 ? plan.gapFrames : 0)
            try checkLength(total, rate: manifest.sampleRate)
        }

        var out = Data()
        var format: SoundFormat?
        // Each file is read and checked once, however often it plays (99999999.99 says 9 nine times):
        // its samples are kept until the end, a few clips at most beside the composed file.
        var verified: [String: SoundData] = [:]
        for step in plan.steps {
            let sound: SoundData
            if let known = verified[step.file] {
                sound = known
            } else {
                sound = try verifiedClip(step.file, clip: expected[step.file]!, manifest: manifest, in: soundsFolder)
                verified[step.file] = sound
            }
            if let format {
                guard sound.format.samplesMatch(format) else { throw .formatsDiffer(plan.steps[0].file, step.file) }
                out.append(Data(repeating: format.silentByte, count: plan.gapFrames * format.bytesPerFrame))
            } else {
                format = sound.format
                out.reserveCapacity(total * sound.format.bytesPerFrame + 128)
                out.append(SoundData.header(sound.format, frames: total))
                out.append(Data(repeating: sound.format.silentByte, count: leadInFrames * sound.format.bytesPerFrame))
            }
            out.append(sound.samples)
        }
        out.append(SoundData.trailer(format!, frames: total))
        return out
    }

    /// Reads the clip file `file` and checks it against the manifest's entry for `clip`.
    static func verifiedClip(_ file: String, clip: Manifest.Clip, manifest: Manifest, in folder: URL) throws(ComposeError) -> SoundData {
        let data: Data
        do { data = try RegularFile.read(folder.appendingPathComponent(file), maxBytes: maxClipBytes) } catch {
            throw error.reason == "is missing" ? .missing(file) : .unreadable(file, "the clip file \(error.reason)")
        }
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
        case .empty: "the announcement has no clips"
        case .invalid(let reason): "cannot compose: \(reason)"
        }
    }
}
