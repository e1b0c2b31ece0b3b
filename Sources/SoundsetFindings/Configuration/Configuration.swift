import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

/// The build's settings, from `Assets/soundset.json`; every key is optional.
public struct Configuration: Sendable, Equatable, Codable {
    /// The locale whose reading the set is recorded for (`zh-CN` or `en-US`).
    public var locale = SpeechLocale.zhCN
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
    /// Every clip's length after trimming, as a share of its take's (0.7 to 1.0): time-compressed
    /// by librubberband at the same pitch; 1.0 leaves the takes as they are.
    public var tempo = 1.0
    /// Clips that get a byte-identical `<name>Copy`; nil means the digit clips `0`-`9` that exist.
    public var copies: [String]?
    /// How amounts are read (zh-CN style, 两, trailing zeros); recorded in the manifest.
    public var reading = ReadingOptions()
    /// Default prefix, suffix and gap of announcements; recorded in the manifest.
    public var announcement = AnnouncementSettings()
    /// Clip duration limits that `soundset check` enforces.
    public var limits = Limits()
    /// The largest amount the app announces, in minor units (`maxAmount`, default 99999999.99).
    public var maxAmountMinorUnits: Int64 = 9_999_999_999
    /// The longest announcement allowed, seconds (`maxAnnouncementSeconds`).
    public var maxAnnouncementSeconds = 25.0
    /// What `soundset report` shows.
    public var report = ReportSettings()

    /// Settings of the HTML report.
    public struct ReportSettings: Sendable, Equatable, Codable {
        /// Amounts composed and played as sample announcements; nil for a few up to `maxAmount`
        /// that together use every clip (`SampleAmounts`).
        public var amounts: [String]?
        public init() {}
    }

    /// Duration limits per clip.
    public struct Limits: Sendable, Equatable, Codable {
        /// Longest duration by clip-name pattern (`*` any run of characters, `?` one), added to the
        /// defaults (see `maxSeconds(for:)`): 1.2 s for every clip, 4 s for the prefix and suffix.
        public var maxSeconds: [String: Double]?
        /// Shortest duration of any clip, seconds.
        public var minSeconds = 0.05
        public init() {}
    }

    /// The largest amount the app announces.
    public var maxAmount: Amount { (try? Amount(minorUnits: maxAmountMinorUnits)) ?? (try! Amount(minorUnits: 0)) }

    /// The longest a clip named `name` may last and the pattern that says so.
    ///
    /// `limits.maxSeconds` adds to the defaults: of the patterns written, the most specific that
    /// matches wins (the one with the most literal characters); a name that none of them matches
    /// keeps its default, 4 s for the announcement's prefix and suffix and 1.2 s (`*`) for the rest.
    /// `written` says whether the limit is one of `limits.maxSeconds` or a default.
    public func maxSeconds(for name: String) -> (seconds: Double, pattern: String, written: Bool) {
        let written = limits.maxSeconds ?? [:]
        let best = written.keys.filter { ClipPattern.matches($0, name) }
            .max { (ClipPattern.literalCount($0), $1) < (ClipPattern.literalCount($1), $0) }
        if let best { return (written[best]!, best, true) }
        if name == announcement.prefix || name == announcement.suffix { return (4.0, name, false) }
        return (1.2, "*", false)
    }

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

    /// The digest of the settings that shape the build's output: the one definition of a set's
    /// freshness against `soundset.json`, which the manifest records (`configurationHash`) and the
    /// build's shortcuts and the check compare. See `SettingsDigest`.
    public var hash: String { SettingsDigest.of(self, sections: [.build]) }

    /// The digest of every setting, the check's and the report's included: what the check's
    /// findings and the report were made with.
    package var allSettingsHash: String { SettingsDigest.of(self, sections: [.build, .check, .report]) }
}
