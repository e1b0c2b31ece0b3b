/// The clips that announce one amount, in order, with their exact timing from the manifest.
public struct AnnouncementPlan: Codable, Sendable, Equatable {
    /// One clip of the announcement.
    public struct Step: Codable, Sendable, Equatable {
        /// The clip name after the Copy rule (e.g. `2Copy`).
        public var clip: String
        /// The file in `Sounds/` that plays it.
        public var file: String
        /// When its file starts, seconds from the start of the announcement: with `join` speech,
        /// inside the previous clip's trailing pad.
        @PrintedTime public var start: Double
        /// How long it lasts, seconds (its frames / the sample rate).
        @PrintedTime public var seconds: Double
        /// Where it starts, in frames.
        public var startFrame: Int
        /// How long it lasts, in frames.
        public var frames: Int
        /// With `join` speech, where the clip's speech ends, frames into its file; nil with `join`
        /// file. A chain starts the next clip no earlier (`NotificationSchedule`).
        public var speechEnd: Int?
    }

    /// The amount, with two decimals.
    public var amount: String
    /// The locale it was read in.
    public var locale: SpeechLocale
    /// Clip names before the Copy rule.
    public var tokens: [String]
    /// Clip names after the Copy rule.
    public var clips: [String]
    /// The clips with their timing.
    public var steps: [Step]
    /// How the clips join: by their speech, or as whole files (`Timeline`).
    public var join: AnnouncementSettings.Join
    /// Silence between two words' speech (`join` speech) or two files (`join` file), frames.
    public var gapFrames: Int
    /// Frames per second of every clip.
    public var sampleRate: Int
    /// Length of the whole announcement, frames: the end of the last clip's file.
    public var totalFrames: Int
    /// Length of the whole announcement, seconds.
    @PrintedTime public var totalSeconds: Double
}

/// Why a plan could not be made.
public enum PlanError: Error, Equatable, CustomStringConvertible {
    /// The sound set lacks these clips or copies (in order of first use).
    case missingClips([String])
    /// The gap is negative or longer than 10 s.
    case badGap(Double)
    /// The manifest holds a number that no plan can be made with (see `Manifest.numericProblem`).
    case invalidManifest(String)

    public var description: String {
        switch self {
        case .missingClips(let names): Self.missing(names, build: "soundset build")
        case .badGap(let gap): "the gap \(gap) ms is out of range (0 to 10000)"
        case .invalidManifest(let reason): "the manifest cannot be planned with: \(reason)"
        }
    }
}

extension PlanError {
    /// What the set lacks, and the fix, with `build` the command that builds it: a clip is recorded;
    /// a copy (`<name>Copy`, for a clip that follows itself) is asked for in `copies`.
    public static func missing(_ names: [String], build: String) -> String {
        let copies = names.filter { $0.count > 4 && $0.hasSuffix("Copy") }
        let clips = names.filter { !copies.contains($0) }
        var parts: [String] = []
        if !clips.isEmpty {
            parts.append("the sound set has no clip for \(clips.joined(separator: ", ")) (record \(clips.count == 1 ? "it" : "them") and run \(build))")
        }
        if !copies.isEmpty {
            let bases = copies.map { "\"\($0.dropLast(4))\"" }.joined(separator: ", ")
            parts.append(
                "the sound set has no \(copies.joined(separator: ", ")) to play \(copies.count == 1 ? "its clip" : "those clips") twice in a row (add \(bases) to copies in soundset.json and run \(build))"
            )
        }
        return parts.joined(separator: "; ")
    }
}

/// Plans announcements from a built sound set's manifest.
public struct Planner: Sendable {
    /// The manifest of the sound set.
    public let manifest: Manifest
    private let clips: [String: (file: String, clip: Manifest.Clip)]

    public init(manifest: Manifest) {
        self.manifest = manifest
        var clips: [String: (file: String, clip: Manifest.Clip)] = [:]
        for clip in manifest.clips {
            clips[clip.name] = (clip.file, clip)
            if let copy = clip.copy { clips[clip.name + CopyRule.suffix] = (copy, clip) }
        }
        self.clips = clips
    }

    /// Plans the announcement of `amount`.
    /// - Parameters:
    ///   - locale: defaults to the manifest's locale.
    ///   - reading: defaults to the manifest's reading options.
    ///   - announcement: prefix, suffix and gap; defaults to the manifest's.
    /// - Throws: `PlanError.missingClips` listing every clip or copy the set lacks.
    public func plan(
        _ amount: Amount, locale: SpeechLocale? = nil, reading: ReadingOptions? = nil, announcement: AnnouncementSettings? = nil
    ) throws(PlanError) -> AnnouncementPlan {
        if let problem = manifest.numericProblem { throw .invalidManifest(problem) }
        let chosen = locale ?? manifest.locale
        let settings = announcement ?? manifest.announcement ?? AnnouncementSettings()
        guard settings.gapMs >= 0 && settings.gapMs <= 10_000 else { throw .badGap(settings.gapMs) }
        let reading = chosen.read(amount, options: reading ?? manifest.reading ?? ReadingOptions(), variants: variants)
        let tokens = [settings.prefix].compactMap { $0 } + reading + [settings.suffix].compactMap { $0 }
        let names = CopyRule.apply(tokens)
        var missing: [String] = []
        for name in names where clips[name] == nil && !missing.contains(name) { missing.append(name) }
        guard missing.isEmpty else { throw .missingClips(missing) }

        let rate = manifest.sampleRate
        let gapFrames = Int((settings.gapMs * Double(rate) / 1000).rounded())
        let chosenClips = names.map { clips[$0]! }
        let timeline = Timeline(
            chosenClips.map { ClipTiming($0.clip, join: settings.join) }, gapFrames: gapFrames, crossfades: settings.join == .speech, rate: rate)
        let steps = zip(names, zip(chosenClips, timeline.placements)).map { name, chosen in
            let (clip, placement) = chosen
            let timing = ClipTiming(clip.clip, join: settings.join)
            return AnnouncementPlan.Step(
                clip: name, file: clip.file, start: Double(placement.start) / Double(rate), seconds: Double(placement.frames) / Double(rate),
                startFrame: placement.start, frames: placement.frames, speechEnd: settings.join == .speech ? timing.frames - timing.tail : nil)
        }
        return AnnouncementPlan(
            amount: amount.description, locale: chosen, tokens: tokens, clips: names, steps: steps, join: settings.join,
            gapFrames: gapFrames, sampleRate: rate, totalFrames: timeline.totalFrames, totalSeconds: Double(timeline.totalFrames) / Double(rate))
    }

    /// The tone variants of 一 the set has (`1_yi2`, `1_yi4`): the reading uses those it finds.
    public var variants: Set<String> { Set(ChineseReading.toneVariants.filter { clips[$0] != nil }) }
}
