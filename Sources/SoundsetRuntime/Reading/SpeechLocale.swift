/// A locale soundset can read amounts in.
public enum SpeechLocale: String, CaseIterable, Sendable, Codable {
    case zhCN = "zh-CN"
    case enUS = "en-US"

    /// The clip names that read `amount`, before the Copy rule.
    /// - Parameter variants: the optional clips the set has that the reading may use instead of a
    ///   plain one (zh-CN: `ChineseReading.toneVariants`).
    public func read(_ amount: Amount, options: ReadingOptions = ReadingOptions(), variants: Set<String> = []) -> [String] {
        reading.read(amount, options: options, variants: variants)
    }

    /// The clips a set may have that a reading uses in place of plain ones where they fit.
    public var optionalClipNames: [String] { reading.optionalClipNames }

    /// Every clip name a reading in this locale can need with `options` (`ClipGuide`).
    public func clipNames(options: ReadingOptions = ReadingOptions()) -> [String] {
        reading.clipNames(options: options)
    }

    /// The clips that can follow themselves in an announcement, so that the Copy rule needs their
    /// `<name>Copy` (zh-CN: the decimal digits 1-9, and 0 with keepTrailingZeros; `LocaleReading.copiesNeeded`).
    public func copiesNeeded(
        options: ReadingOptions = ReadingOptions(), prefix: String? = nil, suffix: String? = nil, variants: Set<String> = []
    ) -> [String] {
        reading.copiesNeeded(options: options, prefix: prefix, suffix: suffix, variants: variants)
    }
}

extension LocaleReading {
    /// The clips that can follow themselves in an announcement, so that the Copy rule needs their
    /// `<name>Copy` (zh-CN: the decimal digits 1-9, and 0 with keepTrailingZeros).
    ///
    /// A whole part never repeats a clip by itself (the tests read every one up to 2,000,000), so a
    /// repeat can only meet the fraction, the prefix or the suffix. Every fraction is read with whole
    /// parts that reach every first and last clip (0-120, and 万, 亿 and 千亿 shapes).
    package func copiesNeeded(
        options: ReadingOptions = ReadingOptions(), prefix: String? = nil, suffix: String? = nil, variants: Set<String> = []
    ) -> [String] {
        var wholes = Array(Int64(0)...120)
        for scale in [Int64(10_000), 100_000_000, 100_000_000_000] {
            wholes += [1, 2, 10, 11, 12, 20, 101, 110, 1001, 1010, 1100, 2002].map { $0 * scale }
            wholes += [scale + 1, scale + 10, scale * 10 + 1]
        }
        // A whole part reads the same whatever the cents (only a zero whole part may be left out),
        // and the cents read the same after any whole part above zero: so every whole part with no
        // cents, and every cents after a few whole parts of each kind, meet every pair of
        // neighbours there is (the tests hold this to all the whole parts with all the cents).
        let withEveryCents: Set<Int64> = [0, 1, 2, 10, 11, 20, 22, 100, 1000, 10_000, 100_000_000]
        var needed = Set<String>()
        for whole in wholes where whole < 1_000_000_000_000 {
            for cents in withEveryCents.contains(whole) ? Array(Int64(0)...99) : [0] {
                guard let amount = try? Amount(minorUnits: whole * 100 + cents) else { continue }
                let names = [prefix].compactMap { $0 } + read(amount, options: options, variants: variants) + [suffix].compactMap { $0 }
                for (a, b) in zip(names, names.dropFirst()) where a == b { needed.insert(a) }
            }
        }
        return needed.sorted()
    }
}
