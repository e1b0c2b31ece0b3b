internal import CEBUR128
import Foundation

/// How far libebur128's true-peak interpolator can lift a block above its samples: the true peak
/// of the block of samples `start..<end` is at most `gain` times the highest magnitude among
/// samples `start - reach ..< end`.
struct InterpolatorBound: Sendable, Equatable {
    var gain: Float
    var reach: Int

    /// The bound at `sampleRate`, from the design of libebur128 1.2's interpolator (`interp_create`
    /// in ebur128.c: 49 taps of a Hann-windowed sinc, 4x below 96 kHz, 2x below 192 kHz, none above),
    /// once the library's own impulse response has confirmed that design; nil if it does not (then
    /// every block is measured).
    static func at(_ sampleRate: Int) -> InterpolatorBound? {
        known.lock.lock()
        defer { known.lock.unlock() }
        if let bound = known.bounds[sampleRate] { return bound }
        let bound = designed(sampleRate).flatMap { design in confirmed(design, sampleRate: sampleRate) ? design.bound : nil }
        known.bounds[sampleRate] = bound
        return bound
    }

    private final class Known: @unchecked Sendable {
        // Safe: only touched under the lock.
        let lock = NSLock()
        var bounds: [Int: InterpolatorBound?] = [:]
    }
    private static let known = Known()

    /// The interpolator's taps as libebur128 designs them: tap `j` feeds phase `j % factor` from the
    /// sample `j / factor` frames back; taps under 1e-6 are left out, as the library leaves them out.
    private static func designed(_ sampleRate: Int) -> (factor: Int, taps: [Double], bound: InterpolatorBound)? {
        guard sampleRate > 0 else { return nil }
        guard sampleRate < 192_000 else { return (1, [1], InterpolatorBound(gain: 1, reach: 0)) }
        let factor = sampleRate < 96_000 ? 4 : 2
        let count = 49
        let taps = (0..<count).map { j -> Double in
            let m = Double(j) - Double(count - 1) / 2
            var c = abs(m) > 0.000001 ? sin(m * .pi / Double(factor)) / (m * .pi / Double(factor)) : 1
            c *= 0.5 * (1 - cos(2 * .pi * Double(j) / Double(count - 1)))
            return abs(c) > 0.000001 ? c : 0
        }
        let gain = (0..<factor).map { phase in stride(from: phase, to: count, by: factor).reduce(0) { $0 + abs(taps[$1]) } }.max() ?? 1
        // A little over the sum, for the rounding of the library's float output and of this product.
        return (factor, taps, InterpolatorBound(gain: Float(gain * (1 + 1e-5)), reach: (count - 1) / factor))
    }

    /// Feeds libebur128 an impulse, one frame per call: after frame `k` it reports the largest tap of
    /// frame `k` (the sample peak, 1, at frame 0), and nothing past the design's reach.
    private static func confirmed(_ design: (factor: Int, taps: [Double], bound: InterpolatorBound), sampleRate: Int) -> Bool {
        guard let state = ebur128_init(1, UInt(sampleRate), Int32(EBUR128_MODE_TRUE_PEAK.rawValue)) else { return false }
        var doomed: UnsafeMutablePointer<ebur128_state>? = state
        defer { ebur128_destroy(&doomed) }
        for frame in 0..<64 {
            var sample: Float = frame == 0 ? 1 : 0
            var peak = 0.0
            guard (try? LoudnessError.check(ebur128_add_frames_float(state, &sample, 1), "ebur128_add_frames_float")) != nil,
                (try? LoudnessError.check(ebur128_prev_true_peak(state, 0, &peak), "ebur128_prev_true_peak")) != nil
            else { return false }
            let taps = design.taps.dropFirst(frame * design.factor).prefix(design.factor)
            let expected = frame == 0 ? 1 : taps.map { abs($0) }.max() ?? 0
            guard abs(peak - expected) <= 1e-6 * max(1, expected) else { return false }
        }
        return true
    }
}

/// libebur128's true peak of a clip, block by block (`ebur128_prev_true_peak` after each block),
/// measured only where it can matter.
///
/// The 4x interpolator costs about 40 ns a sample, most of a clip's measurement. A block whose
/// bound (`InterpolatorBound`) is under a threshold cannot have a true peak above it, so it keeps
/// the bound instead of being measured. Each measured run of blocks is preceded by the samples the
/// interpolator's delay line holds, so every measured block gets the value one pass over the whole
/// clip would give, to the bit.
final class TruePeakScanner {
    private let state: UnsafeMutablePointer<ebur128_state>
    let bound: InterpolatorBound?
    /// One past the last sample fed; a block starting there needs no history.
    private var fedThrough = -1

    init(sampleRate: Int) throws {
        guard sampleRate > 0, let state = ebur128_init(1, UInt(sampleRate), Int32(EBUR128_MODE_TRUE_PEAK.rawValue)) else {
            throw LoudnessError(code: -1, operation: "ebur128_init")
        }
        self.state = state
        bound = InterpolatorBound.at(sampleRate)
    }

    deinit {
        var doomed: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&doomed)
    }

    /// The bound of every block of `samples` ending at `blockEnds` (infinite when there is no
    /// bound), and the clip's sample peak.
    func bounds(_ samples: [Float], blockEnds: [UInt32]) -> (bounds: [Float], samplePeak: Float) {
        let reach = bound?.reach ?? 0
        var samplePeak: Float = 0
        let bounds = samples.withUnsafeBufferPointer { samples in
            var start = 0
            return blockEnds.map { end in
                let peak = Self.peak(UnsafeBufferPointer(rebasing: samples[max(0, start - reach)..<Int(end)]))
                samplePeak = max(samplePeak, peak)
                start = Int(end)
                return bound.map { $0.gain * peak } ?? .infinity
            }
        }
        return (bounds, samplePeak)
    }

    /// The highest magnitude in `samples` (four running maxima: a single one waits on each compare).
    static func peak(_ samples: UnsafeBufferPointer<Float>) -> Float {
        var (a, b, c, d): (Float, Float, Float, Float) = (0, 0, 0, 0)
        var index = 0
        while index + 4 <= samples.count {
            a = max(a, abs(samples[index]))
            b = max(b, abs(samples[index + 1]))
            c = max(c, abs(samples[index + 2]))
            d = max(d, abs(samples[index + 3]))
            index += 4
        }
        while index < samples.count {
            a = max(a, abs(samples[index]))
            index += 1
        }
        return max(max(a, b), max(c, d))
    }

    /// Measures the blocks of `samples` ending at `blockEnds` for which `measure` is true, into `peaks`.
    /// - Precondition: without a bound (whose reach says how much history a block needs), every
    ///   block is measured.
    func measure(_ samples: [Float], blockEnds: [UInt32], into peaks: inout [Float], where measure: (Int) -> Bool) throws {
        try samples.withUnsafeBufferPointer { samples in
            var start = 0
            for (block, end) in blockEnds.enumerated() {
                defer { start = Int(end) }
                guard measure(block) else { continue }
                precondition(bound != nil || start == max(0, fedThrough), "without a bound, blocks are measured in one run from the start")
                if start != fedThrough, let bound {
                    // The delay line's worth of samples before the block (silence before the clip).
                    let history = bound.reach + 1
                    let silence = max(0, history - start)
                    if silence > 0 { try [Float](repeating: 0, count: silence).withUnsafeBufferPointer { try add($0) } }
                    try add(UnsafeBufferPointer(rebasing: samples[(start - (history - silence))..<start]))
                }
                try add(UnsafeBufferPointer(rebasing: samples[start..<Int(end)]))
                fedThrough = Int(end)
                var peak = 0.0
                try LoudnessError.check(ebur128_prev_true_peak(state, 0, &peak), "ebur128_prev_true_peak")
                peaks[block] = Float(peak)
            }
        }
    }

    private func add(_ frames: UnsafeBufferPointer<Float>) throws {
        guard let base = frames.baseAddress, !frames.isEmpty else { return }
        try LoudnessError.check(ebur128_add_frames_float(state, base, frames.count), "ebur128_add_frames_float")
    }
}
