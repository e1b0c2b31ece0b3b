import Foundation

#if !canImport(CryptoKit)
    /// FIPS 180-4 SHA-256 in plain Swift, for where there is no CryptoKit (Linux: Foundation there
    /// has none, and the runtime links no C library). A clip is tens of kilobytes: one announcement
    /// hashes well under a megabyte.
    struct PlainSHA256: Sendable {
        private static let k: [UInt32] = [
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
        ]

        private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        private var pending: [UInt8] = []
        private var length: UInt64 = 0

        /// Adds `data` to the message.
        mutating func update(_ data: Data) {
            length &+= UInt64(data.count)
            data.withUnsafeBytes { raw in
                var bytes = raw[...]
                if !pending.isEmpty {
                    let take = min(64 - pending.count, bytes.count)
                    pending += bytes.prefix(take)
                    bytes = bytes.dropFirst(take)
                    guard pending.count == 64 else { return }
                    pending.withUnsafeBytes { compress(blocks: UnsafeRawBufferPointer(rebasing: $0[...])) }
                    pending.removeAll(keepingCapacity: true)
                }
                let whole = bytes.count / 64 * 64
                compress(blocks: UnsafeRawBufferPointer(rebasing: bytes.prefix(whole)))
                pending += bytes.dropFirst(whole)
            }
        }

        /// Pads the message, and returns the digest as lower-case hex.
        mutating func finalHex() -> String {
            let bits = length &* 8
            var tail = pending + [0x80]
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
            tail.withUnsafeBytes { compress(blocks: $0) }
            pending = []
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            for word in state {
                for shift in stride(from: 28, through: 0, by: -4) { text.append(digits[Int(word >> UInt32(shift) & 0xF)]) }
            }
            return String(decoding: text, as: UTF8.self)
        }

        /// Every 64-byte block of `blocks` (a whole number of them), with the message schedule in one
        /// buffer for all of them: the pointer loops keep a clip's hash to about 2 ms of an
        /// announcement's 6 (`make bench`; allocating the schedule per block took three times as long).
        /// Written for unoptimized builds too (the package's debug tool and tests hash every clip they
        /// compose or install): pointers, `while` loops and rotations written out compile to plain
        /// arithmetic at -Onone, where ranges, tuples and a helper function are calls (12x as slow).
        private mutating func compress(blocks: UnsafeRawBufferPointer) {
            guard blocks.count >= 64 else { return }
            Self.k.withUnsafeBufferPointer { k in
                state.withUnsafeMutableBufferPointer { state in
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                        Self.compress(blocks, k: k.baseAddress!, state: state.baseAddress!, w: schedule.baseAddress!)
                    }
                }
            }
        }

        private static func compress(
            _ blocks: UnsafeRawBufferPointer, k: UnsafePointer<UInt32>, state: UnsafeMutablePointer<UInt32>, w: UnsafeMutablePointer<UInt32>
        ) {
            var offset = 0
            while offset + 64 <= blocks.count {
                var i = 0
                while i < 16 {
                    w[i] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + i * 4, as: UInt32.self))
                    i += 1
                }
                while i < 64 {
                    let x = w[i - 15]
                    let y = w[i - 2]
                    let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
                    let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    i += 1
                }
                var a = state[0]
                var b = state[1]
                var c = state[2]
                var d = state[3]
                var e = state[4]
                var f = state[5]
                var g = state[6]
                var h = state[7]
                i = 0
                while i < 64 {
                    let sum1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
                    let t1 = h &+ sum1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                    let sum0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
                    let t2 = sum0 &+ ((a & b) ^ (a & c) ^ (b & c))
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                    i += 1
                }
                state[0] &+= a
                state[1] &+= b
                state[2] &+= c
                state[3] &+= d
                state[4] &+= e
                state[5] &+= f
                state[6] &+= g
                state[7] &+= h
                offset += 64
            }
        }
    }
#endif
