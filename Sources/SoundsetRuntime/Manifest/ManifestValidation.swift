import Foundation

/// The manifest comes from disk, where anything can happen to it: before any of it is used, its
/// numbers are held to sane ranges and its names to plain file names, so no manifest can make the
/// runtime read outside the set's folder or overflow a frame count.
extension Manifest {
    /// Sample rates a manifest may state.
    public static let sampleRates = 1000...384_000
    /// Most clips a manifest may list.
    public static let maxClips = 10_000

    /// The first thing wrong with the manifest, in words, or nil when it is sound.
    public var problem: String? {
        if schemaVersion != Self.currentSchemaVersion {
            return "schema version \(schemaVersion) is not one this soundset reads (\(Self.currentSchemaVersion))"
        }
        if let problem = announcement?.problem { return problem }
        if let problem = numericProblem { return problem }
        guard clips.count <= Self.maxClips else { return "\(clips.count) clips, more than \(Self.maxClips)" }
        var names = Set<String>()
        var files: [String: String] = [:]
        let withCopies = Set(clips.filter { $0.copy != nil }.map(\.name))
        for clip in clips {
            let name = ClipNameRules.printable(clip.name)
            if let reason = ClipNameRules.problem(with: clip.name) { return "clip '\(name)' is not a clip name: \(reason)" }
            guard names.insert(clip.name).inserted else { return "clip '\(name)' is listed twice" }
            if clip.name.hasSuffix(CopyRule.suffix), withCopies.contains(String(clip.name.dropLast(CopyRule.suffix.count))) {
                let original = ClipNameRules.printable(String(clip.name.dropLast(CopyRule.suffix.count)))
                return "clip '\(name)' is named like the copy of clip '\(original)'"
            }
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                let shown = ClipNameRules.printable(file)
                guard ClipNameRules.isPlainFileName(file) else {
                    return "clip '\(name)' names the file '\(shown)', which is not a plain file name inside \(SoundSetLayout.soundsName)/"
                }
                guard file.hasSuffix(".\(container.fileExtension)") else {
                    return "clip '\(name)' names the file '\(shown)', which does not end in .\(container.fileExtension) like the set"
                }
                if let other = files.updateValue(clip.name, forKey: file) {
                    return "clips '\(ClipNameRules.printable(other))' and '\(name)' both name the file '\(shown)'"
                }
            }
            guard clip.seconds.isFinite, clip.loudness.isFinite, clip.truePeak.isFinite, clip.gain.isFinite, clip.limiting.isFinite else {
                return "clip '\(name)' has a number that is not finite"
            }
            guard clip.sha256.utf8.count == 64, clip.sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                return "clip '\(name)' has no sha256 of 64 lower-case hex digits"
            }
        }
        return nil
    }

    /// The first number that could overflow or divide by zero in a plan, or nil: the rate, channels,
    /// every clip's frames (at least one, under 30 s) and the gap. The planner checks these too, so
    /// a manifest built in memory cannot trap it either.
    public var numericProblem: String? {
        guard Self.sampleRates.contains(sampleRate) else {
            return "sampleRate \(sampleRate) is out of range (\(Self.sampleRates.lowerBound) to \(Self.sampleRates.upperBound) Hz)"
        }
        guard (1...16).contains(channels) else { return "channels \(channels) is out of range (1 to 16)" }
        let maxFrames = Int(NotificationSchedule.maxSeconds) * sampleRate
        for clip in clips {
            guard (1..<maxFrames).contains(clip.frames) else {
                return "clip '\(ClipNameRules.printable(clip.name))' has \(clip.frames) frames; a clip has at least 1 and lasts under 30 s"
            }
            if let speech = clip.speech, !(0 <= speech.start && speech.start < speech.end && speech.end <= clip.frames) {
                return "clip '\(ClipNameRules.printable(clip.name))' has speech from frame \(speech.start) to \(speech.end), not inside its \(clip.frames) frames"
            }
        }
        if let gap = announcement?.gapMs, !(gap.isFinite && (0...10_000).contains(gap)) {
            return String(format: "announcement.gapMs %g ms is out of range (0 to 10000)", gap)
        }
        return nil
    }
}
