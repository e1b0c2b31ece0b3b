import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#endif

/// SHA-256, so the runtime can check a clip against the manifest's sha256: CryptoKit's on Apple
/// platforms (the system's, hardware-accelerated, nothing for the app to carry), and on Linux,
/// where Foundation has no CryptoKit, `PlainSHA256`, FIPS 180-4 in plain Swift.
public struct SHA256Digest {
    #if canImport(CryptoKit)
        private var hasher = CryptoKit.SHA256()
    #else
        private var hasher = PlainSHA256()
    #endif

    /// A digest of the empty message, to `update`.
    public init() {}

    /// The lower-case hex digest of `data`.
    public static func hex(_ data: Data) -> String {
        var digest = SHA256Digest()
        digest.update(data)
        return digest.finalHex()
    }

    /// Adds `data` to the message.
    public mutating func update(_ data: Data) {
        #if canImport(CryptoKit)
            hasher.update(data: data)
        #else
            hasher.update(data)
        #endif
    }

    /// The digest of the message so far, as lower-case hex.
    public mutating func finalHex() -> String {
        #if canImport(CryptoKit)
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(64)
            for byte in hasher.finalize() {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xF)])
            }
            return String(decoding: text, as: UTF8.self)
        #else
            return hasher.finalHex()
        #endif
    }
}

#if canImport(CryptoKit)
    // @unchecked: CryptoKit.SHA256 is a value type that holds only its running state; SDKs before
    // Swift 6 do not mark it Sendable.
    extension SHA256Digest: @unchecked Sendable {}
#else
    extension SHA256Digest: Sendable {}
#endif
