import Foundation
import SoundsetAudio

/// A recording decoded, mixed to mono, trimmed, resampled and faded, with its loudness measured:
/// everything before the set's level is known.
public struct PreparedClip: Sendable {
    public var summary: ClipSummary
    /// The trimmed, faded clip at the output rate.
    public var samples: [Float]
    /// The true-peak envelope of `samples` (`Limiter.truePeakEnvelope`): found once, scaled by each gain tried.
    public var envelope: TruePeakEnvelope
    /// Counts this clip among those in memory while a `HeldClips` counter is set (every copy shares it).
    private var held = HeldClips.counter.map(HeldClips.Token.init)

    public init(summary: ClipSummary, samples: [Float], envelope: TruePeakEnvelope) {
        self.summary = summary
        self.samples = samples
        self.envelope = envelope
    }

    public var recording: Recording { summary.recording }
    public var measurement: LoudnessMeasurement { summary.measurement }

    /// What its samples and envelope take in memory, about.
    var bytes: Int { samples.count * MemoryLayout<Float>.size + envelope.blockEnds.count * (MemoryLayout<UInt32>.size + MemoryLayout<Float>.size) }

    /// This clip with `envelope` (the same clip's, refined).
    func with(_ envelope: TruePeakEnvelope) -> PreparedClip {
        var clip = self
        clip.envelope = envelope
        return clip
    }
}

/// How many prepared clips (their samples) are in memory at once, at most: a test's measure of the
/// build's memory that does not depend on the machine. Set as a task local around a build; each
/// clip made under it counts from its making until its last copy is gone.
final class HeldClips: @unchecked Sendable {
    // @unchecked: the counts are read and written under `lock`.
    @TaskLocal static var counter: HeldClips?

    private let lock = NSLock()
    private var now = 0
    private var highest = 0

    /// The most clips held at once so far.
    var most: Int { lock.withLock { highest } }

    /// One clip's place in the count, for as long as the clip lives.
    final class Token: Sendable {
        let counter: HeldClips
        init(_ counter: HeldClips) {
            self.counter = counter
            counter.lock.withLock {
                counter.now += 1
                counter.highest = max(counter.highest, counter.now)
            }
        }
        deinit { counter.lock.withLock { counter.now -= 1 } }
    }
}
