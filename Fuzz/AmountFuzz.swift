// libFuzzer target: amount text never crashes the parser, and what it accepts round-trips exactly.
// Built by `make fuzz` together with the SoundsetRuntime sources (swiftc -sanitize=fuzzer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAmount(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let amount = try? Amount(text) {
        precondition(amount.minorUnits >= 0 && amount.minorUnits <= Amount.maxMinorUnits)
        precondition((try? Amount(amount.description)) == amount, "round trip of \(text)")
        for locale in SpeechLocale.allCases {
            let clips = CopyRule.apply(locale.read(amount, options: ReadingOptions(style: .yuanJiaoFen, useLiang: true)))
            precondition(!zip(clips, clips.dropFirst()).contains { $0 == $1 })
        }
    }
    return 0
}
