internal import CCrypto
import Foundation
import SoundsetRuntime

/// Why an Ed25519 key file could not be used: the file, and what to do.
public struct Ed25519KeyError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public var description: String { "\(file): \(reason)" }

    static let makeKeys =
        "make a key pair with `openssl genpkey -algorithm ed25519 -out voice.key` and its public half with `openssl pkey -in voice.key -pubout -out voice.pub`"
}

/// An Ed25519 key as OpenSSL holds it (`EVP_PKEY`): one owner, freed on deinit. The key is never
/// changed after it is read, and OpenSSL allows one `EVP_PKEY` to sign or verify on several
/// threads at once (each call makes its own `EVP_MD_CTX`), hence `@unchecked Sendable`.
final class Ed25519Key: @unchecked Sendable {
    let key: OpaquePointer

    init(_ key: OpaquePointer) { self.key = key }
    deinit { EVP_PKEY_free(key) }

    /// Reads a PEM key from the file at `url` (at most 64 KB): private (`PrivateKey`, PKCS#8, as
    /// `openssl genpkey` writes it) or public (`PUBKEY`, as `openssl pkey -pubout` writes it).
    static func read(_ url: URL, display: String, isPrivate: Bool) throws(Ed25519KeyError) -> Ed25519Key {
        let bytes: Data
        do { bytes = try RegularFile.read(url, maxBytes: 1 << 16) } catch {
            throw Ed25519KeyError(file: display, reason: "\(error.reason) (\(Ed25519KeyError.makeKeys))")
        }
        let loaded: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return isPrivate ? PEM_read_bio_PrivateKey(bio, nil, nil, nil) : PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        ERR_clear_error()
        let kind = isPrivate ? "a private key" : "a public key"
        guard let loaded else {
            let other = isPrivate ? "a public key or not PEM" : "a private key or not PEM"
            throw Ed25519KeyError(file: display, reason: "is not \(kind) in PEM (it is \(other)): \(Ed25519KeyError.makeKeys)")
        }
        guard EVP_PKEY_is_a(loaded, "ED25519") == 1 else {
            EVP_PKEY_free(loaded)
            throw Ed25519KeyError(file: display, reason: "is \(kind) of another algorithm, not Ed25519: \(Ed25519KeyError.makeKeys)")
        }
        return Ed25519Key(loaded)
    }

    /// A new `EVP_MD_CTX` for one signature, freed after `body`.
    func withContext<T>(_ body: (OpaquePointer) -> T) -> T {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        return body(context)
    }
}

/// The private half of an Ed25519 key pair: signs voice packs (`soundset pack --key`).
public struct Ed25519PrivateKey: Sendable {
    private let key: Ed25519Key

    /// Reads the PEM private key at `url` (`openssl genpkey -algorithm ed25519` writes one).
    /// - Parameter display: how messages name the file.
    /// - Throws: `Ed25519KeyError` when it is unreadable, not PEM, public, or not Ed25519.
    public init(contentsOf url: URL, display: String) throws(Ed25519KeyError) {
        key = try Ed25519Key.read(url, display: display, isPrivate: true)
    }

    /// The 64-byte signature of `message` (Ed25519 signs the message itself, not a digest of it).
    public func sign(_ message: Data) -> Data {
        key.withContext { context in
            var signature = Data(count: 64)
            var length = 64
            let signed = signature.withUnsafeMutableBytes { out in
                message.withUnsafeBytes { input in
                    EVP_DigestSignInit(context, nil, nil, nil, key.key) == 1
                        && EVP_DigestSign(
                            context, out.bindMemory(to: UInt8.self).baseAddress, &length, input.bindMemory(to: UInt8.self).baseAddress, input.count) == 1
                }
            }
            // With a loaded Ed25519 key this fails only when memory is exhausted.
            guard signed, length == 64 else { fatalError("EVP_DigestSign(Ed25519) failed") }
            return signature
        }
    }
}

/// The public half: checks a voice pack's signature (`soundset install-pack --public-key`).
public struct Ed25519PublicKey: Sendable {
    private let key: Ed25519Key

    /// Reads the PEM public key at `url` (`openssl pkey -in KEY -pubout` writes one).
    /// - Throws: `Ed25519KeyError` when it is unreadable, not PEM, private, or not Ed25519.
    public init(contentsOf url: URL, display: String) throws(Ed25519KeyError) {
        key = try Ed25519Key.read(url, display: display, isPrivate: false)
    }

    /// Whether `signature` is this key's signature of `message`.
    public func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        key.withContext { context in
            let valid = signature.withUnsafeBytes { signatureBytes in
                message.withUnsafeBytes { input in
                    EVP_DigestVerifyInit(context, nil, nil, nil, key.key) == 1
                        && EVP_DigestVerify(
                            context, signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
                            input.bindMemory(to: UInt8.self).baseAddress, input.count) == 1
                }
            }
            ERR_clear_error()
            return valid
        }
    }
}

/// A pack is verified with the publisher's public key: `VoicePackInstaller` takes it as it is.
extension Ed25519PublicKey: PackSignatureVerifier {}
