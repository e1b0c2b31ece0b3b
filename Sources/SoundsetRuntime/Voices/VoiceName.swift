import Foundation

/// What a voice's name may be: 1 to 64 ASCII letters, digits, `_` and `-`, not starting with `-`.
/// The same rule everywhere (the build's `Assets/voices/<voice>/`, the command line's `--voice`,
/// a pack's header, the App Group's `soundset/Voices/<voice>/`), so a name is always a plain folder
/// name: never `/`, `..`, a leading `.` or a NUL.
public enum VoiceName {
    /// Longest name accepted.
    public static let maxLength = 64

    /// Whether `name` is a voice's name.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard (1...maxLength).contains(bytes.count), bytes.first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}

/// Checks a pack's signature with the publisher's public key. The runtime is Foundation only, so the
/// app gives it one: on Apple platforms CryptoKit's `Curve25519.Signing.PublicKey` (docs/ios.md shows
/// the conformance), on Linux `soundset install-pack`'s over libcrypto.
public protocol PackSignatureVerifier: Sendable {
    /// Whether `signature` is the publisher's signature of `message`.
    func isValidSignature(_ signature: Data, for message: Data) -> Bool
}
