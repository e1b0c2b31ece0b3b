import SoundsetRuntime

/// The groups the page shows clips in, in the page's order.
enum ClipGroup: String, CaseIterable, Sendable {
    case digits = "Digits"
    case units = "Units"
    case phrases = "Phrases"
    case tones = "Tone variants"

    /// What the group holds, in a few words.
    var detail: String {
        switch self {
        case .digits: "the numbers read one by one"
        case .units: "places, the decimal point and the currency"
        case .phrases: "announcement phrases and clips the reading does not use"
        case .tones: "optional takes of 一 in its changed tones"
        }
    }

    /// The group of a guide entry, or of a clip the guide does not know (`nil`: a phrase).
    static func of(_ entry: ClipGuide.Entry?) -> ClipGroup {
        guard let entry else { return .phrases }
        switch entry.need {
        case .phrase: return .phrases
        case .optional: return .tones
        default:
            return entry.name.allSatisfy(\.isNumber) || entry.name == "liang" ? .digits : .units
        }
    }
}

/// What clips say, from the runtime's clip guide: the guide is the one place that knows it.
struct ClipWords: Sendable {
    let guide: ClipGuide

    init(_ locale: SpeechLocale) { guide = ClipGuide.of(locale) }

    /// The guide's entry of a clip, a Copy clip's (`2Copy`) being its original's (`2`).
    func entry(_ name: String) -> ClipGuide.Entry? {
        if let entry = guide.entries.first(where: { $0.name == name }) { return entry }
        guard name.hasSuffix(CopyRule.suffix) else { return nil }
        let original = String(name.dropLast(CopyRule.suffix.count))
        return guide.entries.first { $0.name == original }
    }

    /// What a clip says, written (十, "ten"), or its name when the guide does not know it.
    func says(_ name: String) -> String { entry(name)?.says ?? name }

    /// The position of a clip in the guide (unknown clips after every known one).
    func rank(_ name: String) -> Int { entry(name).flatMap { entry in guide.entries.firstIndex(of: entry) } ?? guide.entries.count }

    /// The announcement as written: each of the plan's clips as the guide writes it, in
    /// characters for zh-CN (收款到账一万零一十点五元) and words for en-US.
    func written(_ clips: [String]) -> String {
        clips.map(says).joined(separator: guide.locale.reading.wordJoiner)
    }

    /// The clips in groups, in the page's group order, each group in the guide's order (clips the
    /// guide does not know last, by name).
    func grouped<T>(_ items: [T], name: (T) -> String) -> [(group: ClipGroup, items: [T])] {
        ClipGroup.allCases.compactMap { group in
            let members = items.filter { ClipGroup.of(entry(name($0))) == group }
                .sorted { (rank(name($0)), name($0)) < (rank(name($1)), name($1)) }
            return members.isEmpty ? nil : (group, members)
        }
    }
}

/// One time scale: the same number of pixels for a second wherever it is used.
struct TimeScale: Sendable, Equatable {
    var pixelsPerSecond: Double

    /// The widest round scale that draws `seconds` in at most `width` pixels.
    static func fitting(_ seconds: Double, into width: Double) -> TimeScale {
        let steps: [Double] = [10, 20, 25, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500]
        let most = width / max(seconds, 0.001)
        return TimeScale(pixelsPerSecond: steps.last { $0 <= most } ?? steps[0])
    }

    func width(_ seconds: Double) -> Double { max(0, seconds) * pixelsPerSecond }

    /// The scale bar's length: half a second when that is long enough to read, else a second or more.
    var barSeconds: Double {
        if pixelsPerSecond * 0.5 >= 40 { return 0.5 }
        if pixelsPerSecond >= 40 { return 1 }
        return 2
    }

    /// An SVG scale bar with its length written beside it.
    var bar: String {
        let length = width(barSeconds)
        let label = barSeconds == 0.5 ? "0.5 s" : "\(Int(barSeconds)) s"
        return
            "<svg class=\"scalebar\" width=\"\(fmt(length + 60))\" height=\"16\" data-seconds=\"\(fmt(barSeconds))\" data-width=\"\(fmt(length))\" role=\"img\" aria-label=\"scale bar, \(label)\">"
            + "<path d=\"M1 4 V12 M1 8 H\(fmt(length + 1)) M\(fmt(length + 1)) 4 V12\"/>"
            + "<text x=\"\(fmt(length + 8))\" y=\"12\">\(label)</text></svg>"
    }

    /// How the page says the scale: `1 s = 150 px`.
    var text: String { "1 s = \(fmt(pixelsPerSecond)) px" }
}
