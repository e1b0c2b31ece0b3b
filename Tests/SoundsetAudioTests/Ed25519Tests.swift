import Foundation
import SoundsetAudio
import SoundsetTestSupport
import Testing

/// Ed25519 by libcrypto from PEM files: RFC 8032's signatures, byte for byte, and every refusal
/// naming the file and how to make a key.
@Suite struct Ed25519Tests {
    @Test func signsRFC8032VectorsByteForByte() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let one = try TestKeyPair.rfc1.write(to: directory.url, name: "one")
        let two = try TestKeyPair.rfc2.write(to: directory.url, name: "two")
        let signedEmpty = try Ed25519PrivateKey(contentsOf: one.privateKey, display: "one.key").sign(Data())
        #expect(signedEmpty == TestKeyPair.bytes(TestKeyPair.rfc1EmptySignatureHex))
        let signed72 = try Ed25519PrivateKey(contentsOf: two.privateKey, display: "two.key").sign(Data([0x72]))
        #expect(signed72 == TestKeyPair.bytes(TestKeyPair.rfc2Byte72SignatureHex))

        let publicOne = try Ed25519PublicKey(contentsOf: one.publicKey, display: "one.pub")
        let publicTwo = try Ed25519PublicKey(contentsOf: two.publicKey, display: "two.pub")
        #expect(publicOne.isValidSignature(signedEmpty, for: Data()))
        #expect(publicTwo.isValidSignature(signed72, for: Data([0x72])))
        // Another key, another message, a flipped bit, a short signature: not valid.
        #expect(!publicTwo.isValidSignature(signedEmpty, for: Data()))
        #expect(!publicOne.isValidSignature(signedEmpty, for: Data([0])))
        var flipped = signedEmpty
        flipped[17] ^= 0x01
        #expect(!publicOne.isValidSignature(flipped, for: Data()))
        #expect(!publicOne.isValidSignature(signedEmpty.prefix(63), for: Data()))
        #expect(!publicOne.isValidSignature(Data(), for: Data()))
    }

    @Test func aLongMessageSignsAndVerifies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keys = try TestKeyPair.rfc1.write(to: directory.url, name: "voice")
        let message = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let signature = try Ed25519PrivateKey(contentsOf: keys.privateKey, display: "voice.key").sign(message)
        #expect(signature.count == 64)
        let key = try Ed25519PublicKey(contentsOf: keys.publicKey, display: "voice.pub")
        #expect(key.isValidSignature(signature, for: message))
        var altered = message
        altered[299_999] ^= 0x80
        #expect(!key.isValidSignature(signature, for: altered))
    }

    @Test func keysThatCannotBeUsedAreRefusedByName() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keys = try TestKeyPair.rfc1.write(to: directory.url, name: "voice")
        let garbage = directory.url.appendingPathComponent("garbage.key")
        try Data("not a key\n".utf8).write(to: garbage)
        let x25519 = directory.url.appendingPathComponent("x25519.key")
        try Data(TestKeyPair.rfc1.x25519PrivatePEM.utf8).write(to: x25519)
        let missing = directory.url.appendingPathComponent("missing.key")

        func privateError(_ url: URL) -> String? {
            do { _ = try Ed25519PrivateKey(contentsOf: url, display: url.lastPathComponent) } catch { return error.description }
            return nil
        }
        func publicError(_ url: URL) -> String? {
            do { _ = try Ed25519PublicKey(contentsOf: url, display: url.lastPathComponent) } catch { return error.description }
            return nil
        }
        let hint = "make a key pair with `openssl genpkey -algorithm ed25519 -out voice.key`"
        #expect(privateError(keys.privateKey) == nil)
        #expect(publicError(keys.publicKey) == nil)
        let publicAsPrivate = try #require(privateError(keys.publicKey))
        #expect(publicAsPrivate.hasPrefix("voice.pub: is not a private key in PEM (it is a public key or not PEM): \(hint)"), "\(publicAsPrivate)")
        let privateAsPublic = try #require(publicError(keys.privateKey))
        #expect(privateAsPublic.hasPrefix("voice.key: is not a public key in PEM (it is a private key or not PEM): \(hint)"), "\(privateAsPublic)")
        #expect(privateError(garbage)?.hasPrefix("garbage.key: is not a private key in PEM") == true)
        let otherAlgorithm = try #require(privateError(x25519))
        #expect(otherAlgorithm.hasPrefix("x25519.key: is a private key of another algorithm, not Ed25519: \(hint)"), "\(otherAlgorithm)")
        let absent = try #require(privateError(missing))
        #expect(absent.hasPrefix("missing.key: is missing (\(hint)"), "\(absent)")
    }
}
