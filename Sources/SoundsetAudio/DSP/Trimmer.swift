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
    /// Sounds as loud as speech beyond the kept span's gaps (a second word), left out: frames of
    /// the take. Found by `Trimmer.findRegion`; not stored (only the note it gives is).
    public var dropped: [Range<Int>] = []

    private enum CodingKeys: String, CodingKey {
        case soundStart, soundEnd, keepStart, keepEnd, noiseFloorDb, peakDb, thresholdDb
    }

    public init(soundStart: Int, soundEnd: Int, keepStart: Int, keepEnd: Int, noiseFloorDb: Double, peakDb: Double, thresholdDb: Double) {
        self.soundStart = soundStart
        self.soundEnd = soundEnd
        self.keepStart = keepStart
        self.keepEnd = keepEnd
        self.noiseFloorDb = noiseFloorDb
        self.peakDb = peakDb
        self.thresholdDb = thresholdDb
    }
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
/// into 10 ms windows (two 5 ms hops). The noise floor is the 2nd percentile of their
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
        let hop = max(1, sampleRate / 200)
        let window = 2 * hop
        guard !samples.isEmpty else { throw TrimError.noSpeech(thresholdDb: -.infinity, noiseFloorDb: -.infinity) }
        // The filter rings for a few ms after a sudden change. Run forwards, it rings after an onset,
        // which is inside the sound: use it to find the start. Run backwards (from the take's last
        // sample), it rings before an ending, again inside the sound: use that to find the end; the
        // end lies after the loudest window, so the backward run stops there.
        let forward = HopLevels(forwardOver: samples, sampleRate: sampleRate, hop: hop)
        let levels = forward.levels
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
        let backward = HopLevels(backwardOver: samples, sampleRate: sampleRate, hop: hop, downToWindow: loudest + 1)
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
            if backward.level(index) > threshold { last = index; gap = 0 } else { gap += 1; if gap > maxGapWindows { break } }
            index += 1
        }
        let soundStart = first * hop
        // A soft last sound (a stop's release, a fricative's tail) can rise above the threshold for
        // less than a window, and so be missed by the windows' averages: the end is looked for
        // again in quarter windows, a little way past the last window found.
        let soundEnd = Self.softEnd(
            samples, sampleRate: sampleRate, hop: hop, after: min(samples.count, last * hop + window), threshold: threshold)
        let soundMs = Double(soundEnd - soundStart) * 1000 / Double(sampleRate)
        guard soundMs >= minimumSoundMs else {
            throw TrimError.tooShort(milliseconds: soundMs, minimumMs: minimumSoundMs)
        }
        let pad = Int(settings.padMs / 1000 * Double(sampleRate))
        var region = TrimRegion(
            soundStart: soundStart, soundEnd: soundEnd,
            keepStart: max(0, soundStart - pad), keepEnd: min(samples.count, soundEnd + pad),
            noiseFloorDb: floor, peakDb: peak, thresholdDb: threshold)
        // What the gaps left out, either side of the span, by the forward run's windows. A sound
        // far above the threshold lifts every window it reaches into: its first window starts up
        // to two hops before it, its last within a hop of its end (the filter rings a little past it).
        let speech = { (windows: Range<Int>) in
            speechLike(windows, level: { levels[$0] }, threshold: threshold, peak: peak, maxGap: maxGapWindows, hop: hop, sampleRate: sampleRate)
        }
        let before = speech(0..<first)
        let after = speech((last + 1)..<levels.count)
        region.dropped = (before + after).map { ($0.lowerBound + 1) * hop..<min(samples.count, max(($0.lowerBound + 2) * hop, $0.upperBound * hop)) }
        return region
    }
}

extension Trimmer {
    /// A left-out sound is reported as a second word when its loudest window is within this of
    /// the take's loudest, dB (a breath or a chair's creak is far quieter than speech).
    static let secondWordRangeDb = 20.0

    /// Runs of windows above `threshold` in `windows` (gaps of up to `maxGap` windows bridged) that
    /// hold one unbroken stretch of sound of at least `minimumSoundMs` (windows above the threshold
    /// one after another: two taps with a pause between are two short sounds, not a word) and come
    /// within `secondWordRangeDb` of `peak`: the first and last window of each.
    static func speechLike(
        _ windows: Range<Int>, level: (Int) -> Double, threshold: Double, peak: Double, maxGap: Int, hop: Int, sampleRate: Int
    ) -> [ClosedRange<Int>] {
        // A stretch of n windows one after another spans (n - 1) hops and a window (two hops).
        let shortest = Int((minimumSoundMs / 1000 * Double(sampleRate) / Double(hop)).rounded(.up)) - 1
        var runs: [ClosedRange<Int>] = []
        var current: (first: Int, last: Int, loudest: Double, longest: Int)?
        var stretch = 0
        func close() {
            guard let run = current else { return }
            if run.longest >= shortest && run.loudest >= peak - secondWordRangeDb { runs.append(run.first...run.last) }
            current = nil
        }
        for index in windows {
            let value = level(index)
            guard value > threshold else {
                stretch = 0
                if let run = current, index - run.last > maxGap { close() }
                continue
            }
            stretch += 1
            if let run = current {
                current = (run.first, index, max(run.loudest, value), max(run.longest, stretch))
            } else {
                current = (index, index, value, stretch)
            }
        }
        close()
        return runs
    }
}

extension Trimmer {
    /// How far past the windows' end a soft last sound is looked for, milliseconds.
    static let softEndSearchMs = 80.0

    /// The end of the last quarter window (2.5 ms, every 1.25 ms) above `threshold` that starts
    /// within `softEndSearchMs` after `end`, or `end` when there is none. The take is high-passed
    /// as the windows are, run backwards (from past the search), so the filter rings inside the sound.
    static func softEnd(_ samples: [Float], sampleRate: Int, hop: Int, after end: Int, threshold: Double) -> Int {
        let eighth = max(1, hop / 4)
        let limit = min(samples.count, end + Int(softEndSearchMs / 1000 * Double(sampleRate)))
        let bins = (limit - end) / eighth
        guard bins >= 2 else { return end }
        // A few ms past the search only settle the filter.
        let settled = min(samples.count, limit + 2 * hop)
        var filter = HighPass(sampleRate: sampleRate, primedWith: samples[settled - 1])
        var energies = [Double](repeating: 0, count: bins)
        var position = settled - 1
        while position >= end {
            let value = filter(samples[position])
            let bin = (position - end) / eighth
            if bin < bins { energies[bin] += value * value }
            position -= 1
        }
        // A quarter window is two eighths.
        let least = Double(2 * eighth) * pow(10, threshold / 10)
        guard let loud = (0..<(bins - 1)).last(where: { energies[$0] + energies[$0 + 1] > least }) else { return end }
        return end + (loud + 2) * eighth
    }
}

/// The high-passed energy of a take in hops, and the RMS level of each two-hop window: window `i`
/// spans `[i·hop, i·hop + 2·hop)` (the last one cut at the take's end; a take shorter than a
/// window is one window). The filter runs once over the samples and no filtered copy is kept.
struct HopLevels {
    let hop: Int
    let sampleCount: Int
    /// Windows in the take.
    let count: Int
    /// Filtered energy per hop; hop `k` spans `[k·hop, (k+1)·hop)`.
    private var energies: [Double]

    private init(sampleCount: Int, hop: Int) {
        self.hop = hop
        self.sampleCount = sampleCount
        count = sampleCount <= 2 * hop ? 1 : (sampleCount - 2 * hop) / hop + 1
        energies = [Double](repeating: 0, count: count + 1)
    }

    /// The filter run from the first sample forwards, over every window.
    init(forwardOver samples: [Float], sampleRate: Int, hop: Int) {
        self.init(sampleCount: samples.count, hop: hop)
        guard !samples.isEmpty else { return }
        var filter = HighPass(sampleRate: sampleRate, primedWith: samples[0])
        let hops = energies.count
        samples.withUnsafeBufferPointer { input in
            energies.withUnsafeMutableBufferPointer { energies in
                for bin in 0..<hops {
                    var energy = 0.0
                    for position in min(input.count, bin * hop)..<min(input.count, (bin + 1) * hop) {
                        let value = filter(input[position])
                        energy += value * value
                    }
                    energies[bin] = energy
                }
            }
        }
    }

    /// The filter run from the last sample backwards, for windows from the last down to `lowest`.
    init(backwardOver samples: [Float], sampleRate: Int, hop: Int, downToWindow lowest: Int) {
        self.init(sampleCount: samples.count, hop: hop)
        guard !samples.isEmpty else { return }
        var filter = HighPass(sampleRate: sampleRate, primedWith: samples[samples.count - 1])
        let hops = energies.count
        samples.withUnsafeBufferPointer { input in
            // The samples past the last window only settle the filter.
            var position = input.count - 1
            while position >= hops * hop {
                _ = filter(input[position])
                position -= 1
            }
            energies.withUnsafeMutableBufferPointer { energies in
                for bin in stride(from: hops - 1, through: max(0, lowest), by: -1) {
                    var energy = 0.0
                    var position = min(input.count, (bin + 1) * hop) - 1
                    while position >= bin * hop {
                        let value = filter(input[position])
                        energy += value * value
                        position -= 1
                    }
                    energies[bin] = energy
                }
            }
        }
    }

    /// RMS level of window `index`, dBFS.
    func level(_ index: Int) -> Double {
        let start = index * hop
        let length = min(sampleCount, start + 2 * hop) - start
        let meanSquare = (energies[index] + energies[index + 1]) / Double(length)
        return meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity
    }

    /// Every window's level, in order.
    var levels: [Double] { (0..<count).map(level) }
}
