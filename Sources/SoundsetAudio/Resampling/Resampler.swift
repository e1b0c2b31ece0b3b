internal import CSampleRate

/// A failure reported by libsamplerate, with its code and message (`src_strerror`).
public struct ResamplerError: Error, CustomStringConvertible {
    public var code: Int
    public var reason: String
    public var description: String { "resampling failed: \(reason)" }
}

/// Sample-rate conversion of mono audio with libsamplerate (`src_simple`).
public enum Resampler {
    /// libsamplerate's converters, best first.
    public enum Quality: String, Sendable, CaseIterable {
        case best, medium, fastest

        var converter: Int32 {
            switch self {
            case .best: Int32(SRC_SINC_BEST_QUALITY)
            case .medium: Int32(SRC_SINC_MEDIUM_QUALITY)
            case .fastest: Int32(SRC_SINC_FASTEST)
            }
        }
    }

    /// The converter the build uses for a target rate: SINC_FASTEST at 32 kHz and above, SINC_MEDIUM below.
    ///
    /// Measured in a release build on 1 s of a 100 Hz-7 kHz chirp (the speech band) from 48 kHz,
    /// against SINC_BEST's output (error energy relative to the signal) and per second of audio:
    ///
    ///     to 44.1 kHz  BEST 34.6 ms   MEDIUM 10.1 ms, -130 dB   FASTEST 4.9 ms, -102 dB
    ///     to 22.05 kHz BEST 33.2 ms   MEDIUM  9.5 ms, -123 dB   FASTEST 4.2 ms, -101 dB
    ///     to 16 kHz    BEST 28.5 ms   MEDIUM  8.7 ms,  -74 dB   FASTEST 3.9 ms,  -17 dB
    ///
    /// At 32 kHz and above FASTEST's 80% passband reaches 12.8 kHz or more, past any speech content,
    /// and its difference from BEST is under the 16-bit output's -96 dB floor, at twice MEDIUM's speed
    /// (resampling was the largest single cost of a build). Below 32 kHz its passband would cut into
    /// sibilants (the 16 kHz row), so MEDIUM, which stays far under audibility there, is used.
    public static func quality(forTargetRate rate: Int) -> Quality { rate >= 32000 ? .fastest : .medium }

    /// The converter used when none is named: `quality(forTargetRate: 44100)`.
    public static let defaultQuality = Quality.fastest

    /// Converts `samples` (mono, at `sourceRate`) to `targetRate`.
    /// Returns the input unchanged when the rates are equal.
    /// - Throws: `ResamplerError` with libsamplerate's message.
    public static func resample(
        _ samples: [Float], from sourceRate: Int, to targetRate: Int, quality: Quality = defaultQuality
    ) throws -> [Float] {
        if sourceRate == targetRate || samples.isEmpty { return samples }
        let ratio = Double(targetRate) / Double(sourceRate)
        let capacity = Int((Double(samples.count) * ratio).rounded(.up)) + 16
        var status: Int32 = 0
        let output = [Float](unsafeUninitializedCapacity: capacity) { out, generated in
            samples.withUnsafeBufferPointer { input in
                var data = SRC_DATA()
                data.data_in = input.baseAddress
                data.data_out = out.baseAddress
                data.input_frames = Int(samples.count)
                data.output_frames = Int(capacity)
                data.src_ratio = ratio
                data.end_of_input = 1
                status = src_simple(&data, quality.converter, 1)
                generated = status == 0 ? Int(data.output_frames_gen) : 0
            }
        }
        guard status == 0 else {
            throw ResamplerError(code: Int(status), reason: String(cString: src_strerror(status)))
        }
        return output
    }
}
