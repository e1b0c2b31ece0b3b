import Foundation
import SoundsetRuntime

/// What the server checks of a pack before it serves it: the runtime's own reading of the header
/// and the file's frame (`VoicePack.unverifiedHeader`: format, voice, version, file names, every
/// length within the file, one signature ending it), and that the fields a URL is made of are
/// plain: a hex set id, a locale shaped like a voice's name.
///
/// It does not check the signature or the clips: the phone does, against its own key
/// (`VoicePack.open`).
enum PackHeader {
    /// Why a file is not a pack the server serves.
    struct Problem: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// The header of the pack `data`, checked against the file's frame.
    /// - Throws: `Problem` saying what is wrong, in words for the server's log.
    static func read(_ data: Data) throws(Problem) -> VoicePack.Header {
        let header: VoicePack.Header
        do { header = try VoicePack.unverifiedHeader(of: data, maxBytes: .max) } catch { throw Problem(reason: error.description) }
        guard isHex(header.setId) else { throw Problem(reason: "its set id '\(ClipNameRules.printable(header.setId))' is not hex") }
        // A locale's tag (zh-CN, en-US, yue-HK) is a voice's name in shape.
        guard header.locale.utf8.count <= 35, VoiceName.isValid(header.locale) else {
            throw Problem(reason: "its locale '\(ClipNameRules.printable(header.locale))' is not a locale")
        }
        return header
    }

    /// Whether `text` is 1 to 64 lowercase hex digits (a set's id).
    static func isHex(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
