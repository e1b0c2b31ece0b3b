import Foundation
import SoundsetBuild
import Testing

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownDigests(input: String, digest: String) {
        #expect(SHA256.hex(Data(input.utf8)) == digest)
    }

    /// Several messages at once (four per group on SIMD lanes, the rest on their own) give each one's
    /// own digest, whatever the mix of lengths: empty, around the 55/56/64-byte padding edges, long.
    @Test func manyMessagesAtOnceMatchOneByOne() {
        let lengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 4096, 100_000, 100_001]
        var messages = lengths.enumerated().map { index, length in
            Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* (index + 7) &+ $0 >> 8) })
        }
        messages += (0..<5).map { seed in Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* (seed + 3)) }) }
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, messages.count] {
            let some = Array(messages.prefix(count))
            #expect(SHA256.hex(some) == some.map { SHA256.hex($0) }, "\(count) messages")
        }
        #expect(SHA256.hex([Data("abc".utf8), Data(repeating: 0x61, count: 1_000_000)]) == [
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
        ])
    }

    @Test func millionAs() {
        #expect(SHA256.hex(Data(repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
