import SoundsetRuntime
import Testing

@Suite struct AmountTests {
    @Test(
        arguments: [
            ("0", 0), ("0.5", 50), ("0.05", 5), ("1", 100), ("1.00", 100), ("12.3", 1230), ("999999999999.99", 99_999_999_999_999),
            ("100000000000", 10_000_000_000_000),
        ] as [(String, Int64)])
    func parsesExactly(text: String, minorUnits: Int64) throws {
        #expect(try Amount(text).minorUnits == minorUnits)
    }

    @Test(arguments: [
        ("", AmountError.empty), ("-2.50", .sign), ("+1", .sign), ("−1", .sign), (" 1", .whitespace), ("1 000", .whitespace),
        ("1,000", .thousandsSeparator), ("1_000", .thousandsSeparator), ("1e3", .exponent), ("1.2E3", .exponent),
        ("１２", .fullWidthDigits), ("1.234", .tooManyDecimals(3)), ("0.001", .tooManyDecimals(3)), ("1000000000000", .tooLarge),
        ("01", .leadingZero), ("00.5", .leadingZero), ("12.", .missingDecimals), (".5", .notANumber), ("12abc", .notANumber),
        ("1.2.3", .notANumber), ("abc", .notANumber), ("١٢", .notANumber), ("NaN", .notANumber), ("0x10", .notANumber),
        // Text with an `e` that is no number written with an exponent is not a number.
        ("hello", .notANumber), ("../../etc/passwd", .notANumber), ("1e", .notANumber), ("e5", .notANumber), ("1e5e5", .notANumber),
        ("5e-2", .exponent), (".5e1", .exponent),
    ])
    func refusesWithASpecificError(text: String, error: AmountError) {
        #expect(throws: error) { try Amount(text) }
    }

    @Test func minorUnitsAreBounded() throws {
        #expect(try Amount(minorUnits: 12345).description == "123.45")
        #expect(try Amount(minorUnits: 5).description == "0.05")
        #expect(throws: AmountError.negative) { try Amount(minorUnits: -1) }
        #expect(throws: AmountError.tooLarge) { try Amount(minorUnits: 100_000_000_000_000) }
    }

    /// The hint names the amount the text most likely means, never a rounded one.
    @Test(arguments: [
        ("1e5", "the amount has an exponent: write 100000"),
        ("1.2E3", "the amount has an exponent: write 1200"),
        ("1.25e1", "the amount has an exponent: write 12.5"),
        ("5e-2", "the amount has an exponent: write 0.05"),
        ("1e-3", "the amount has an exponent: write it in plain digits (1200, not 1.2e3)"),
        ("1e-9223372036854775808", "the amount has an exponent: write it in plain digits (1200, not 1.2e3)"),
        ("1e20", "the amount has an exponent: write it in plain digits (1200, not 1.2e3)"),
        (".", "the amount is not a number: write digits with at most one point, like 123.45"),
        ("+.", "an amount has no sign: write 12.50, not -12.50 or +12.50"),
        ("1'5", "the amount contains a thousands separator: write 1234.50, not 1,234.50"),
        ("1 2", "the amount contains spaces: write 1234.50"),
        ("1 000", "the amount contains spaces: write 1000"),
        ("12\u{00A0}", "the amount contains spaces: write 12"),
        ("1_50", "the amount contains a thousands separator: write 1234.50, not 1,234.50"),
        (".5", "the amount is not a number: write 0.5"),
        ("12.", "the amount ends with a point: write 12"),
        ("+12.50", "an amount has no sign: write 12.50"),
        ("-12.50", "an amount has no sign: write 12.50, not -12.50 or +12.50"),
        ("1,234.50", "the amount contains a thousands separator: write 1234.50"),
        ("1,5", "the amount has a decimal comma: write 1.5, with a point"),
        ("12,50", "the amount has a decimal comma: write 12.50, with a point"),
        ("1.000,50", "the amount has a decimal comma: write 1000.50, with a point"),
        ("1,0000", "the amount contains a thousands separator: write 1234.50, not 1,234.50"),
        ("1_000", "the amount contains a thousands separator: write 1000"),
        (" 7 ", "the amount contains spaces: write 7"),
        ("07.50", "the amount has a leading zero: write 7.50"),
        ("\u{FF11}\u{FF12}", "the amount has full-width digits: write 12"),
        ("1.234", "the amount has 3 decimals; at most 2 are allowed (it is never rounded)"),
        ("12abc", "the amount is not a number: write digits with at most one point, like 123.45"),
    ])
    func hintsUseTheInput(text: String, message: String) throws {
        let error = try #require(throws: AmountError.self) { try Amount(text) }
        #expect(error.explaining(text) == message)
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(AmountError.sign.description == "an amount has no sign: write 12.50, not -12.50 or +12.50")
        #expect(AmountError.tooManyDecimals(3).description == "the amount has 3 decimals; at most 2 are allowed (it is never rounded)")
    }
}
