import Foundation
import SoundsetRuntime

/// The header of a voice pack as `soundset pack` writes it (format 1, every integer big-endian):
/// `SSPACK01`, the header's length (UInt32), the header (JSON: `files`, `format`, `locale`, `setId`,
/// `version`, `voice`), the files' bytes, the signature's length (UInt32) and the signature.
///
/// The server reads only what it needs to serve a pack: the header, and that the file is framed as
/// the header says (every length within the file, nothing after the signature). It does not check
/// the signature or the clips: the phone does, against its own key (the runtime's `VoicePack`).
struct PackHeader: Decodable, Equatable {
    struct File: Decodable, Equatable {
        var name: String
        var bytes: Int
    }
    var files: [File]
    var format: Int
    var locale: String
    var setId: String
    var version: Int
    var voice: String

    static let magic = Array("SSPACK01".utf8)
    /// The longest header read.
    static let maxHeaderBytes = 1 << 20
    /// The longest signature read.
    static let maxSignatureBytes = 1024

    /// Why a file is not a pack the server serves.
    struct Problem: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// The header of the pack `data`, checked against the file's frame.
    /// - Throws: `Problem` saying what is wrong, in words for the server's log.
    static func read(_ data: Data) throws(Problem) -> PackHeader {
        let bytes = [UInt8](data)
        guard bytes.count >= magic.count + 4, Array(bytes[0..<magic.count]) == magic else {
            throw Problem(reason: "it does not begin with SSPACK01: not a voice pack (soundset pack writes them)")
        }
        let headerLength = Int(uint32(bytes, at: magic.count))
        let headerStart = magic.count + 4
        guard (1...maxHeaderBytes).contains(headerLength), headerStart + headerLength <= bytes.count else {
            throw Problem(reason: "its header's length (\(headerLength) bytes) is not within the file's \(bytes.count) bytes (cut short?)")
        }
        let header: PackHeader
        do { header = try JSONDecoder().decode(PackHeader.self, from: Data(bytes[headerStart..<(headerStart + headerLength)])) } catch {
            throw Problem(reason: "its header is not the JSON of a pack {files, format, locale, setId, version, voice}")
        }
        try header.check()
        var end = headerStart + headerLength
        for file in header.files {
            guard file.bytes >= 0, file.bytes <= bytes.count - end else {
                throw Problem(reason: "its file \(ClipNameRules.printable(file.name)) (\(file.bytes) bytes) runs past the end of the pack (cut short?)")
            }
            end += file.bytes
        }
        guard end + 4 <= bytes.count else { throw Problem(reason: "it ends before its signature (cut short?)") }
        let signatureLength = Int(uint32(bytes, at: end))
        guard (1...maxSignatureBytes).contains(signatureLength), end + 4 + signatureLength == bytes.count else {
            throw Problem(
                reason:
                    "its signature (\(signatureLength) bytes) does not end the file: \(bytes.count - end - 4) bytes follow its length (cut short, or bytes after it)"
            )
        }
        return header
    }

    /// Checks the fields a URL and the list are made of: format 1, a voice's name, a version of 1
    /// or more, a hex set id, a locale of letters, digits and `-`, and files named as a pack names
    /// them (`manifest.json` first, then `Sounds/<file>`).
    private func check() throws(Problem) {
        guard format == 1 else { throw Problem(reason: "its format is \(format): this server reads format 1 (a newer soundset wrote it?)") }
        guard VoiceLayout.isValidName(voice) else { throw Problem(reason: "its voice '\(ClipNameRules.printable(voice))' is not a voice's name") }
        guard version >= 1 else { throw Problem(reason: "its version is \(version): a pack's version is 1 or more") }
        guard Self.isHex(setId) else { throw Problem(reason: "its set id '\(ClipNameRules.printable(setId))' is not hex") }
        // A locale's tag (zh-CN, en-US, yue-HK) is a voice's name in shape.
        guard locale.utf8.count <= 35, VoiceLayout.isValidName(locale) else {
            throw Problem(reason: "its locale '\(ClipNameRules.printable(locale))' is not a locale")
        }
        guard files.first?.name == "manifest.json" else { throw Problem(reason: "its first file is not manifest.json") }
        for file in files.dropFirst() {
            guard file.name.hasPrefix("Sounds/"), ClipNameRules.isPlainFileName(String(file.name.dropFirst(7))) else {
                throw Problem(reason: "it holds the file '\(ClipNameRules.printable(file.name))': a pack holds manifest.json and Sounds/<file> only")
            }
        }
    }

    /// Whether `text` is 1 to 64 lowercase hex digits (a set's id).
    static func isHex(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
