import SoundsetRuntime

/// A locale that exists only in the tests, in one file as a real one is (`LocaleReading`): the
/// proof that a locale is what the protocol asks and nothing more. It reads the whole part in
/// pairs of digits (base 100), each pair one word `0`-`99`, a run of zero pairs inside the number
/// said once as `gap`, then `coins`; the cents are `and N cents`. A set that has the optional
/// `99_loud` says it for a 99 pair of the whole part.
///
/// `1` is `1 coins`, `10001` is `1 gap 1 coins`, `1234.5` is `12 34 coins and 50 cents`, `0` is
/// `0 coins`, `0.07` is `7 cents`.
package struct PairsLocale: LocaleReading {
    package init() {}

    package static let loud = "99_loud"

    package var tag: String { "x-pairs" }

    package func belowOne(_ cents: Int, options: ReadingOptions) -> [String] {
        cents == 0 ? ["0", "coins"] : [String(cents), "cents"]
    }

    package func wholeMachine(options: ReadingOptions, variants: Set<String>) -> WholeMachine {
        WholeMachine(loud: variants.contains(Self.loud))
    }

    package func fraction(_ cents: Int, options: ReadingOptions) -> [String] {
        cents == 0 ? [] : ["and", String(cents), "cents"]
    }

    package struct WholeMachine: WholeReadingMachine {
        let loud: Bool
        package private(set) var started = false
        /// Zero pairs stand after the last spoken pair: one `gap` is due before the next.
        var pendingGap = false
        package var base: Int { 100 }
        package var positions: Int { 6 }
        package mutating func read(_ pair: Int, at position: Int) -> [String] {
            guard pair > 0 else {
                if started { pendingGap = true }
                return []
            }
            let word = loud && pair == 99 ? PairsLocale.loud : String(pair)
            defer { (started, pendingGap) = (true, false) }
            return pendingGap ? ["gap", word] : [word]
        }
        package func end() -> [String]? { started ? ["coins"] : nil }
    }

    package var sampleDigitRuns: [Int64] { [10, 100] }
    package var pageLanguage: String { "x-pairs" }
    package var wordJoiner: String { "·" }
    package var characterWidth: Double { 7 }
    package var pronunciationTitle: String? { "sound" }
    package var otherSpellings: [String: String] { ["nought": "0"] }

    package var clipEntries: [ClipGuide.Entry] {
        (0...99).map { ClipGuide.Entry(name: String($0), says: "n\($0)", pronounced: "\($0)", need: .always, note: nil) }
            + ["gap", "coins", "and", "cents"].map { ClipGuide.Entry(name: $0, says: $0, pronounced: nil, need: .always, note: nil) }
            + [
                ClipGuide.Entry(name: Self.loud, says: "n99", pronounced: "99!", need: .optional, note: "a 99 pair of the whole part"),
                ClipGuide.Entry(name: "received", says: "got it", pronounced: nil, need: .phrase, note: nil),
            ]
    }

    /// The clip names `clipEntries` lists, for tests that weigh every clip.
    package static var clipNames: [String] { PairsLocale().clipEntries.map(\.name) }
}
