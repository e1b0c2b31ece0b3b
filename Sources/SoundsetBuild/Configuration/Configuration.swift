import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The build's settings, from `Assets/soundset.json`; every key is optional.
public struct Configuration: Sendable, Equatable, Codable {
    /// The locale whose reading the set is recorded for (`zh-CN` or `en-US`).
    public var locale = "zh-CN"
    /// Output sample rate in Hz, 8000 to 48000.
    public var sampleRate = 44100
    /// Output container.
    public var container = Container.caf
    /// Output encoding.
    public var encoding = Encoding.pcm16
    /// Loudness target and ceiling.
    public var loudness = LoudnessSettings()
    /// Limiter bounds.
    public var limiter = LimiterSettings()
    /// How silence is trimmed.
    public var trim = TrimSettings()
    /// Clips that get a byte-identical `<name>Copy`; nil means the digit clips `0`-`9` that exist.
    public var copies: [String]?
    /// How amounts are read (zh-CN style, 两, trailing zeros); recorded in the manifest.
    public var reading = ReadingOptions()
    /// Default prefix, suffix and gap of announcements; recorded in the manifest.
    public var announcement = AnnouncementSettings()

    public init() {}

    /// Loudness target and true-peak ceiling.
    public struct LoudnessSettings: Sendable, Equatable, Codable {
        /// Whole-clip loudness every clip is brought to, LUFS.
        public var target = -16.0
        /// Highest true peak allowed in the output, dBTP.
        public var truePeak = -1.0
        public init() {}
    }

    /// How far the limiter may go before the set's level is lowered instead.
    public struct LimiterSettings: Sendable, Equatable, Codable {
        /// The largest gain reduction the limiter may apply to any clip, dB.
        public var maxReductionDb = 6.0
        public init() {}
    }

    /// The locales whose readings soundset knows.
    public static let locales = ["zh-CN", "en-US"]

    /// sha256 of the effective configuration (defaults filled in) as sorted-key JSON: the same
    /// settings give the same hash whether they were written out or left to their defaults.
    public var hash: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return SHA256.hex((try? encoder.encode(self)) ?? Data())
    }
}
