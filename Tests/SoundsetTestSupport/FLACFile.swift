internal import CSndFile
import Foundation

/// FLAC fixtures, written by libsndfile (`SF_FORMAT_FLAC | SF_FORMAT_PCM_16`): what soundset never
/// writes, but reads among the takes.
public enum FLACFile {
    /// The bytes of a mono 16-bit FLAC file of `samples` at `rate`.
    /// - Parameter unknownLength: zero the STREAMINFO's total samples, as a stream written live
    ///   leaves it (legal FLAC: the length is then unknown until the file is decoded).
    public static func bytes(_ samples: [Float], rate: Int, unknownLength: Bool = false) throws -> Data {
        let folder = try TemporaryDirectory("soundset-flac")
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("take.flac").path
        var info = SF_INFO()
        info.samplerate = Int32(rate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else { throw POSIXError(.EIO) }
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(samples.count)) }
        sf_close(handle)
        guard written == samples.count else { throw POSIXError(.EIO) }
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if unknownLength {
            // "fLaC", then the STREAMINFO block's 4-byte header; its total samples are the 36 bits
            // from the low nibble of its byte 13 through its byte 17.
            guard data.count > 26, data.prefix(4) == Data("fLaC".utf8), data[4] & 0x7F == 0 else { throw POSIXError(.EINVAL) }
            data[8 + 13] &= 0xF0
            for offset in 14...17 { data[8 + offset] = 0 }
        }
        return data
    }
}
