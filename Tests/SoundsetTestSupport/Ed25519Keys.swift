import Foundation

/// Ed25519 key pairs as PEM files, the way `openssl genpkey -algorithm ed25519` and
/// `openssl pkey -pubout` write them, made from RFC 8032's test vectors (section 7.1): no tool
/// needed, and signatures with known bytes.
public struct TestKeyPair: Sendable {
    public let seedHex: String
    public let publicHex: String

    /// RFC 8032 7.1, TEST 1: signs the empty message as `emptySignatureHex`.
    public static let rfc1 = TestKeyPair(
        seedHex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        publicHex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    public static let rfc1EmptySignatureHex =
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    /// RFC 8032 7.1, TEST 2: signs the one byte 0x72 as `byte72SignatureHex`.
    public static let rfc2 = TestKeyPair(
        seedHex: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        publicHex: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
    public static let rfc2Byte72SignatureHex =
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"

    /// PKCS#8 `PRIVATE KEY` in PEM: the DER prefix for an Ed25519 seed (OID 1.3.101.112), then the seed.
    public var privatePEM: String { Self.pem("PRIVATE KEY", Self.bytes("302e020100300506032b657004220420" + seedHex)) }
    /// `PUBLIC KEY` (SubjectPublicKeyInfo) in PEM.
    public var publicPEM: String { Self.pem("PUBLIC KEY", Self.bytes("302a300506032b6570032100" + publicHex)) }
    /// An X25519 private key (OID 1.3.101.110) with the same bytes: a key of another algorithm.
    public var x25519PrivatePEM: String { Self.pem("PRIVATE KEY", Self.bytes("302e020100300506032b656e04220420" + seedHex)) }

    /// Writes `<name>.key` and `<name>.pub` into `folder`.
    public func write(to folder: URL, name: String) throws -> (privateKey: URL, publicKey: URL) {
        let privateKey = folder.appendingPathComponent("\(name).key")
        let publicKey = folder.appendingPathComponent("\(name).pub")
        try Data(privatePEM.utf8).write(to: privateKey)
        try Data(publicPEM.utf8).write(to: publicKey)
        return (privateKey, publicKey)
    }

    public static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    private static func pem(_ label: String, _ der: Data) -> String {
        "-----BEGIN \(label)-----\n\(der.base64EncodedString())\n-----END \(label)-----\n"
    }
}
