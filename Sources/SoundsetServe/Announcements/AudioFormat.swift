import SoundsetRuntime

/// A format the server sends an announcement in, named by the URL's extension.
public enum AudioFormat: String, CaseIterable, Sendable {
    case wav, mp3, caf, aiff

    /// The `Content-Type` it is sent with.
    public var contentType: String {
        switch self {
        case .wav: "audio/wav"
        case .mp3: "audio/mpeg"
        case .caf: "audio/x-caf"
        case .aiff: "audio/aiff"
        }
    }

    /// The container, for the three iOS plays; nil for MP3.
    var container: Container? { Container(rawValue: rawValue) }
}
