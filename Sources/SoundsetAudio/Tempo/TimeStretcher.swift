internal import CRubberBand

/// Why a time stretch failed.
public struct TimeStretchError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "time-stretching failed: \(reason)" }
}

/// Tempo changes of mono speech with librubberband: its R3 ("finer") engine, offline (the whole
/// clip is studied first, so the output has exactly the requested length and no start delay),
/// pitch and formants unchanged, one thread (the build already runs clips in parallel).
public enum TimeStretcher {
    /// The tempos the build accepts: 0.7 (30% shorter) to 1.0.
    public static let tempos: ClosedRange<Double> = 0.7...1.0

    /// `samples` (mono, at `sampleRate`) played in `tempo` of the time: 0.85 gives 85% of the length,
    /// at the same pitch. Returns the input unchanged at 1.0: the library is not called.
    /// - Throws: `TimeStretchError` for a tempo outside `tempos` or a library failure.
    public static func stretch(_ samples: [Float], sampleRate: Int, tempo: Double) throws -> [Float] {
        if tempo == 1 || samples.isEmpty { return samples }
        guard tempos.contains(tempo) else { throw TimeStretchError(reason: "tempo \(tempo) is out of range (0.7 to 1.0)") }
        let stretcher = try RubberBand(sampleRate: sampleRate, timeRatio: tempo)
        return stretcher.run(samples)
    }
}

/// One librubberband state, deleted with its owner.
final class RubberBand {
    private let state: RubberBandState
    private static let block = 4096

    init(sampleRate: Int, timeRatio: Double) throws {
        let options =
            RubberBandOptionProcessOffline.rawValue | RubberBandOptionEngineFiner.rawValue | RubberBandOptionThreadingNever.rawValue
            | RubberBandOptionFormantPreserved.rawValue
        guard let state = rubberband_new(UInt32(sampleRate), 1, RubberBandOptions(bitPattern: options), timeRatio, 1.0) else {
            throw TimeStretchError(reason: "librubberband could not be set up for \(sampleRate) Hz")
        }
        self.state = state
        rubberband_set_max_process_size(state, UInt32(Self.block))
    }

    deinit { rubberband_delete(state) }

    /// Studies all of `samples`, then processes them and collects what comes out.
    func run(_ samples: [Float]) -> [Float] {
        rubberband_set_expected_input_duration(state, UInt32(samples.count))
        Self.inBlocks(samples) { channel, count, final in rubberband_study(state, &channel, count, final) }
        var output: [Float] = []
        output.reserveCapacity(Int(Double(samples.count) * rubberband_get_time_ratio(state)) + Self.block)
        var scratch = [Float](repeating: 0, count: Self.block)
        func collect() {
            while rubberband_available(state) > 0 {
                let count = min(Int(rubberband_available(state)), Self.block)
                let got = scratch.withUnsafeMutableBufferPointer { buffer -> Int in
                    var channel: UnsafeMutablePointer<Float>? = buffer.baseAddress
                    return Int(rubberband_retrieve(state, &channel, UInt32(count)))
                }
                output.append(contentsOf: scratch[0..<got])
            }
        }
        Self.inBlocks(samples) { channel, count, final in
            rubberband_process(state, &channel, count, final)
            collect()
        }
        // Offline and on one thread, everything is out once the final block is processed:
        // `available` is then -1.
        return output
    }

    /// Hands `samples` to `body` a block at a time: its start (as the one channel's pointer), its
    /// length, and whether it is the last (1) or not (0).
    private static func inBlocks(_ samples: [Float], _ body: (inout UnsafePointer<Float>?, UInt32, Int32) -> Void) {
        samples.withUnsafeBufferPointer { input in
            var offset = 0
            while offset < input.count {
                let count = min(block, input.count - offset)
                var channel: UnsafePointer<Float>? = input.baseAddress! + offset
                body(&channel, UInt32(count), offset + count == input.count ? 1 : 0)
                offset += count
            }
        }
    }
}
