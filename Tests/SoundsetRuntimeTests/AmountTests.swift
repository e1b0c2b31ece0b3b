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

    @Test func errorsSayWhatIsWrong() {
        #expect(AmountError.sign.description == "an amount has no sign: write 12.50, not -12.50 or +12.50")
        #expect(AmountError.tooManyDecimals(3).description == "the amount has 3 decimals; at most 2 are allowed (it is never rounded)")
    }
}
