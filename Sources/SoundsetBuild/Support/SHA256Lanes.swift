/// The SHA-256 compression function on four messages at once, one per lane of `SIMD4<UInt32>`:
/// every step of a round is one vector instruction for all four (SSE2 on x86-64, NEON on arm64),
/// about twice the speed of four scalar runs. Used by `SHA256.hex(_ messages:)`.
enum SHA256Lanes {
    typealias Lanes = SIMD4<UInt32>

    /// The rotation and shift counts of the round and schedule functions, read from memory: given
    /// constants, the optimizer turns (x >> n) | (x << (32 - n)) into a vector rotate, which SSE2
    /// lacks, and then splits it into four scalar rotates (measured: half the speed). Read from
    /// memory, the counts are opaque to it, and each rotate stays two vector shifts and an or.
    private final class Counts: @unchecked Sendable {
        // Safe: written once, here, and only read after.
        let pointer: UnsafeMutablePointer<UInt32>
        init() {
            let counts: [UInt32] = [6, 26, 11, 21, 25, 7, 2, 30, 13, 19, 22, 10, 7, 25, 18, 14, 3, 17, 15, 19, 13, 10]
            pointer = .allocate(capacity: counts.count)
            pointer.initialize(from: counts, count: counts.count)
        }
    }
    private static let counts = Counts()

    /// The states of the four messages starting at `messages` after their first `blocks` 64-byte
    /// blocks, from the initial state.
    static func compress(
        _ messages: (UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer, UnsafeRawPointer), blocks: Int
    ) -> [SHA256.State] {
        let start = SHA256.initialState
        var state = (
            Lanes(repeating: start.0), Lanes(repeating: start.1), Lanes(repeating: start.2), Lanes(repeating: start.3),
            Lanes(repeating: start.4), Lanes(repeating: start.5), Lanes(repeating: start.6), Lanes(repeating: start.7)
        )
        let c = counts.pointer
        let (r6, l26, r11, l21, r25, l7, r2, l30, r13, l19, r22, l10) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11])
        let (r7, l25, r18, l14, s3, r17, l15, r19, l13, s10) = (c[12], c[13], c[14], c[15], c[16], c[17], c[18], c[19], c[20], c[21])
        withUnsafeTemporaryAllocation(of: Lanes.self, capacity: 64) { w in
            SHA256.roundConstants.withUnsafeBufferPointer { k in
                for block in 0..<blocks {
                    let offset = block * 64
                    for i in 0..<16 {
                        func word(_ message: UnsafeRawPointer) -> UInt32 {
                            UInt32(bigEndian: message.loadUnaligned(fromByteOffset: offset + i * 4, as: UInt32.self))
                        }
                        w[i] = Lanes(word(messages.0), word(messages.1), word(messages.2), word(messages.3))
                    }
                    for i in 16..<64 {
                        let w15 = w[i - 15], w2 = w[i - 2]
                        let s0 = ((w15 &>> r7) | (w15 &<< l25)) ^ ((w15 &>> r18) | (w15 &<< l14)) ^ (w15 &>> s3)
                        let s1 = ((w2 &>> r17) | (w2 &<< l15)) ^ ((w2 &>> r19) | (w2 &<< l13)) ^ (w2 &>> s10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var (a, b, cc, d, e, f, g, h) = state
                    // One round, the working words in their roles for it (the caller rotates the names).
                    @inline(__always) func round(_ a: Lanes, _ b: Lanes, _ c: Lanes, _ d: inout Lanes, _ e: Lanes, _ f: Lanes, _ g: Lanes, _ h: inout Lanes, _ i: Int) {
                        let s1 = ((e &>> r6) | (e &<< l26)) ^ ((e &>> r11) | (e &<< l21)) ^ ((e &>> r25) | (e &<< l7))
                        let t1 = h &+ s1 &+ (g ^ (e & (f ^ g))) &+ Lanes(repeating: k[i]) &+ w[i]
                        let s0 = ((a &>> r2) | (a &<< l30)) ^ ((a &>> r13) | (a &<< l19)) ^ ((a &>> r22) | (a &<< l10))
                        d = d &+ t1
                        h = t1 &+ s0 &+ ((a & b) | (c & (a | b)))
                    }
                    var i = 0
                    while i < 64 {
                        round(a, b, cc, &d, e, f, g, &h, i)
                        round(h, a, b, &cc, d, e, f, &g, i + 1)
                        round(g, h, a, &b, cc, d, e, &f, i + 2)
                        round(f, g, h, &a, b, cc, d, &e, i + 3)
                        round(e, f, g, &h, a, b, cc, &d, i + 4)
                        round(d, e, f, &g, h, a, b, &cc, i + 5)
                        round(cc, d, e, &f, g, h, a, &b, i + 6)
                        round(b, cc, d, &e, f, g, h, &a, i + 7)
                        i += 8
                    }
                    state = (
                        state.0 &+ a, state.1 &+ b, state.2 &+ cc, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
                    )
                }
            }
        }
        return (0..<4).map { lane in
            (state.0[lane], state.1[lane], state.2[lane], state.3[lane], state.4[lane], state.5[lane], state.6[lane], state.7[lane])
        }
    }
}
