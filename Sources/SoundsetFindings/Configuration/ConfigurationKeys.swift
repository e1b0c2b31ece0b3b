import SoundsetAudio
import SoundsetRuntime

extension ConfigurationKey {
    /// Every key of `soundset.json`, in the order that messages list them and README shows them.
    static let all: [ConfigurationKey] =
        [
            ConfigurationKey("locale", .choice(\.locale), .build, "reading the set is recorded for: `zh-CN` or `en-US`"),
            ConfigurationKey(
                "sampleRate", .integer(8000...48000, unit: "Hz", why: "iOS plays at most 48 kHz; speech needs at least 8 kHz", Field(\.sampleRate)),
                .build, "output rate"),
            ConfigurationKey(
                "container",
                .choice(
                    \.container,
                    refusals: [
                        "mp3": "mp3 is not a supported iOS notification sound format (it plays on some versions only)",
                        "m4a": "m4a is not a supported iOS notification sound container",
                    ]), .build, "`caf`, `wav` or `aiff` (MP3 and M4A are refused: not supported notification sounds)"),
            ConfigurationKey(
                "encoding",
                .choice(
                    \.encoding,
                    refusals: [
                        "mp3": "mp3 is not a supported iOS notification sound encoding",
                        "ima4": "ima4 is refused: iOS does not play IMA4 in WAV and libsndfile cannot write it in CAF",
                        "float": "float is not a supported iOS notification sound encoding",
                        "pcm24": "24-bit PCM is not useful for notification sounds",
                    ]), .build, "`pcm16`, `ulaw` or `alaw` (IMA4 is refused: not in WAV on iOS, not writable in CAF)"),
            ConfigurationKey(
                "loudness.target", .number(-40...(-6), unit: "LUFS", Field(\.loudness.target)), .build,
                "loudness every clip is brought to (whole-clip, ungated BS.1770)"),
            ConfigurationKey("loudness.truePeak", .number(-12...0, unit: "dBTP", Field(\.loudness.truePeak)), .build, "true-peak ceiling"),
            ConfigurationKey(
                "limiter.maxReductionDb", .number(0...20, unit: "dB", Field(\.limiter.maxReductionDb)), .build,
                "most limiting any clip may get before the set's level is lowered"),
            ConfigurationKey("trim.padMs", .number(0...500, unit: "ms", Field(\.trim.padMs)), .build, "room tone kept before and after the word"),
            ConfigurationKey("trim.fadeMs", .number(0...100, unit: "ms", Field(\.trim.fadeMs)), .build, "fade at each edge"),
            ConfigurationKey(
                "trim.floorMarginDb", .number(1...40, unit: "dB", Field(\.trim.floorMarginDb)), .build,
                "how far above the take's noise floor counts as sound"),
            ConfigurationKey(
                "trim.rangeDb", .number(20...100, unit: "dB", Field(\.trim.rangeDb)), .build,
                "nothing more than this far below the loudest 10 ms counts as sound"),
            ConfigurationKey(
                "trim.maxGapMs", .number(0...2000, unit: "ms", Field(\.trim.maxGapMs)), .build,
                "pauses longer than this end the word (what lies beyond is dropped)"),
            ConfigurationKey(
                "tempo", .number(TimeStretcher.tempos, unit: "", Field(\.tempo)), .build,
                "each clip's length as a share of its take's, time-compressed at the same pitch (librubberband R3)"),
            ConfigurationKey(
                "copies", .clipNames(Field(\.copies)), .build, "clips that get a byte-identical `<clip>Copy`", unsetDefault: "digits `0`-`9` present"),
            ConfigurationKey("reading.style", .choice(\.reading.style), .build, "zh-CN decimals: `point` (一点五元) or `yuanJiaoFen` (一元五角)"),
            ConfigurationKey(
                "reading.useLiang", .boolean(Field(\.reading.useLiang)), .build, "2 as 两 in the 千/百 places and as a whole 万/亿 group (两百, 两万)"),
            ConfigurationKey(
                "reading.keepTrailingZeros", .boolean(Field(\.reading.keepTrailingZeros)), .build, "always two decimals in point style (一点五零)"),
        ]
        + announcement
        + [
            ConfigurationKey(
                "limits.maxSeconds", .patternMap(0.01...29.99, unit: "s", Field(\.limits.maxSeconds)), .check,
                "longest clip by name pattern (`*`, `?`), added to the defaults: of the patterns written, the most specific that matches wins; a clip none matches keeps its default",
                unsetDefault: "`{\"*\": 1.2}`, and 4 s for the announcement prefix/suffix"),
            ConfigurationKey("limits.minSeconds", .number(0...10, unit: "s", Field(\.limits.minSeconds)), .check, "shortest clip"),
            ConfigurationKey(
                "maxAmount", .amount(Field(\.maxAmountMinorUnits)), .check,
                "largest amount the app announces (a string, or a number read from its decimal form)"),
            ConfigurationKey(
                "maxAnnouncementSeconds", .number(0.1...29.99, unit: "s", Field(\.maxAnnouncementSeconds)), .check,
                "budget for the longest announcement"),
            ConfigurationKey(
                "report.amounts", .amounts(maxCount: 20, Field(\.report.amounts)), .report, "sample announcements in the HTML report",
                unsetDefault: "a few amounts up to `maxAmount` that together use every clip"),
        ]

    /// `announcement`, in the runtime's order (`AnnouncementSettings.keys`): the numeric keys, their
    /// ranges, units and meanings come from the runtime's table (`AnnouncementSettings.numericKeys`),
    /// which the manifest's validation also uses; `notes` add README's explanations to its meanings.
    private static var announcement: [ConfigurationKey] {
        let notes = [
            "bannerSeconds": "a longer announcement loses its prefix and suffix",
            "maxWaitSeconds": "it then keeps its own sound",
            "dedupeSeconds": "a retried push is announced once",
            "leadInMs": "some Bluetooth speakers swallow 300-800 ms",
        ]
        let named = [
            ConfigurationKey(
                "announcement.prefix", .clipName(Field(\.announcement.prefix)), .build, "clip before every amount, e.g. `received` (must be a recording)",
                unsetDefault: "none"),
            ConfigurationKey("announcement.suffix", .clipName(Field(\.announcement.suffix)), .build, "clip after every amount", unsetDefault: "none"),
            ConfigurationKey(
                "announcement.join", .choice(\.announcement.join), .build,
                "`speech`: each word's speech starts `gapMs` after the last one's ends, the pads crossfaded; `file`: clip after clip, whole"),
            ConfigurationKey(
                "announcement.delivery", .choice(\.announcement.delivery), .build,
                "how the app plays it: `composed` (one file as the push's sound), `chain` (one local notification per clip) or `auto` (composed, chained when even the bare amount outlasts the banner)"
            ),
            ConfigurationKey(
                "announcement.fallback", .clipName(Field(\.announcement.fallback)), .build,
                "clip played when an announcement fails; without one, the system's sound", unsetDefault: "the prefix"),
            ConfigurationKey(
                "announcement.rushSound", .clipName(Field(\.announcement.rushSound)), .build,
                "short clip a push plays in a rush, when the queue has no room within `maxWaitSeconds` for its amount; without one, no sound of its own",
                unsetDefault: "the prefix"),
        ]
        let numeric = AnnouncementSettings.numericKeys.map { numeric in
            ConfigurationKey(
                "announcement.\(numeric.key)",
                .number(
                    numeric.range, unit: numeric.unit,
                    Field(get: { numeric.value($0.announcement) }, set: { numeric.set(&$0.announcement, $1) })), .build,
                numeric.meaning + (notes[numeric.key].map { " (\($0))" } ?? ""))
        }
        return named + numeric
    }
}
