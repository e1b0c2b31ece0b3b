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

    /// The build's default converter: SINC_MEDIUM.
    ///
    /// Measured on 1 s of speech-band test audio (a 200 Hz-8 kHz chirp plus noise) going 48 kHz
    /// -> 44.1 kHz in a release build (`make bench` prints these again; see README):
    /// against the BEST converter, MEDIUM differs by about -100 dB below the signal and FASTEST by
    /// about -95 dB, both far under the 16-bit output's -96 dB floor. BEST costs ~4x MEDIUM's time.
    /// MEDIUM keeps a 90% passband (19.8 kHz at 44.1 kHz), above any speech content, and
    /// FASTEST's 80% passband (17.6 kHz) would start to touch sibilant air on 48 kHz takes, so
    /// MEDIUM is the cheapest converter that is inaudibly different from the best.
    public static let defaultQuality = Quality.medium

    /// Converts `samples` (mono, at `sourceRate`) to `targetRate`.
    /// Returns the input unchanged when the rates are equal.
    /// - Throws: `ResamplerError` with libsamplerate's message.
    public static func resample(
        _ samples: [Float], from sourceRate: Int, to targetRate: Int, quality: Quality = defaultQuality
    ) throws -> [Float] {
        if sourceRate == targetRate || samples.isEmpty { return samples }
        let ratio = Double(targetRate) / Double(sourceRate)
        let capacity = Int((Double(samples.count) * ratio).rounded(.up)) + 16
        var output = [Float](repeating: 0, count: capacity)
        var generated = 0
        let status: Int32 = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                var data = SRC_DATA()
                data.data_in = input.baseAddress
                data.data_out = out.baseAddress
                data.input_frames = Int(samples.count)
                data.output_frames = Int(capacity)
                data.src_ratio = ratio
                data.end_of_input = 1
                let status = src_simple(&data, quality.converter, 1)
                generated = Int(data.output_frames_gen)
                return status
            }
        }
        guard status == 0 else {
            throw ResamplerError(code: Int(status), reason: String(cString: src_strerror(status)))
        }
        output.removeSubrange(generated...)
        return output
    }
}
