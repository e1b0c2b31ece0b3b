import SoundsetRuntime
import SoundsetRuntimeTestSupport
import Testing

/// A locale is one type (`LocaleReading`): the registered ones are what `SpeechLocale` lists, and
/// a locale the tests alone define (`PairsLocale`) is read, sampled and guided through the same
/// paths as they are.
@Suite struct LocaleReadingTests {
    /// Every locale and the reading options worth trying in it, with and without its optional clips.
    static let readings: [(name: String, locale: any LocaleReading, options: ReadingOptions, variants: Set<String>)] =
        SpeechLocale.allCases.flatMap { locale in
            let options =
                locale == .zhCN
                ? ReadingOptions.Style.allCases.flatMap { style in
                    [false, true].flatMap { liang in
                        [false, true].map { zeros in ReadingOptions(style: style, useLiang: liang, keepTrailingZeros: zeros) }
                    }
                } : [ReadingOptions()]
            return options.flatMap { option in
                [Set<String>(), Set(locale.optionalClipNames)].map { (locale.rawValue, locale.reading, option, $0) }
            }
        } + [("x-pairs", PairsLocale(), ReadingOptions(), []), ("x-pairs loud", PairsLocale(), ReadingOptions(), [PairsLocale.loud])]

    @Test func theListIsTheLocalesTheManifestNames() {
        #expect(SpeechLocale.allCases.map(\.reading.tag) == SpeechLocale.allCases.map(\.rawValue))
        for locale in SpeechLocale.allCases {
            #expect(ClipGuide.of(locale).entries.map(\.name) == locale.reading.clipEntries.map(\.name))
            #expect(Set(locale.reading.clipEntries.map(\.name)).count == locale.reading.clipEntries.count, "\(locale): a clip listed twice")
        }
    }

    /// Every other spelling a locale knows names a clip its guide lists, and the guide finds it.
    @Test func otherSpellingsNameListedClips() {
        let locales: [any LocaleReading] = SpeechLocale.allCases.map(\.reading) + [PairsLocale()]
        for locale in locales {
            let names = Set(locale.clipEntries.map(\.name))
            for (spelling, clip) in locale.otherSpellings { #expect(names.contains(clip), "\(locale.tag): \(spelling) is \(clip), no clip") }
        }
        for locale in SpeechLocale.allCases {
            for (spelling, clip) in locale.reading.otherSpellings { #expect(ClipGuide.of(locale).clip(said: spelling) == clip, "\(spelling)") }
        }
        #expect(ClipGuide.of(.zhCN).clip(said: "萬") == "ten_thousand")
        #expect(ClipGuide.of(.enUS).clip(said: "萬") == nil)
    }

    /// The guide lists every clip the samples' readings use, and the samples hear every clip the
    /// guide says a set needs with those options (and the optional ones the set has).
    @Test(arguments: readings.indices)
    func theGuideCoversEverySamplesClips(index: Int) throws {
        let (name, locale, options, variants) = Self.readings[index]
        let maximum = try Amount("999999999999.99")
        let samples = SampleAmounts.covering(upTo: maximum, locale: locale, reading: options, variants: variants)
        let heard = Set(samples.flatMap { locale.read($0, options: options, variants: variants) })
        let listed = Set(locale.clipEntries.map(\.name))
        #expect(heard.subtracting(listed).isEmpty, "\(name): \(heard.subtracting(listed).sorted()) are in no entry")
        #expect(heard == Set(locale.clipNames(options: options)).union(variants), "\(name)")
    }

    @Test(arguments: [
        ("0", "0 coins"), ("0.07", "7 cents"), ("1", "1 coins"), ("100", "1 coins"), ("10001", "1 gap 1 coins"),
        ("1234.5", "12 34 coins and 50 cents"), ("990099.99", "99 gap 99 coins and 99 cents"),
        ("999999999999.01", "99 99 99 99 99 99 coins and 1 cents"),
    ])
    func theTestLocaleReadsThroughTheProtocol(amount: String, clips: String) throws {
        #expect(PairsLocale().read(try Amount(amount)).joined(separator: " ") == clips)
        let loud = PairsLocale().read(try Amount(amount), variants: [PairsLocale.loud]).joined(separator: " ")
        #expect(loud == clips.replacingOccurrences(of: "99 ", with: "99_loud ").replacingOccurrences(of: "99_loud cents", with: "99 cents"))
    }

    @Test func theTestLocalesGuideAndCopies() throws {
        let locale = PairsLocale()
        #expect(locale.optionalClipNames == [PairsLocale.loud])
        #expect(locale.clipNames().count == 104)
        // 101 says `1 1 coins`, 10100000 `10 10 coins`: the only clips that follow themselves.
        #expect(locale.copiesNeeded() == ["1", "10"])
        #expect(locale.copiesNeeded(prefix: "coins") == locale.copiesNeeded())
        #expect(locale.read(try Amount("101")) == ["1", "1", "coins"])
        #expect(locale.otherSpellings["nought"] == "0")
        #expect((locale.pageLanguage, locale.wordJoiner, locale.characterWidth, locale.pronunciationTitle) == ("x-pairs", "·", 7, "sound"))
    }

    /// zh-CN read through its `LocaleReading` (the machine the worst-case search walks, then the
    /// fraction) is `ChineseReading.tokens`, with every option and tone.
    @Test func chineseThroughTheProtocolIsTheTokens() throws {
        var generator = SplitMix64(seed: 30)
        let options = ReadingOptions.Style.allCases.flatMap { style in
            [false, true].flatMap { liang in [false, true].map { ReadingOptions(style: style, useLiang: liang, keepTrailingZeros: $0) } }
        }
        for index in 0..<4000 {
            let units = Int64(generator.next() % 100_000_000_000_000) / [1, 1000, 1_000_000, 1_000_000_000][index % 4]
            let amount = try Amount(minorUnits: units)
            let reading = options[index % options.count]
            let variants = [[], Set(ChineseReading.toneVariants), ["1_yi4"]][index % 3]
            let tokens = ChineseReading.tokens(for: amount, options: reading, variants: variants).map(\.clipName)
            #expect(SpeechLocale.zhCN.read(amount, options: reading, variants: variants) == tokens, "\(amount)")
        }
    }
}
