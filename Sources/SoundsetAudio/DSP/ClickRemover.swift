import Foundation

/// Finds and removes isolated clicks: a few samples far above the sound around them (a
/// microphone's tick, a digital glitch, one full-scale sample in the room tone). A click is not
/// speech: left in, it would count as sound to the trimmer, drive the limiter and lower the set.
///
/// A sample is a click's candidate when its magnitude is more than `ratio` times the RMS of the
/// samples around it (`contextMs` each side, leaving out `guardMs` each side, so the click does
/// not hide itself), and above `floor`. Its event is every sample near it louder than
/// `eventRatio` times that RMS (quiet gaps of up to `gapMs` bridged); an event no longer than
/// `maxClickMs` is a click and is replaced by the straight line between the samples on either
/// side of it. A longer one (a plosive's burst, a tone's onset) is sound and is kept.
public enum ClickRemover {
    /// The longest run of samples taken for a click, milliseconds.
    public static let maxClickMs = 0.5
    /// How far above the sound around it a click stands: 24 dB (speech's own peaks stand at most
    /// about 12-14 dB above the RMS of the 10 ms around them).
    public static let ratio: Float = 16
    /// The sound around a sample: this far each side, milliseconds.
    static let contextMs = 5.0
    /// Left out of the context each side, milliseconds.
    static let guardMs = 1.0
    /// Samples below this magnitude are never clicks (-60 dBFS): too quiet to matter.
    static let floor: Float = 0.001
    /// The samples of one event: louder than this many times the sound around it (10 dB).
    static let eventRatio: Float = 3
    /// Quiet samples within one event (its zero crossings), milliseconds.
    static let gapMs = 0.125

    /// One click found and removed.
    public struct Click: Sendable, Equatable, Codable {
        /// First frame of the click.
        public var start: Int
        /// One past its last frame.
        public var end: Int

        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    /// Removes the isolated clicks in mono `samples` at `sampleRate`, in place.
    /// - Returns: the clicks removed, in order.
    @discardableResult
    public static func remove(_ samples: inout [Float], sampleRate: Int) -> [Click] {
        let count = samples.count
        let context = max(4, Int(contextMs / 1000 * Double(sampleRate)))
        let guardSamples = max(2, Int(guardMs / 1000 * Double(sampleRate)))
        let longest = max(1, Int(maxClickMs / 1000 * Double(sampleRate)))
        guard count > 2 * guardSamples + 2 else { return [] }
        // Running sums of squares: the context's energy of any span in O(1).
        var energy = [Double](repeating: 0, count: count + 1)
        samples.withUnsafeBufferPointer { input in
            for index in 0..<count { energy[index + 1] = energy[index] + Double(input[index]) * Double(input[index]) }
        }
        // The RMS of the sound around a candidate, or nil when the sample is no candidate.
        func candidateContext(_ index: Int) -> Float? {
            let magnitude = abs(samples[index])
            guard magnitude > floor else { return nil }
            let beforeEnd = max(0, index - guardSamples)
            let beforeStart = max(0, index - guardSamples - context)
            let afterStart = min(count, index + guardSamples + 1)
            let afterEnd = min(count, index + guardSamples + 1 + context)
            let frames = (beforeEnd - beforeStart) + (afterEnd - afterStart)
            guard frames > 0 else { return nil }
            let sum = (energy[beforeEnd] - energy[beforeStart]) + (energy[afterEnd] - energy[afterStart])
            let rms = Float((max(0, sum) / Double(frames)).squareRoot())
            return magnitude > ratio * rms ? rms : nil
        }
        // Around a candidate, the event is every sample louder than `lower` (a tenth of the way
        // from the sound around it, in dB), with gaps of up to `gap` samples (its zero crossings).
        let gap = max(1, Int(gapMs / 1000 * Double(sampleRate)))
        var clicks: [Click] = []
        var index = 0
        while index < count {
            guard let around = candidateContext(index) else {
                index += 1
                continue
            }
            let lower = eventRatio * around
            var start = index, end = index + 1
            var ended = (left: false, right: false)
            var probe = index - 1, quiet = 0
            while probe >= 0 && index - probe <= longest + gap {
                if abs(samples[probe]) > lower { start = probe; quiet = 0 } else { quiet += 1 }
                if quiet > gap { ended.left = true; break }
                probe -= 1
            }
            if probe < 0 { ended.left = true }
            probe = index + 1
            quiet = 0
            while probe < count && probe - index <= longest + gap {
                if abs(samples[probe]) > lower { end = probe + 1; quiet = 0 } else { quiet += 1 }
                if quiet > gap { ended.right = true; break }
                probe += 1
            }
            if probe >= count { ended.right = true }
            if ended.left && ended.right && end - start <= longest { clicks.append(Click(start: start, end: end)) }
            index = end
        }
        for click in clicks {
            let before = click.start > 0 ? samples[click.start - 1] : (click.end < count ? samples[click.end] : 0)
            let after = click.end < count ? samples[click.end] : before
            let span = Float(click.end - click.start + 1)
            for position in click.start..<click.end {
                let t = Float(position - click.start + 1) / span
                samples[position] = before + (after - before) * t
            }
        }
        return clicks
    }
}
