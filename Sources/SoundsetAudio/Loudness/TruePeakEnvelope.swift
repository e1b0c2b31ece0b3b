/// A clip's true-peak envelope, kept as one true peak per block of samples: about 1/32 of the clip's
/// size, so prepared clips and the cache stay small. For every sample the envelope is the highest of
/// its own magnitude and the true peaks of its block and the blocks either side: libebur128's 4x
/// interpolator reports a peak a few samples after the sample that causes it, so the envelope never
/// under-states a true peak; it over-states it by at most a block's worth of neighbourhood.
///
/// Blocks are measured only where it can matter (see `TruePeakScanner`): a block whose value is
/// above `exactAbove` holds libebur128's true peak, any other block holds that or an upper bound
/// of it. A limiter working under a ceiling at or above `exactAbove` therefore sees exactly what a
/// fully measured envelope would show it; under a lower ceiling, ask for `refined(_:sampleRate:exactAbove:)`.
public struct TruePeakEnvelope: Sendable, Equatable {
    /// One past the last sample of each block, ascending; the last is the clip's length.
    public private(set) var blockEnds: [UInt32]
    /// The true peak libebur128 found in each block (`ebur128_prev_true_peak`, which includes the
    /// block's sample peak), as an amplitude, or an upper bound of it at or under `exactAbove`.
    public private(set) var blockPeaks: [Float]
    /// Blocks above this amplitude are measured exactly (0: every block is).
    public private(set) var exactAbove: Float

    /// An envelope from its blocks.
    /// - Precondition: as many ends as peaks, ascending.
    public init(blockEnds: [UInt32], blockPeaks: [Float], exactAbove: Float = 0) {
        precondition(blockEnds.count == blockPeaks.count, "one true peak per block")
        self.blockEnds = blockEnds
        self.blockPeaks = blockPeaks
        self.exactAbove = exactAbove
    }

    /// The envelope of `samples` in blocks ending at `blockEnds`, exact above the clip's highest
    /// sample: enough for its true peak, which is never under that.
    static func measure(_ samples: [Float], sampleRate: Int, blockEnds: [UInt32]) throws -> TruePeakEnvelope {
        let scanner = try TruePeakScanner(sampleRate: sampleRate)
        let (bounds, samplePeak) = scanner.bounds(samples, blockEnds: blockEnds)
        var peaks = bounds
        try scanner.measure(samples, blockEnds: blockEnds, into: &peaks) { bounds[$0] > samplePeak }
        return TruePeakEnvelope(blockEnds: blockEnds, blockPeaks: peaks, exactAbove: scanner.bound == nil ? 0 : samplePeak)
    }

    /// This envelope of `samples` with every block above `threshold` measured exactly.
    public func refined(_ samples: [Float], sampleRate: Int, exactAbove threshold: Float) throws -> TruePeakEnvelope {
        guard threshold < exactAbove else { return self }
        let scanner = try TruePeakScanner(sampleRate: sampleRate)
        var peaks = blockPeaks
        try scanner.measure(samples, blockEnds: blockEnds, into: &peaks) { blockPeaks[$0] > threshold && blockPeaks[$0] <= exactAbove }
        return TruePeakEnvelope(blockEnds: blockEnds, blockPeaks: peaks, exactAbove: max(0, threshold))
    }

    /// The envelope's highest point: the clip's true peak (every block's value includes its
    /// samples, and the highest block is always measured).
    public var highest: Float { blockPeaks.max() ?? 0 }

    /// The envelope at every sample of `samples` (the clip it was measured on).
    public func values(for samples: [Float]) -> [Float] {
        [Float](unsafeUninitializedCapacity: samples.count) { envelope, initialized in
            samples.withUnsafeBufferPointer { samples in
                var start = 0
                for block in blockPeaks.indices {
                    var peak = blockPeaks[block]
                    if block > 0 { peak = max(peak, blockPeaks[block - 1]) }
                    if block + 1 < blockPeaks.count { peak = max(peak, blockPeaks[block + 1]) }
                    let end = min(samples.count, Int(blockEnds[block]))
                    for index in start..<max(start, end) { envelope[index] = max(peak, abs(samples[index])) }
                    start = max(start, end)
                }
                for index in start..<samples.count { envelope[index] = abs(samples[index]) }
            }
            initialized = samples.count
        }
    }
}
