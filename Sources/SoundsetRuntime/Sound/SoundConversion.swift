import Foundation

extension SoundData {
    /// The same samples in `container`, frame for frame: µ-law and a-law as they are, 16-bit PCM in
    /// the byte order the container stores (WAV little-endian, AIFF big-endian, CAF as it was), so
    /// a CAF set's announcement can be sent as a WAV or an AIFF that plays the same.
    public func converted(to container: Container) -> SoundData {
        let littleEndian =
            switch container {
            case .wav: true
            case .aiff: false
            case .caf: format.littleEndian
            }
        var samples = self.samples
        if format.encoding == .pcm16 && littleEndian != format.littleEndian {
            samples.withUnsafeMutableBytes { bytes in
                for offset in stride(from: 0, to: bytes.count - 1, by: 2) {
                    bytes.storeBytes(of: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self).byteSwapped, toByteOffset: offset, as: UInt16.self)
                }
            }
        }
        let target = SoundFormat(
            container: container, encoding: format.encoding, sampleRate: format.sampleRate, channels: format.channels, littleEndian: littleEndian)
        return SoundData(format: target, samples: samples)
    }

    /// The bytes of the CAF, WAV or AIFF file `data` written again as `container`, sample for
    /// sample (`converted(to:)`): what `soundset render --out FILE.wav` writes of a CAF set, and
    /// what a server sends a client that plays only WAV. The file is returned as it is when it is
    /// already in `container`.
    /// - Parameter name: used in errors.
    /// - Throws: `ComposeError.unreadable` when `data` is not a sound file soundset writes.
    public static func convert(_ data: Data, to container: Container, name: String) throws(ComposeError) -> Data {
        let sound = try SoundData(parsing: data, name: name)
        guard sound.format.container != container else { return data }
        return sound.converted(to: container).encoded()
    }
}

extension Container {
    /// The container a file name's extension names (`caf`; `wav`; `aif`, `aiff` or `aifc`), in any
    /// case, or nil for any other (`mp3`, `m4a`, none).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "caf": self = .caf
        case "wav", "wave": self = .wav
        case "aif", "aiff", "aifc": self = .aiff
        default: return nil
        }
    }
}
