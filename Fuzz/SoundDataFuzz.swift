import Foundation

// libFuzzer target: the composer's CAF/WAV reader never reads out of bounds or traps on any bytes,
// and what it accepts re-encodes to a file it reads back identically.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundData(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let sound = try? SoundData(parsing: bytes, name: "fuzz") {
        let again = try? SoundData(parsing: sound.encoded(), name: "again")
        precondition(again == sound)
        _ = try? Composer.compose([sound, sound], names: ["a", "b"], gapFrames: 3)
    }
    return 0
}
