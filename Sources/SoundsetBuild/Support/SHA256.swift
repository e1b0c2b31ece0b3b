import Foundation

/// FIPS 180-4 SHA-256, for the manifest's file hashes (Foundation on Linux has no CryptoKit).
public struct SHA256: Sendable {
    static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The eight working words of the hash.
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    static let initialState: State = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

    /// The lower-case hex digest of `data`.
    public static func hex(_ data: Data) -> String {
        data.withUnsafeBytes { finish(initialState, bytes: $0, from: 0) }
    }

    /// `state` after the full blocks of `bytes` from block `first`, then the tail, the 0x80 marker,
    /// zeros and the length in bits (one or two final blocks), as lower-case hex.
    static func finish(_ start: State, bytes: UnsafeRawBufferPointer, from first: Int) -> String {
        var state = start
        let fullBlocks = bytes.count / 64
        var tail = [UInt8](bytes[(fullBlocks * 64)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bitLength = UInt64(bytes.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            roundConstants.withUnsafeBufferPointer { constants in
                for block in first..<fullBlocks { compress(&state, bytes.baseAddress! + block * 64, schedule, constants) }
                tail.withUnsafeBytes { tail in
                    for block in 0..<(tail.count / 64) { compress(&state, tail.baseAddress! + block * 64, schedule, constants) }
                }
            }
        }
        return [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7].map { word in
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 8 - text.count) + text
        }.joined()
    }

    /// The lower-case hex digests of `messages`, in order: four at a time, one per SIMD lane, for as
    /// many blocks as all four have, then each on its own. Messages of similar length go together.
    public static func hex(_ messages: [Data]) -> [String] {
        var digests = [String](repeating: "", count: messages.count)
        let order = messages.indices.sorted { messages[$0].count > messages[$1].count }
        var group = 0
        while group < order.count {
            let members = Array(order[group..<min(order.count, group + 4)])
            group += 4
            guard members.count > 1 else {
                digests[members[0]] = hex(messages[members[0]])
                continue
            }
            // Empty lanes repeat the last member; their results are not used.
            let lanes = (0..<4).map { messages[members[min($0, members.count - 1)]] }
            let common = lanes.map { $0.count / 64 }.min() ?? 0
            guard common > 0 else {
                for member in members { digests[member] = hex(messages[member]) }
                continue
            }
            lanes[0].withUnsafeBytes { b0 in
                lanes[1].withUnsafeBytes { b1 in
                    lanes[2].withUnsafeBytes { b2 in
                        lanes[3].withUnsafeBytes { b3 in
                            let bytes = [b0, b1, b2, b3]
                            let states = SHA256Lanes.compress(
                                (b0.baseAddress!, b1.baseAddress!, b2.baseAddress!, b3.baseAddress!), blocks: common)
                            for (lane, member) in members.enumerated() {
                                digests[member] = finish(states[lane], bytes: bytes[lane], from: common)
                            }
                        }
                    }
                }
            }
        }
        return digests
    }

    /// One 64-byte block of the compression function; `schedule` is scratch for 64 words.
    @inline(__always)
    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ block: UnsafeRawPointer,
        _ schedule: UnsafeMutableBufferPointer<UInt32>, _ constants: UnsafeBufferPointer<UInt32>
    ) {
        for index in 0..<16 {
            schedule[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
        }
        for index in 16..<64 {
            let w15 = schedule[index - 15], w2 = schedule[index - 2]
            let s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >> 3)
            let s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >> 10)
            schedule[index] = schedule[index - 16] &+ s0 &+ schedule[index - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        var index = 0
        while index < 64 {
            round(a, b, c, &d, e, f, g, &h, constants[index] &+ schedule[index])
            round(h, a, b, &c, d, e, f, &g, constants[index + 1] &+ schedule[index + 1])
            round(g, h, a, &b, c, d, e, &f, constants[index + 2] &+ schedule[index + 2])
            round(f, g, h, &a, b, c, d, &e, constants[index + 3] &+ schedule[index + 3])
            round(e, f, g, &h, a, b, c, &d, constants[index + 4] &+ schedule[index + 4])
            round(d, e, f, &g, h, a, b, &c, constants[index + 5] &+ schedule[index + 5])
            round(c, d, e, &f, g, h, a, &b, constants[index + 6] &+ schedule[index + 6])
            round(b, c, d, &e, f, g, h, &a, constants[index + 7] &+ schedule[index + 7])
            index += 8
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }

    /// The lower-case hex digest of the file at `url`.
    public static func hex(fileAt url: URL) throws -> String { hex(try Data(contentsOf: url)) }

    /// One round: the eight working words in their roles for this round (the caller rotates the names).
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ constantPlusWord: UInt32
    ) {
        let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ (g ^ (e & (f ^ g))) &+ constantPlusWord
        let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) | (c & (a | b)))
        d = d &+ t1
        h = t1 &+ t2
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }
}
