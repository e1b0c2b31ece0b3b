import Foundation

/// Why a voice pack was refused (or, for `source` and `signatureSize`, could not be made): one case
/// per refusal, each worded with the item it is about and what to do.
public enum PackError: Error, Equatable, CustomStringConvertible {
    /// The pack is larger than the limit the app set; nothing of it was read.
    case tooLarge(bytes: Int, limit: Int)
    /// It does not begin with `SSPACK01`.
    case notAPack
    /// It ends before its header, its files or its signature do (a download cut short).
    case truncated(bytes: Int)
    /// Its header length is 0 or over 1 MiB.
    case headerLength(Int)
    /// Bytes follow the signature.
    case trailingBytes(Int)
    /// The signature is not the publisher's over these bytes: another key signed it, or a byte changed.
    case badSignature
    /// The signer gave a signature of a length the format cannot carry (1 to 1024 bytes).
    case signatureSize(Int)
    /// The (signed) header is not the JSON object of the format.
    case badHeader(reason: String)
    /// The header's format is not one this runtime reads.
    case unknownFormat(Int)
    /// The voice's name is not a name (`VoiceName`).
    case badVoiceName(String)
    /// The version is below 1.
    case badVersion(Int)
    /// A file's name is neither `manifest.json` nor `Sounds/<a plain clip file name>`.
    case badFileName(String)
    /// A file's length is negative or longer than the whole payload.
    case fileLength(name: String, bytes: Int)
    /// The files' lengths do not add up to the payload between the header and the signature.
    case payloadSize(declared: Int, actual: Int)
    /// A file the manifest names (or the manifest) is not in the pack.
    case missingFile(String)
    /// A file in the pack that the manifest does not name.
    case extraFile(String)
    /// A file listed twice.
    case duplicateFile(String)
    /// The files are not in the manifest's order (`manifest.json` first, then the clips in order).
    case fileOutOfOrder(String)
    /// A file larger than the runtime reads of its kind (a manifest, a clip).
    case fileTooLarge(name: String, bytes: Int, limit: Int)
    /// The manifest cannot be read or is not valid.
    case badManifest(reason: String)
    /// A clip's bytes are not those of the manifest's `sha256`.
    case clipMismatch(clip: String, file: String)
    /// The header's locale is not the manifest's.
    case localeMismatch(header: String, manifest: String)
    /// The header's set id is not the manifest's (`SoundSet.id`).
    case setIdMismatch(header: String, manifest: String)
    /// An older version of the voice than the one installed (no downgrade).
    case olderVersion(voice: String, version: Int, installed: Int)
    /// The installed version of the voice is another set with the same version number.
    case sameVersionOtherSet(voice: String, version: Int, installed: String, pack: String)
    /// The pack is of another voice than the one the app asked for.
    case otherVoice(expected: String, pack: String)
    /// Making a pack: a file of the set cannot be read or is not the manifest's.
    case source(file: String, reason: String)
    /// Installing: the group's folder cannot be written or read.
    case group(reason: String)

    private static let again = "download it again from the server that publishes it"
    private static let publisher = "the publisher must make it again with soundset pack"

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "voice pack: \(bytes) bytes, more than the \(limit) allowed: raise the limit or publish a smaller set"
        case .notAPack: "voice pack: the file is not a soundset voice pack (no SSPACK01 at its start): \(Self.again)"
        case .truncated(let bytes): "voice pack: cut short (\(bytes) bytes): \(Self.again)"
        case .headerLength(let length): "voice pack: its header length \(length) is not 1 byte to 1 MiB: \(Self.again)"
        case .trailingBytes(let count): "voice pack: \(count) bytes after its signature: \(Self.again)"
        case .badSignature: "voice pack: is signed by another key or was altered: \(Self.again)"
        case .signatureSize(let size): "voice pack: the signer gave a \(size)-byte signature, not 1 to 1024 bytes: sign with an Ed25519 key"
        case .badHeader(let reason): "voice pack header: \(reason): \(Self.publisher)"
        case .unknownFormat(let format): "voice pack header: format \(format) is not one this app reads (1): update the app or publish a format 1 pack"
        case .badVoiceName(let name):
            "voice pack header: '\(ClipNameRules.printable(name))' is not a voice name (1 to 64 letters, digits, '_' and '-', not starting with '-'): \(Self.publisher)"
        case .badVersion(let version): "voice pack header: version \(version) is below 1: \(Self.publisher) --pack-version 1 or more"
        case .badFileName(let name):
            "voice pack file '\(ClipNameRules.printable(name))': not manifest.json or Sounds/<a clip file name>: \(Self.publisher)"
        case .fileLength(let name, let bytes): "voice pack file '\(ClipNameRules.printable(name))': length \(bytes) is not inside the pack: \(Self.publisher)"
        case .payloadSize(let declared, let actual):
            "voice pack: its files add up to \(declared) bytes, but \(actual) lie between header and signature: \(Self.publisher)"
        case .missingFile(let name): "voice pack file '\(ClipNameRules.printable(name))': missing from the pack: \(Self.publisher)"
        case .extraFile(let name): "voice pack file '\(ClipNameRules.printable(name))': not named by the manifest: \(Self.publisher)"
        case .duplicateFile(let name): "voice pack file '\(ClipNameRules.printable(name))': listed twice: \(Self.publisher)"
        case .fileOutOfOrder(let name): "voice pack file '\(ClipNameRules.printable(name))': out of the manifest's order: \(Self.publisher)"
        case .fileTooLarge(let name, let bytes, let limit):
            "voice pack file '\(ClipNameRules.printable(name))': \(bytes) bytes, more than the \(limit) the app reads: build a smaller set"
        case .badManifest(let reason): "voice pack manifest.json: \(reason): \(Self.publisher)"
        case .clipMismatch(let clip, let file):
            "voice pack file '\(ClipNameRules.printable(file))': clip '\(ClipNameRules.printable(clip))' differs from the manifest's sha256: \(Self.publisher)"
        case .localeMismatch(let header, let manifest):
            "voice pack: its header says locale \(ClipNameRules.printable(header)) but its manifest \(manifest): \(Self.publisher)"
        case .setIdMismatch(let header, let manifest):
            "voice pack: its header says set \(ClipNameRules.printable(header)) but its manifest is set \(manifest): \(Self.publisher)"
        case .olderVersion(let voice, let version, let installed):
            "voice pack '\(voice)' version \(version): older than the installed version \(installed) (no downgrade): download the newest pack"
        case .otherVoice(let expected, let pack):
            "voice pack: is of the voice '\(ClipNameRules.printable(pack))', not '\(ClipNameRules.printable(expected))' as asked: \(Self.again)"
        case .sameVersionOtherSet(let voice, let version, let installed, let pack):
            "voice pack '\(voice)' version \(version): set \(pack), but version \(version) installed is set \(installed): publish it as a newer version"
        case .source(let file, let reason): "\(file): \(reason) (build the set again with soundset build)"
        case .group(let reason): "cannot install the voice pack: \(reason)"
        }
    }
}
