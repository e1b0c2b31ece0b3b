import Foundation

/// Joins a plan's clips into one sound file, in the set's own format, in pure Swift: the app can set
/// it as a notification's sound (`Library/Sounds` in the App Group) instead of chaining notifications.
public enum Composer {
    /// Composes `plan` from the clip files in `soundsFolder` (the set's `Sounds/`).
    /// Gaps are digital silence. The result holds exactly the plan's `totalFrames` frames.
    /// - Throws: `ComposeError` when a clip is missing, unreadable, in another format than the
    ///   others, or the result would last 30 s or more.
    public static func compose(_ plan: AnnouncementPlan, soundsFolder: URL) throws(ComposeError) -> Data {
        var clips: [SoundData] = []
        for step in plan.steps {
            let url = soundsFolder.appendingPathComponent(step.file)
            let data: Data
            do { data = try Data(contentsOf: url) } catch { throw .missing(step.file) }
            clips.append(try SoundData(parsing: data, name: step.file))
        }
        return try compose(clips, names: plan.steps.map(\.file), gapFrames: plan.gapFrames).encoded()
    }

    /// Joins `clips` with `gapFrames` of silence between each two.
    /// - Parameter names: the clips' names, for errors.
    public static func compose(_ clips: [SoundData], names: [String], gapFrames: Int) throws(ComposeError) -> SoundData {
        guard let first = clips.first else { throw .empty }
        for (index, clip) in clips.enumerated() where clip.format != first.format {
            throw .formatsDiffer(names[0], names[index])
        }
        let format = first.format
        let frames = clips.reduce(0) { $0 + $1.frames } + max(0, clips.count - 1) * gapFrames
        let seconds = Double(frames) / Double(format.sampleRate)
        guard seconds < NotificationSchedule.maxSeconds else { throw .tooLong(seconds) }
        var samples = Data(capacity: frames * format.bytesPerFrame)
        let gap = Data(Array(repeating: format.silentFrame, count: gapFrames).joined())
        for (index, clip) in clips.enumerated() {
            if index > 0 { samples.append(gap) }
            samples.append(clip.samples)
        }
        return SoundData(format: format, samples: samples)
    }
}

/// Why an announcement could not be composed.
public enum ComposeError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case unreadable(String, String)
    case formatsDiffer(String, String)
    case tooLong(Double)
    case empty

    public var description: String {
        switch self {
        case .missing(let file): "\(file): the clip file is missing (run soundset build)"
        case .unreadable(let file, let reason): "\(file): \(reason)"
        case .formatsDiffer(let a, let b): "\(b): its format differs from \(a)'s; every clip must share one format (rebuild the set)"
        case .tooLong(let seconds): String(format: "the composed sound would last %.2f s; iOS plays the default sound for 30 s or more", seconds)
        case .empty: "the announcement has no clips"
        }
    }
}
