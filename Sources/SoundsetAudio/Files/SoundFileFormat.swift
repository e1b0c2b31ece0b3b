import SoundsetRuntime

/// What a sound file holds, read from its header without decoding the samples.
public struct SoundFileInfo: Sendable, Equatable, Codable {
    /// Frames (samples per channel) the header declares.
    public var frames: Int
    public var sampleRate: Int
    public var channels: Int
    /// libsndfile's container name, e.g. "WAV", "CAF", "AIFF".
    public var containerName: String
    /// libsndfile's sample encoding name, e.g. "PCM_16", "FLOAT", "ULAW".
    public var encodingName: String
    /// The container when it is one soundset writes, otherwise nil.
    public var container: Container?
    /// The encoding when it is one soundset writes, otherwise nil.
    public var encoding: Encoding?
    /// When the header declares more audio than the file holds: libsndfile's note, e.g.
    /// `data : 32000 (should be 16000)`. libsndfile then reads only what is there, silently.
    public var truncation: String?
    /// The header does not say how long the audio is (a FLAC stream whose STREAMINFO gives 0 total
    /// samples, legal for a stream written live: libsndfile then reports `SF_COUNT_MAX` frames).
    /// `frames` is 0 until the file is decoded (`SoundFile.countFrames`, `readAll`).
    public var lengthUnknown = false

    public init(
        frames: Int, sampleRate: Int, channels: Int, containerName: String, encodingName: String, container: Container? = nil, encoding: Encoding? = nil,
        truncation: String? = nil, lengthUnknown: Bool = false
    ) {
        self.frames = frames
        self.sampleRate = sampleRate
        self.channels = channels
        self.containerName = containerName
        self.encodingName = encodingName
        self.container = container
        self.encoding = encoding
        self.truncation = truncation
        self.lengthUnknown = lengthUnknown
    }

    /// Duration in seconds, from the header (or from decoding, when its length is unknown).
    public var seconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}
