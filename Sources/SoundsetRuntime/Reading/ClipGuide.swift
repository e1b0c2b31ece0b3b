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
    }

    public var locale: SpeechLocale
    public var entries: [Entry]

    /// The guide of `locale`.
    public static func of(_ locale: SpeechLocale) -> ClipGuide {
        switch locale {
        case .zhCN: ClipGuide(locale: locale, entries: chinese)
        case .enUS: ClipGuide(locale: locale, entries: english)
        }
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
        guard locale == .zhCN else { return nil }
        let other: [String: String] = [
            "〇": "0", "壹": "1", "贰": "2", "貳": "2", "叁": "3", "參": "3", "肆": "4", "伍": "5", "陆": "6", "陸": "6", "柒": "7", "捌": "8",
            "玖": "9", "拾": "ten", "佰": "hundred", "仟": "thousand", "萬": "ten_thousand", "億": "hundred_million", "兩": "liang", "點": "point",
            "圆": "yuan", "圓": "yuan", "收款到帐": "received",
        ]
        return other[text]
    }

    private static let chinese: [Entry] =
        [
            ("0", "零", "líng"), ("1", "一", "yī"), ("2", "二", "èr"), ("3", "三", "sān"), ("4", "四", "sì"), ("5", "五", "wǔ"),
            ("6", "六", "liù"), ("7", "七", "qī"), ("8", "八", "bā"), ("9", "九", "jiǔ"), ("ten", "十", "shí"), ("hundred", "百", "bǎi"),
            ("thousand", "千", "qiān"), ("ten_thousand", "万", "wàn"), ("hundred_million", "亿", "yì"),
        ].map { Entry(name: $0.0, says: $0.1, pronounced: $0.2, need: .always, note: nil) }
        + [
            Entry(name: "point", says: "点", pronounced: "diǎn", need: .pointStyle, note: nil),
            Entry(name: "yuan", says: "元", pronounced: "yuán", need: .always, note: nil),
            Entry(name: "liang", says: "两", pronounced: "liǎng", need: .useLiang, note: "2 in the 千 and 百 places and as a whole 万 or 亿 group"),
            Entry(name: "jiao", says: "角", pronounced: "jiǎo", need: .yuanJiaoFen, note: nil),
            Entry(name: "fen", says: "分", pronounced: "fēn", need: .yuanJiaoFen, note: nil),
            Entry(name: "1_yi2", says: "一", pronounced: "yí", need: .optional, note: "before 万 and 亿: 一万, 十一万, 一亿"),
            Entry(name: "1_yi4", says: "一", pronounced: "yì", need: .optional, note: "before 十, 百 and 千: 一百, 一千, 一百一十"),
            Entry(name: "received", says: "收款到账", pronounced: "shōukuǎn dàozhàng", need: .phrase, note: "the demo's prefix; any clip name will do"),
        ]

    private static let english: [Entry] =
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
            "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ].enumerated().map { Entry(name: String($0.offset), says: $0.element, pronounced: nil, need: .always, note: nil) }
        + [("20", "twenty"), ("30", "thirty"), ("40", "forty"), ("50", "fifty"), ("60", "sixty"), ("70", "seventy"), ("80", "eighty"), ("90", "ninety")]
        .map { Entry(name: $0.0, says: $0.1, pronounced: nil, need: .always, note: nil) }
        + ["hundred", "thousand", "million", "billion", "dollar", "dollars", "and", "cent", "cents"].map {
            Entry(name: $0, says: $0, pronounced: nil, need: .always, note: nil)
        }
        + [Entry(name: "received", says: "payment received", pronounced: nil, need: .phrase, note: "a prefix; any clip name will do")]

    /// What the clips `names` say, as a person reads them (`received` is 收款到账), joined with
    /// "and"; a name the guide does not know stands for itself.
    public func saying(_ names: [String]) -> String {
        names.map { name in entries.first { $0.name == name }.map(\.says) ?? name }.joined(separator: " and ")
    }

    /// The clip names a set read with `options` needs: what `SpeechLocale.clipNames(options:)` lists.
    public func needed(options: ReadingOptions) -> [String] {
        entries.filter { entry in
            switch entry.need {
            case .always: true
            case .pointStyle: options.style == .point
            case .yuanJiaoFen: options.style == .yuanJiaoFen
            case .useLiang: options.useLiang
            case .optional, .phrase: false
            }
        }.map(\.name)
    }
}
