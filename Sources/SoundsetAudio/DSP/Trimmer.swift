import Foundation

/// How the trimmer tells speech from room tone.
public struct TrimSettings: Sendable, Equatable, Codable {
    /// Room tone kept before and after the detected sound, in milliseconds.
    public var padMs: Double = 20
    /// Length of the fade at each edge, in milliseconds.
    public var fadeMs: Double = 5
    /// Sound must rise this far above the take's noise floor, in dB.
    public var floorMarginDb: Double = 6
    /// Sound more than this far below the loudest 10 ms of the take is never counted, in dB.
    public var rangeDb: Double = 60
    /// Silences longer than this split the take; only the part with the loudest sound is kept, in ms.
    public var maxGapMs: Double = 250

    public init() {}
}

/// Where the trimmer found the word in one take.
public struct TrimRegion: Sendable, Equatable, Codable {
    /// First frame of detected sound.
    public var soundStart: Int
    /// One past the last frame of detected sound.
    public var soundEnd: Int
    /// First frame kept (sound start minus the pad).
    public var keepStart: Int
    /// One past the last frame kept (sound end plus the pad).
    public var keepEnd: Int
    /// The take's noise floor, dBFS RMS over 10 ms.
    public var noiseFloorDb: Double
    /// The loudest 10 ms of the take, dBFS RMS.
    public var peakDb: Double
    /// The level sound had to exceed, dBFS RMS.
    public var thresholdDb: Double
}

/// Why a take holds no usable speech.
public enum TrimError: Error, Equatable, CustomStringConvertible {
    /// Nothing rose above the threshold.
    case noSpeech(thresholdDb: Double, noiseFloorDb: Double)
    /// What rose above the threshold lasted less than the minimum.
    case tooShort(milliseconds: Double, minimumMs: Double)

    public var description: String {
        switch self {
        case .noSpeech(let threshold, let floor):
            let floorText = floor.isFinite ? String(format: "%.1f dBFS", floor) : "digital silence"
            return String(format: "no speech found above %.1f dBFS (noise floor %@; is the file silent or only noise?)", threshold, floorText)
        case .tooShort(let ms, let minimum):
            return String(format: "no speech found: only %.0f ms of sound, at least %.0f ms needed (is this a click or a cut-off take?)", ms, minimum)
        }
    }
}

/// Finds the word in a take by its own noise floor, so soft onsets and tails survive and room tone goes.
///
/// The take is high-passed at 100 Hz (for listening only: rumble and hum carry no speech) and cut
/// into 10 ms windows (5 ms hop). The noise floor is the 2nd percentile of their
/// RMS levels (digital silence left out), which lands in room tone even when room tone is only a few percent of the take. Sound
/// is any window above `max(floor + floorMarginDb, loudest - rangeDb)`; the kept span grows from the
/// loudest window outwards and bridges silences up to `maxGapMs`, so a breath or click separated from
/// the word by a longer pause is dropped.
public enum Trimmer {
    /// The shortest sound accepted as a word.
    public static let minimumSoundMs = 50.0
    /// Windows quieter than this are digital silence, not room tone, dBFS.
    static let digitalSilenceDb = -130.0

    /// Finds the region to keep in mono `samples` at `sampleRate`.
    /// - Throws: `TrimError` when no speech is found.
    public static func findRegion(_ samples: [Float], sampleRate: Int, settings: TrimSettings = TrimSettings()) throws -> TrimRegion {
        let window = max(1, sampleRate / 100)
        let hop = max(1, window / 2)
        // The filter rings for a few ms after a sudden change. Run forwards, it rings after an onset,
        // which is inside the sound: use it to find the start. Run backwards (time-reversed), it rings
        // before an ending, again inside the sound: use that to find the end.
        let levels = windowLevels(HighPass.filter(samples, sampleRate: sampleRate), window: window, hop: hop)
        let reversedLevels = windowLevels(
            HighPass.filter(samples.reversed(), sampleRate: sampleRate).reversed(), window: window, hop: hop)
        guard let peak = levels.max(), peak.isFinite else {
            throw TrimError.noSpeech(thresholdDb: -.infinity, noiseFloorDb: -.infinity)
        }
        // Digital silence (edited takes are often padded with zeros) says nothing about the room.
        let audible = levels.filter { $0 > Self.digitalSilenceDb }.sorted()
        let floor = audible.isEmpty ? -Double.infinity : audible[audible.count / 50]
        let threshold = max(floor + settings.floorMarginDb, peak - settings.rangeDb)
        guard peak > threshold, let loudest = levels.firstIndex(of: peak) else {
            throw TrimError.noSpeech(thresholdDb: threshold, noiseFloorDb: floor)
        }
        let maxGapWindows = Int(settings.maxGapMs / 1000 * Double(sampleRate)) / hop
        var first = loudest
        var last = loudest
        var gap = 0
        var index = loudest - 1
        while index >= 0 {
            if levels[index] > threshold { first = index; gap = 0 } else { gap += 1; if gap > maxGapWindows { break } }
            index -= 1
        }
        gap = 0
        index = loudest + 1
        while index < levels.count {
            if reversedLevels[index] > threshold { last = index; gap = 0 } else { gap += 1; if gap > maxGapWindows { break } }
            index += 1
        }
        let soundStart = first * hop
        let soundEnd = min(samples.count, last * hop + window)
        let soundMs = Double(soundEnd - soundStart) * 1000 / Double(sampleRate)
        guard soundMs >= minimumSoundMs else {
            throw TrimError.tooShort(milliseconds: soundMs, minimumMs: minimumSoundMs)
        }
        let pad = Int(settings.padMs / 1000 * Double(sampleRate))
        return TrimRegion(
            soundStart: soundStart, soundEnd: soundEnd,
            keepStart: max(0, soundStart - pad), keepEnd: min(samples.count, soundEnd + pad),
            noiseFloorDb: floor, peakDb: peak, thresholdDb: threshold)
    }

    /// RMS level in dBFS of each `window`-long stretch, every `hop` samples (at least one window).
    static func windowLevels(_ samples: [Float], window: Int, hop: Int) -> [Double] {
        guard !samples.isEmpty else { return [] }
        let count = samples.count <= window ? 1 : (samples.count - window) / hop + 1
        var levels = [Double](repeating: 0, count: count)
        samples.withUnsafeBufferPointer { input in
            for index in 0..<count {
                let start = index * hop
                let end = min(input.count, start + window)
                var energy = 0.0
                for position in start..<end { let value = Double(input[position]); energy += value * value }
                let meanSquare = energy / Double(end - start)
                levels[index] = meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity
            }
        }
        return levels
    }
}
