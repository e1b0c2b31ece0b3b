import Foundation

/// A clip's length and where its speech lies in it, as a join sees it: with `join` file the whole
/// file counts as speech, so one formula places the clips in both modes.
public struct ClipTiming: Sendable, Equatable, Hashable {
    /// Frames in the file.
    public var frames: Int
    /// Frames before the speech (the leading pad).
    public var lead: Int
    /// Frames after the speech (the trailing pad).
    public var tail: Int

    public init(frames: Int, lead: Int = 0, tail: Int = 0) {
        self.frames = frames
        self.lead = lead
        self.tail = tail
    }

    /// `clip` joined as `join` says: its speech bounds (the whole file when the manifest has none)
    /// for `speech`, the whole file for `file`.
    public init(_ clip: Manifest.Clip, join: AnnouncementSettings.Join) {
        frames = clip.frames
        guard join == .speech, let speech = clip.speech else {
            lead = 0
            tail = 0
            return
        }
        lead = speech.start
        tail = clip.frames - speech.end
    }

    /// Frames of speech: what a clip adds to an announcement besides the gap.
    public var speech: Int { frames - lead - tail }
}

/// Where each clip of an announcement goes. The planner, the composer, the chain's delays and the
/// check's worst-case search all place clips with it, so none can disagree:
///
/// - each clip's speech starts `gapFrames` after the previous clip's speech ends, so a clip's file
///   starts `previous.speech end + gap - lead` frames in, overlapping the previous file by its pads
///   (with `join` file the whole file is speech, and the files follow each other with the gap);
/// - an announcement lasts `Σ (speech + gap) - gap + first.lead + last.tail` frames;
/// - with `join` speech, each join is an equal-power crossfade over the gap between the two
///   words' speech, at least `minimumCrossfadeSeconds` long, centred on it: before it only the
///   earlier clip sounds, after it only the later one.
public struct Timeline: Sendable, Equatable {
    /// The shortest crossfade, seconds: a join with no gap still turns over without a step.
    public static let minimumCrossfadeSeconds = 0.005

    /// One clip's place.
    public struct Placement: Sendable, Equatable {
        /// Where its file starts, frames from the start of the announcement (before the first
        /// clip's start only when a clip's lead is longer than the speech before it).
        public var start: Int
        public var frames: Int
        /// The crossfade in from the previous clip, when there is one.
        public var fadeIn: Range<Int>?
        /// The crossfade out to the next clip, when there is one.
        public var fadeOut: Range<Int>?

        /// The frames of the announcement where this clip sounds: its file, less what lies before
        /// its crossfade in and after its crossfade out.
        public var audible: Range<Int> {
            let lower = max(start, fadeIn?.lowerBound ?? start)
            let upper = min(start + frames, fadeOut?.upperBound ?? start + frames)
            return lower..<max(lower, upper)
        }

        /// The clip's gain at frame `frame` of the announcement: 1 outside its crossfades, equal-power
        /// (sin in, cos out) inside them, 0 beyond them.
        public func gain(at frame: Int) -> Double {
            var gain = 1.0
            if let fade = fadeIn {
                gain *= frame < fade.lowerBound ? 0 : frame >= fade.upperBound ? 1 : sin(Double.pi / 2 * Self.position(frame, in: fade))
            }
            if let fade = fadeOut {
                gain *= frame < fade.lowerBound ? 1 : frame >= fade.upperBound ? 0 : cos(Double.pi / 2 * Self.position(frame, in: fade))
            }
            return gain
        }

        /// Where `frame` lies in `range`, 0 to 1, measured at the frame's middle.
        private static func position(_ frame: Int, in range: Range<Int>) -> Double {
            (Double(frame - range.lowerBound) + 0.5) / Double(range.count)
        }
    }

    public var placements: [Placement]
    /// The end of the last clip's file: the announcement's length.
    public var totalFrames: Int

    /// Places `clips` in order.
    /// - Parameters:
    ///   - crossfades: whether joins crossfade (`join` speech); without, files only follow each other.
    ///   - rate: frames per second, for the shortest crossfade.
    public init(_ clips: [ClipTiming], gapFrames: Int, crossfades: Bool, rate: Int) {
        let minimum = max(1, Int((Self.minimumCrossfadeSeconds * Double(rate)).rounded()))
        var placements: [Placement] = []
        var position = 0
        for (index, clip) in clips.enumerated() {
            if index > 0 {
                let previous = clips[index - 1]
                let speechEnd = position + previous.frames - previous.tail
                position = speechEnd + gapFrames - clip.lead
                if crossfades {
                    // Centred on the gap between the two words' speech, and at least the minimum.
                    let length = max(gapFrames, minimum)
                    let lower = speechEnd + (gapFrames - length) / 2
                    let fade = lower..<(lower + length)
                    placements[index - 1].fadeOut = fade
                    placements.append(Placement(start: position, frames: clip.frames, fadeIn: fade, fadeOut: nil))
                    continue
                }
            }
            placements.append(Placement(start: position, frames: clip.frames, fadeIn: nil, fadeOut: nil))
        }
        self.placements = placements
        totalFrames = placements.last.map { $0.start + $0.frames } ?? 0
    }

    /// The length of an announcement of `clips`, without placing them: `Σ (speech + gap) - gap +
    /// first.lead + last.tail`, the sum the worst-case search maximises.
    public static func length(of clips: [ClipTiming], gapFrames: Int) -> Int {
        guard let first = clips.first, let last = clips.last else { return 0 }
        return clips.reduce(0) { $0 + $1.speech + gapFrames } - gapFrames + first.lead + last.tail
    }
}
