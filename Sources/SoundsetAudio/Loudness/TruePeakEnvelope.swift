/// A clip's true-peak envelope, kept as one true peak per block of samples: about 1/32 of the clip's
/// size, so prepared clips and the cache stay small. For every sample the envelope is the highest of
/// its own magnitude and the true peaks of its block and the blocks either side: libebur128's 4x
/// interpolator reports a peak a few samples after the sample that causes it, so the envelope never
/// under-states a true peak; it over-states it by at most a block's worth of neighbourhood.
public struct TruePeakEnvelope: Sendable, Equatable {
    /// One past the last sample of each block, ascending; the last is the clip's length.
    public private(set) var blockEnds: [UInt32]
    /// The true peak libebur128 found in each block (`ebur128_prev_true_peak`), as an amplitude.
    public private(set) var blockPeaks: [Float]

    /// An envelope from its blocks.
    /// - Precondition: as many ends as peaks, ascending.
    public init(blockEnds: [UInt32], blockPeaks: [Float]) {
        precondition(blockEnds.count == blockPeaks.count, "one true peak per block")
        self.blockEnds = blockEnds
        self.blockPeaks = blockPeaks
    }

    /// The envelope of `samples`' highest point: their highest magnitude or block peak.
    public func highest(of samples: [Float]) -> Float {
        var highest = blockPeaks.max() ?? 0
        for sample in samples { highest = max(highest, abs(sample)) }
        return highest
    }

    /// The envelope at every sample of `samples` (the clip it was measured on).
    public func values(for samples: [Float]) -> [Float] {
        var envelope = [Float](repeating: 0, count: samples.count)
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
        return envelope
    }
}
