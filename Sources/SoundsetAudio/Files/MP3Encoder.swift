internal import CLame
import Foundation

/// Why LAME refused to encode: the call and what it returned.
public struct MP3EncoderError: Error, CustomStringConvertible, Equatable {
    public var reason: String
    public var description: String { "MP3 encoding failed: \(reason)" }
}

/// A LAME encoder (libmp3lame's `lame_t`) for one mono MP3 stream; one owner, closed on deinit.
///
/// The stream starts with LAME's Info frame (the Xing/LAME tag: the number of frames, the encoder's
/// delay and the last frame's padding), filled in once the whole stream is encoded and written over
/// the empty frame LAME reserves at the start, as libsndfile does when it writes MP3 to a seekable
/// file. So a decoder that reads it (mpg123, hence libsndfile; browsers) gives back exactly the
/// samples encoded. No ID3 tag is written.
///
/// Not `Sendable`: an encoder belongs to the task that made it, and encodes one stream.
public final class MP3Encoder {
    /// How LAME spends its bits and its time.
    public struct Settings: Sendable, Equatable {
        public enum Bitrate: Sendable, Equatable {
            /// CBR (`vbr_off`, `lame_set_brate`): every frame at `kbps`. At 32 kbit/s and below at
            /// 16 kHz a frame is too small for the Info frame, and LAME leaves it out (measured: the
            /// decoder then plays the encoder's delay first).
            case constant(kbps: Int)
            /// ABR (`vbr_abr`, `lame_set_VBR_mean_bitrate_kbps`): the mean over the stream.
            case average(kbps: Int)
            /// VBR (`vbr_default`, `lame_set_VBR_quality`): 0 (the most bits) to 9.999 (`-V`).
            case variable(quality: Double)
        }
        public var bitrate: Bitrate
        /// LAME's algorithm quality (`lame_set_quality`): 0 (best, slowest) to 9 (fastest); nil
        /// keeps LAME's default for the bitrate mode.
        public var algorithmQuality: Int?

        public init(bitrate: Bitrate, algorithmQuality: Int? = nil) {
            self.bitrate = bitrate
            self.algorithmQuality = algorithmQuality
        }
    }

    private let lame: OpaquePointer
    /// The stream's rate, the input's and the output's (LAME does not resample).
    public let sampleRate: Int
    private var used = false

    /// A LAME encoder for mono audio at `sampleRate` (`lame_init`, then `lame_init_params`), the
    /// same rate out, with `settings`. LAME's messages are switched off: it never prints.
    /// - Throws: `MP3EncoderError` when LAME cannot be made or refuses the rate or the settings
    ///   (MP3 has rates 8 to 48 kHz, and bitrates for each MPEG version).
    public init(sampleRate: Int, settings: Settings) throws {
        guard let lame = lame_init() else { throw MP3EncoderError(reason: "lame_init failed (out of memory)") }
        self.lame = lame
        self.sampleRate = sampleRate
        lame_set_errorf(lame, nil)
        lame_set_debugf(lame, nil)
        lame_set_msgf(lame, nil)
        guard sampleRate > 0, sampleRate <= 48000 else { throw MP3EncoderError(reason: "MP3 has no rate \(sampleRate) Hz") }
        lame_set_in_samplerate(lame, Int32(sampleRate))
        lame_set_out_samplerate(lame, Int32(sampleRate))
        lame_set_num_channels(lame, 1)
        lame_set_mode(lame, MONO)
        lame_set_write_id3tag_automatic(lame, 0)
        lame_set_bWriteVbrTag(lame, 1)
        var status: Int32
        switch settings.bitrate {
        case .constant(let kbps):
            status = lame_set_VBR(lame, vbr_off)
            if status == 0 { status = lame_set_brate(lame, Int32(kbps)) }
        case .average(let kbps):
            status = lame_set_VBR(lame, vbr_abr)
            if status == 0 { status = lame_set_VBR_mean_bitrate_kbps(lame, Int32(kbps)) }
        case .variable(let quality):
            status = lame_set_VBR(lame, vbr_default)
            if status == 0 { status = lame_set_VBR_quality(lame, Float(quality)) }
        }
        if status == 0, let quality = settings.algorithmQuality { status = lame_set_quality(lame, Int32(quality)) }
        guard status == 0 else { throw MP3EncoderError(reason: "LAME refuses the settings \(settings) (error \(status))") }
        let initialized = lame_init_params(lame)
        guard initialized >= 0 else {
            throw MP3EncoderError(reason: "LAME refuses \(settings) at \(sampleRate) Hz (lame_init_params: \(initialized))")
        }
    }

    deinit { lame_close(lame) }

    /// `samples` (mono, -1 to 1, at `sampleRate`) as a whole MP3 stream: encoded
    /// (`lame_encode_buffer_ieee_float`), flushed (`lame_encode_flush`), and the Info frame
    /// (`lame_get_lametag_frame`) written at the start. An encoder encodes one stream: a second
    /// call throws.
    /// - Throws: `MP3EncoderError` when LAME reports an error or the encoder was used.
    public func encode(_ samples: [Float]) throws -> Data {
        guard !used else { throw MP3EncoderError(reason: "an MP3Encoder encodes one stream") }
        used = true
        guard samples.count < Int(Int32.max) / 2 else { throw MP3EncoderError(reason: "\(samples.count) samples are too many for one stream") }
        // lame.h: the worst case is 1.25 times the samples and 7,200 bytes; the flush at most 7,200.
        let capacity = samples.count + samples.count / 4 + 7200 + 7200
        // Not zeroed first (a tenth of a megabyte for 4 s): only what LAME wrote is kept.
        var failure: MP3EncoderError?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { out, initialized in
            initialized = 0
            guard let base = out.baseAddress else { return }
            let encoded = samples.withUnsafeBufferPointer { pcm in
                lame_encode_buffer_ieee_float(lame, pcm.baseAddress, nil, Int32(pcm.count), base, Int32(out.count))
            }
            guard encoded >= 0 else {
                failure = MP3EncoderError(reason: "lame_encode_buffer_ieee_float returned \(encoded)")
                return
            }
            let flushed = lame_encode_flush(lame, base + Int(encoded), Int32(out.count - Int(encoded)))
            guard flushed >= 0 else {
                failure = MP3EncoderError(reason: "lame_encode_flush returned \(flushed)")
                return
            }
            let length = Int(encoded) + Int(flushed)
            // The Info frame LAME reserved at the start, now filled in; its size is that frame's.
            let tag = lame_get_lametag_frame(lame, base, length)
            guard tag <= length else {
                failure = MP3EncoderError(reason: "LAME's Info frame (\(tag) bytes) is longer than the stream")
                return
            }
            initialized = length
        }
        if let failure { throw failure }
        return Data(bytes)
    }
}
