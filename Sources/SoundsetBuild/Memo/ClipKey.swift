import Foundation
import SoundsetAudio
import SoundsetFindings

/// The key of a clip's facts: everything they depend on, the recording's bytes, the configuration
/// and the tool version.
public enum ClipKey {
    public static func of(sourceSHA256: String, configurationHash: String) -> String {
        SHA256.hex(Data("\(sourceSHA256)|\(configurationHash)|\(ToolVersion.current)".utf8))
    }
}
