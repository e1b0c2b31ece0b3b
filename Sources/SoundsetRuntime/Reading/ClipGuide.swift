/// What a voice actor records for a locale: every clip the reading can use, what is said in it and
/// when it is needed. `soundset clips` prints it and the README shows it; both come from here, and
/// the tests hold it to the reading's own clip lists, so none of them can drift.
public struct ClipGuide: Sendable, Equatable, Codable {
    /// When a clip is needed.
    public enum Need: String, Sendable, Equatable, Codable {
        /// Every set of the locale.
        case always
        /// With `reading.style` `point` (the default).
        case pointStyle
        /// With `reading.style` `yuanJiaoFen`.
        case yuanJiaoFen
        /// With `reading.useLiang`.
        case useLiang
        /// Never: used where it fits when the set has it (the tones of 一).
        case optional
        /// When `announcement.prefix` (or `suffix`) names it.
        case phrase

        /// How the README and `soundset clips` say it.
        public var text: String {
            switch self {
            case .always: "always"
            case .pointStyle: "always, unless reading.style is yuanJiaoFen"
            case .yuanJiaoFen: "reading.style yuanJiaoFen"
            case .useLiang: "reading.useLiang"
            case .optional: "optional"
            case .phrase: "as announcement.prefix or suffix"
            }
        }

        /// Whether every set read with `options` needs the clip.
        package func isNeeded(with options: ReadingOptions) -> Bool {
            switch self {
            case .always: true
            case .pointStyle: options.style == .point
            case .yuanJiaoFen: options.style == .yuanJiaoFen
            case .useLiang: options.useLiang
            case .optional, .phrase: false
            }
        }
    }

    /// One clip to record.
    public struct Entry: Sendable, Equatable, Codable {
        /// The clip name: the recording's file name without its extension.
        public var name: String
        /// What is said, as written (十, 收款到账, "dollars").
        public var says: String
        /// How it is pronounced (pinyin for zh-CN), or nil.
        public var pronounced: String?
        public var need: Need
        /// When it is used, in a few words, where that is not plain.
        public var note: String?

        package init(name: String, says: String, pronounced: String?, need: Need, note: String?) {
            self.name = name
            self.says = says
            self.pronounced = pronounced
            self.need = need
            self.note = note
        }
    }

    public var locale: SpeechLocale
    public var entries: [Entry]

    /// The guide of `locale` (its `LocaleReading`'s entries).
    public static func of(_ locale: SpeechLocale) -> ClipGuide {
        ClipGuide(locale: locale, entries: locale.reading.clipEntries)
    }

    /// The clip recorded as `text` (a file named in characters, `两`, `十`, `萬`), when one is.
    /// Spaces around the name are ignored, and full-width digits are their clips (`１` is `1`).
    /// 块 (kuài) is not 元 (yuán): a set says what its takes say, so it is no clip's.
    public func clip(said text: String) -> String? {
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        let text = String(String.UnicodeScalarView(scalars.map(\.halfWidth)))
        if let entry = entries.first(where: { $0.says == text && $0.need != .optional }) { return entry.name }
        if entries.contains(where: { $0.name == text && $0.name.allSatisfy(\.isNumber) }) { return text }
        return locale.reading.otherSpellings[text]
    }

    /// What the clips `names` say, as a person reads them (`received` is 收款到账), joined with
    /// "and"; a name the guide does not know stands for itself.
    public func saying(_ names: [String]) -> String {
        names.map { name in entries.first { $0.name == name }.map(\.says) ?? name }.joined(separator: " and ")
    }

    /// The clip names a set read with `options` needs: what `SpeechLocale.clipNames(options:)` lists.
    public func needed(options: ReadingOptions) -> [String] {
        entries.filter { $0.need.isNeeded(with: options) }.map(\.name)
    }
}
