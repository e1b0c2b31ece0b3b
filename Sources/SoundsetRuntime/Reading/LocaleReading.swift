/// Everything soundset knows of one locale, in one type: the clips to record and what each says,
/// how an amount is read into them, how the sample search moves through amounts, the machine the
/// worst-case search walks, and how the report writes what the clips say.
///
/// Adding a locale is one new file with a type conforming to this, and one line in
/// `SpeechLocale.reading` (with its case in `SpeechLocale`). Every reading is derived here from three
/// parts, so the reading, the guide, the samples and the worst-case search cannot disagree: below 1,
/// `belowOne`; from 1 up, what `wholeMachine` says of the whole part, then `fraction`.
///
/// `package`: the app reads amounts through `SpeechLocale`; the build, the check and the report ask
/// this.
package protocol LocaleReading: Sendable {
    associatedtype WholeMachine: WholeReadingMachine

    /// The locale's tag, as the manifest and `--locale` write it (`zh-CN`): `SpeechLocale`'s raw value.
    var tag: String { get }

    /// Every clip a set of the locale may have, what it says and when it is needed (`ClipGuide`).
    var clipEntries: [ClipGuide.Entry] { get }

    /// Other ways a file name may write what a clip says (`萬` for `ten_thousand`), beside the
    /// entries' own `says`; empty when there are none (`ClipGuide.clip(said:)`).
    var otherSpellings: [String: String] { get }

    /// The clips that read an amount below 1: `cents` from 0 to 99.
    func belowOne(_ cents: Int, options: ReadingOptions) -> [String]

    /// The machine that reads a whole part of 1 or more, from its highest digit (or group of digits),
    /// in its first state. The reading and the worst-case search both walk it.
    /// - Parameter variants: the optional clips the set has (`ClipGuide.Need.optional`).
    func wholeMachine(options: ReadingOptions, variants: Set<String>) -> WholeMachine

    /// What `cents` (0-99) add after a whole part of 1 or more, up to the end of the reading.
    func fraction(_ cents: Int, options: ReadingOptions) -> [String]

    /// How many digits the sample search changes at once (`SampleAmounts`), as powers of ten: `[10]`
    /// where each word is one digit's (or its place's), `[10, 100]` where two digits can be one word
    /// (thirteen, forty).
    var sampleDigitRuns: [Int64] { get }

    /// The language of what the clips say, as the report page's `lang` writes it (`zh-CN`, `en`).
    var pageLanguage: String { get }

    /// What stands between two clips' words when an announcement is written out ("" in zh-CN, a
    /// space in en-US).
    var wordJoiner: String { get }

    /// The width, in pixels, the report allows for one written character of a clip's words.
    var characterWidth: Double { get }

    /// What the guide's `pronounced` column is called (`pinyin`), or nil when no entry has one.
    var pronunciationTitle: String? { get }
}

/// A locale's reading of a whole part, one step at a time: the steps are the digits of the whole
/// part in `base` (10, or 1000 for three-digit groups), `positions` of them from the highest (a
/// whole part is below 10^12), zeros padding the front. The state is what the next step needs of
/// the steps before it, and nothing more: the worst-case search remembers each (position, state)
/// once, so a small state keeps it fast.
package protocol WholeReadingMachine: Hashable, Sendable {
    /// The base of one step.
    var base: Int { get }
    /// The number of steps (`base` to that power is 10^12).
    var positions: Int { get }
    /// Something has been said.
    var started: Bool { get }
    /// What the step `digit` (0 ..< `base`) at `position` (0 = the highest) adds to the reading.
    mutating func read(_ digit: Int, at position: Int) -> [String]
    /// What ends the whole part after its last step (元 in yuanJiaoFen style, dollar or dollars), or
    /// nil when nothing was said. When it says nothing, a fraction that says something must always
    /// follow (the worst-case search counts the end pad of a whole part's last clip only when that
    /// clip is one of these).
    func end() -> [String]?
}

extension WholeReadingMachine {
    /// The whole part `value` (0 ..< 10^12) read from this state: its steps and its end.
    package func reading(_ value: Int64) -> [String] {
        var machine = self
        var clips: [String] = []
        var place: Int64 = 1
        for _ in 1..<positions { place *= Int64(base) }
        for position in 0..<positions {
            clips += machine.read(Int(value / place % Int64(base)), at: position)
            place /= Int64(base)
        }
        return clips + (machine.end() ?? [])
    }
}

extension LocaleReading {
    /// The clip names that read `amount`, before the Copy rule (`SpeechLocale.read`).
    package func read(_ amount: Amount, options: ReadingOptions = ReadingOptions(), variants: Set<String> = []) -> [String] {
        let whole = amount.integerPart
        guard whole > 0 else { return belowOne(amount.fraction, options: options) }
        return wholeClips(whole, options: options, variants: variants) + fraction(amount.fraction, options: options)
    }

    /// What a whole part of 1 or more says before the fraction.
    package func wholeClips(_ value: Int64, options: ReadingOptions, variants: Set<String> = []) -> [String] {
        wholeMachine(options: options, variants: variants).reading(value)
    }

    /// Every clip name a reading with `options` can need (`ClipGuide.needed`).
    package func clipNames(options: ReadingOptions = ReadingOptions()) -> [String] {
        clipEntries.filter { $0.need.isNeeded(with: options) }.map(\.name)
    }

    /// The clips a set may have that a reading uses in place of plain ones where they fit.
    package var optionalClipNames: [String] { clipEntries.filter { $0.need == .optional }.map(\.name) }
}

extension SpeechLocale {
    /// The locale's reading: the one list of the locales there are.
    package var reading: any LocaleReading {
        switch self {
        case .zhCN: ChineseLocale()
        case .enUS: EnglishLocale()
        }
    }
}
