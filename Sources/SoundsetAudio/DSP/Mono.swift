/// Channel mixing and DC removal on plain sample arrays.
public enum Mono {
    /// Mixes interleaved audio down to one channel as the mean of the channels.
    public static func mixDown(_ interleaved: [Float], channels: Int) -> [Float] {
        if channels == 1 { return interleaved }
        let frames = interleaved.count / channels
        let scale = 1 / Float(channels)
        return [Float](unsafeUninitializedCapacity: frames) { mono, initialized in
            interleaved.withUnsafeBufferPointer { input in
                // Stereo, the usual case, on vector instructions: the same sums, (0 + left) + right.
                if channels == 2 {
                    for frame in 0..<frames { mono[frame] = (0 + input[2 * frame] + input[2 * frame + 1]) * scale }
                    initialized = frames
                    return
                }
                for frame in 0..<frames {
                    var sum: Float = 0
                    let base = frame * channels
                    for channel in 0..<channels { sum += input[base + channel] }
                    mono[frame] = sum * scale
                }
            }
            initialized = frames
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
