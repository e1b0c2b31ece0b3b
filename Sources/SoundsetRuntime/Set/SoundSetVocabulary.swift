/// A container that iOS plays as a notification sound, and that the build writes and the composer
/// reads. The raw value is the manifest's spelling and the file name extension.
public enum Container: String, CaseIterable, Sendable, Codable {
    case caf, wav, aiff

    /// The file name extension written for this container.
    public var fileExtension: String { rawValue }
}

/// A sample encoding that iOS plays as a notification sound: 16-bit linear PCM, µ-law or a-law.
/// The raw value is the manifest's spelling.
public enum Encoding: String, CaseIterable, Sendable, Codable {
    case pcm16, ulaw, alaw

    /// Bytes of one sample.
    public var bytesPerSample: Int { self == .pcm16 ? 2 : 1 }
}

/// The names of a built set's parts, shared by the build, the check and the app.
public enum SoundSetLayout {
    /// The manifest's file name inside a set's folder.
    public static let manifestName = "manifest.json"
    /// The clips' folder inside a set's folder.
    public static let soundsName = "Sounds"
    /// soundset's state folder inside an App Group's container.
    public static let stateName = "soundset"
}
