import Foundation
import SoundsetAudio

/// What preparing a recording found out about it, beside the prepared clip: everything the set's
/// findings and the report need from the source, made once where the audio is decoded and kept
/// with the clip in the memo, so an unchanged take costs nothing.
public struct ClipAnalysis: Codable, Sendable, Equatable {
    /// The recording's rate, Hz.
    public var sourceRate: Int
    /// The recording's frames.
    public var sourceFrames: Int
    /// What a designer should know of this take alone (clipping, noise, speech at the edges, a
    /// low rate); what only the whole set shows is the findings stage's (`FindingsStage`).
    public var notes: [ClipNote]
    /// The recording's shape, for drawing.
    public var envelope: ClipEnvelope
    /// The trimmed take, small: what tells two names of the same recording (nil until the take
    /// is resampled: `ClipPreparer.prepare` sets it).
    public var fingerprint: TakeFingerprint?

    package init(sourceRate: Int, sourceFrames: Int, notes: [ClipNote], envelope: ClipEnvelope, fingerprint: TakeFingerprint? = nil) {
        self.sourceRate = sourceRate
        self.sourceFrames = sourceFrames
        self.notes = notes
        self.envelope = envelope
        self.fingerprint = fingerprint
    }

    /// The recording's length, seconds.
    public var sourceSeconds: Double { sourceRate > 0 ? Double(sourceFrames) / Double(sourceRate) : 0 }

    /// A take whose noise floor is above this is noted, dBFS.
    static let noisyFloorDb = -50.0
    /// A take below this rate that is upsampled is noted, Hz.
    static let lowRate = 16000

    /// The analysis of a take of `sourceFrames` with `clipped` samples at full scale and clicks
    /// removed from what is kept at `clicksAt` seconds, drawn as `envelope`, `region` where the
    /// trimmer found the word, for a set at `outputRate` keeping `padMs` of room tone and bridging
    /// pauses up to `maxGapMs`.
    package static func of(
        clipped: Int, clicksAt: [Double] = [], envelope: ClipEnvelope, sourceFrames: Int, sourceRate: Int, region: TrimRegion, outputRate: Int,
        padMs: Double, maxGapMs: Double
    ) -> ClipAnalysis {
        var notes: [ClipNote] = []
        if clipped > 0 { notes.append(.clipped(samples: clipped)) }
        notes += clicksAt.map { .removedClick(at: $0) }
        if region.noiseFloorDb > noisyFloorDb { notes.append(.noisyFloor(db: region.noiseFloorDb)) }
        let pad = padMs / 1000 * Double(sourceRate)
        if Double(region.soundStart) < pad { notes.append(.speechAtStart) }
        if Double(sourceFrames - region.soundEnd) < pad { notes.append(.speechAtEnd) }
        let rate = Double(max(1, sourceRate))
        notes += region.dropped.map { .droppedSound(at: Double($0.lowerBound) / rate, seconds: Double($0.count) / rate, maxGapMs: maxGapMs) }
        if sourceRate < lowRate && outputRate > sourceRate { notes.append(.upsampled(from: sourceRate, to: outputRate)) }
        return ClipAnalysis(sourceRate: sourceRate, sourceFrames: sourceFrames, notes: notes, envelope: envelope, fingerprint: nil)
    }
}

/// One thing a designer should know about a clip, as a value: what is said of it is worded in one
/// place (`message`), and a test or a rule can ask which it is.
public enum ClipNote: Codable, Sendable, Equatable {
    // Of the take alone, found as it is prepared.
    /// Samples at full scale in the recording.
    case clipped(samples: Int)
    /// The take's noise floor, above -50 dBFS.
    case noisyFloor(db: Double)
    /// Speech within the pad of the recording's first frame.
    case speechAtStart
    /// Speech within the pad of the recording's last frame.
    case speechAtEnd
    /// A second sound as loud as speech (a second word) beyond the kept word's pauses, left out:
    /// where it starts in the recording and how long it is, seconds.
    case droppedSound(at: Double, seconds: Double, maxGapMs: Double)
    /// A take under 16 kHz, made into a set at a higher rate.
    case upsampled(from: Int, to: Int)
    /// An isolated click in what is kept, at this time of the recording (seconds), replaced by the
    /// line between the samples on either side.
    case removedClick(at: Double)
    // Of the take among the others, found by the findings stage.
    /// A word over twice the median word's length.
    case longerThanMedian(seconds: Double, median: Double)
    /// A take recorded more than 10 LU from the median take.
    case farFromOthers(lu: Double, quieter: Bool)
    /// The same recording as these others (file names in the assets folder, this clip's first):
    /// noted on the first of them.
    case sameRecording(files: [String])
    // Of the clip's file.
    /// A file whose true peak the encoding left over the ceiling.
    case overCeiling(truePeak: Double, encoding: String, ceiling: Double)

    /// What is said of it, after the file it is about.
    public var message: String {
        switch self {
        case .clipped(let samples): "\(samples) samples are clipped at full scale (record it again at a lower level)"
        case .noisyFloor(let db):
            String(format: "noise floor %.0f dBFS, above -50 dBFS: record in a quieter room or closer to the microphone", db)
        case .speechAtStart: "speech starts at the very beginning of the recording: leave room tone before the word"
        case .speechAtEnd: "speech runs to the very end of the recording: leave room tone after the word"
        case .upsampled(let from, let to): "recorded at \(from) Hz and upsampled to \(to) Hz: record at 44.1 kHz or more"
        case .removedClick(let seconds): String(format: "removed a click at %.3f s", seconds)
        case .droppedSound(let at, let seconds, let maxGapMs):
            String(
                format:
                    "a second word at %.2f s (%.2f s long) was left out, only the loudest is kept: record one word per take, or cut the take;"
                    + " if it is one phrase, raise trim.maxGapMs (now %g ms) above its pause",
                at, seconds, maxGapMs)
        case .sameRecording(let files): Self.sameRecording(files)
        case .longerThanMedian(let seconds, let median): String(format: "%.2f s, over twice the median word (%.2f s): is it one word?", seconds, median)
        case .farFromOthers(let lu, let quieter):
            String(format: "recorded %.0f LU %@ the other takes: check the microphone gain", lu, quieter ? "quieter than" : "louder than")
        case .overCeiling(let truePeak, let encoding, let ceiling):
            String(
                format: "its true peak is %.2f dBTP after encoding as %@, over the %.1f dBTP ceiling (lower loudness.truePeak or use pcm16)", truePeak,
                encoding, ceiling)
        }
    }

    /// The sentence that names `paths` (of recordings) as one recording, with its fix.
    public static func sameRecording(_ paths: [String]) -> String {
        "\(paths.joined(separator: " and ")) are the same recording (record each word on its own, unless one stands in for another)"
    }

    /// Whether it is said of the clip's file (`Output/Sounds/…`) rather than of its recording.
    var isAboutTheFile: Bool {
        if case .overCeiling = self { true } else { false }
    }
}

/// A recording's shape for drawing: for each column, the lowest and highest sample, each in 8
/// bits (-127...127 for -1...1); columns by the recording's length (`columnsPerSecond`, within
/// `columnRange`), so a clip's drawing is the same in every set.
public struct ClipEnvelope: Codable, Sendable, Equatable {
    /// Lowest and highest of each column, interleaved.
    public var values: [Int8]

    static let columnsPerSecond = 120.0
    static let columnRange = 16...360

    public var columns: Int { values.count / 2 }

    /// The envelope of mono `samples` at `rate`.
    public init(_ samples: [Float], rate: Int) {
        let seconds = rate > 0 ? Double(samples.count) / Double(rate) : 0
        let wanted = min(max(Int((seconds * Self.columnsPerSecond).rounded()), Self.columnRange.lowerBound), Self.columnRange.upperBound)
        let count = max(1, min(wanted, samples.count))
        var values = [Int8](repeating: 0, count: 2 * count)
        samples.withUnsafeBufferPointer { samples in
            guard !samples.isEmpty else { return }
            for column in 0..<count {
                let start = column * samples.count / count
                let end = max(start + 1, (column + 1) * samples.count / count)
                var low: Float = 0, high: Float = 0
                for index in start..<end {
                    low = min(low, samples[index])
                    high = max(high, samples[index])
                }
                values[2 * column] = Self.quantize(low)
                values[2 * column + 1] = Self.quantize(high)
            }
        }
        self.values = values
    }

    package init(values: [Int8]) { self.values = values }

    private static func quantize(_ value: Float) -> Int8 { Int8(max(-127, min(127, (value * 127).rounded()))) }

    /// Stored as base64 of the bytes: a few hundred bytes per clip in the memo's JSON.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text), data.count % 2 == 0 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an envelope"))
        }
        values = data.map { Int8(bitPattern: $0) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Data(values.map { UInt8(bitPattern: $0) }).base64EncodedString())
    }
}
