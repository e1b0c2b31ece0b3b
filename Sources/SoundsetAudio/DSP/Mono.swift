/// Channel mixing and DC removal on plain sample arrays.
public enum Mono {
    /// Mixes interleaved audio down to one channel as the mean of the channels.
    public static func mixDown(_ interleaved: [Float], channels: Int) -> [Float] {
        if channels == 1 { return interleaved }
        let frames = interleaved.count / channels
        let scale = 1 / Float(channels)
        return (0..<frames).map { frame in
            var sum: Float = 0
            for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
            return sum * scale
        }
    }

    /// Subtracts the mean, so the clip has no DC offset. Returns the offset removed.
    @discardableResult
    public static func removeDC(_ samples: inout [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for sample in samples { sum += Double(sample) }
        let mean = sum / Double(samples.count)
        let offset = Float(mean)
        samples.withUnsafeMutableBufferPointer { samples in
            for index in samples.indices { samples[index] -= offset }
        }
        return mean
    }
}
