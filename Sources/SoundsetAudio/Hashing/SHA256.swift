internal import CCrypto
import Foundation
import SoundsetRuntime

/// SHA-256 by OpenSSL's libcrypto (`EVP_sha256`): the manifest's file hashes and the cache's keys.
public enum SHA256 {
    /// The lower-case hex digest of `data` (`EVP_Digest`).
    public static func hex(_ data: Data) -> String {
        let hasher = SHA256Hasher()
        hasher.update(data)
        return hasher.finalHex()
    }

    /// The digest of the regular file at `url`, hashed as it is read (64 KB at a time).
    /// - Throws: `RegularFile.Failure` when it is not a regular file or cannot be read.
    public static func hex(fileAt url: URL) throws(RegularFile.Failure) -> String {
        let hasher = SHA256Hasher()
        try RegularFile.stream(url) { hasher.update($0) }
        return hasher.finalHex()
    }
}

/// An `EVP_MD_CTX` computing SHA-256; one owner, freed on deinit. Not `Sendable`: a hash belongs to
/// the task that feeds it.
public final class SHA256Hasher {
    private let context: OpaquePointer

    public init() {
        // EVP_MD_CTX_new fails only when memory is exhausted, which nothing here survives.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        self.context = context
        start()
    }

    deinit { EVP_MD_CTX_free(context) }

    private func start() {
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { fatalError("EVP_DigestInit_ex(EVP_sha256) failed") }
    }

    /// Adds `bytes` to the message (`EVP_DigestUpdate`).
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Adds `data` to the message.
    public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The digest as lower-case hex (`EVP_DigestFinal_ex`); the hasher then starts again empty.
    public func finalHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        start()
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(Int(length)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}
