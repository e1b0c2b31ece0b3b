import Foundation
import SoundsetRuntime

/// The voice packs' routes (`--packs DIR`):
///
///     GET /v1/packs                                  the list: voice, locale, version, setId, bytes, url
///     GET /v1/packs/{voice}.pack                     the voice's newest pack (Cache-Control: no-cache)
///     GET /v1/packs/{voice}/{version}-{setId}.pack   that pack, for a year (immutable)
///
/// A pack's `ETag` is `"{version}-{setId}"`. A name in the URL is compared with the packs read, never
/// joined to a path: a voice is a voice's name, a version digits, a set id hex.
extension AnnouncementService {
    /// `Cache-Control` of a voice's newest pack: asked again every time (a 304 while it is the same).
    static let newestPackCaching = "no-cache"

    /// What `--packs` serves, for the line `serve` prints when it starts (`packs from Packs: en-US
    /// version 3, zh-CN version 2`), or nil without `--packs`. Reads the folder (a file that is not a
    /// pack is logged now).
    public func servedPacks() -> String? {
        guard let packs else { return nil }
        let shelf = packs.current()
        let newest = shelf.voices.compactMap { shelf.newest($0) }
        let list = newest.map { "\($0.header.voice) version \($0.header.version)" }.joined(separator: ", ")
        return "packs from \(packs.display): \(newest.isEmpty ? "none yet" : list)"
    }

    /// The answer to `/v1/packs/…`, `rest` the segments after `packs`.
    func packAnswer(_ rest: [String], request: HTTPRequest) throws(RequestProblem) -> HTTPResponse {
        guard let packs else {
            throw RequestProblem(
                404, "this server serves no voice packs", hint: "start soundset serve with --packs DIR, the folder soundset pack wrote them to")
        }
        let shelf = packs.current()
        switch rest.count {
        case 0:
            return packList(shelf)
        case 1:
            let voice = try Self.packVoice(rest[0].hasSuffix(".pack") ? String(rest[0].dropLast(5)) : "", shelf: shelf, shown: rest[0])
            guard let pack = shelf.newest(voice) else { throw Self.noPack(voice, shelf) }
            return Self.packResponse(pack, caching: Self.newestPackCaching, request: request)
        case 2:
            let voice = try Self.packVoice(rest[0], shelf: shelf, shown: rest[0])
            guard let newest = shelf.newest(voice) else { throw Self.noPack(voice, shelf) }
            let pinned = rest[1]
            let pack = shelf.packs.first { $0.header.voice == voice && pinned == "\($0.header.version)-\($0.header.setId).pack" }
            guard let pack, Self.isPinnedName(pinned) else {
                throw RequestProblem(
                    404, "the voice \(voice) has no pack '\(ClipNameRules.printable(pinned))' here: its newest is \(newest.pinnedPath)",
                    hint: "ask for \(newest.pinnedPath), or /v1/packs/\(voice).pack for the newest")
            }
            return Self.packResponse(pack, caching: Self.pinnedCaching, request: request)
        default:
            throw notFound
        }
    }

    /// `GET /v1/packs`.
    private func packList(_ shelf: PackShelf.Shelf) -> HTTPResponse {
        let list = PackListing(
            packs: shelf.packs.map {
                .init(
                    voice: $0.header.voice, locale: $0.header.locale, version: $0.header.version, setId: $0.header.setId, bytes: $0.body.count,
                    url: $0.pinnedPath)
            })
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", Self.newestPackCaching)] + Self.common,
            body: ResponseBody((try? Self.encodedLine(list)) ?? Data("{\"packs\":[]}\n".utf8)))
    }

    /// `name` when it is a voice's name (checked before it is compared with anything).
    private static func packVoice(_ name: String, shelf: PackShelf.Shelf, shown: String) throws(RequestProblem) -> String {
        guard VoiceName.isValid(name) else {
            throw RequestProblem(
                404, "'\(ClipNameRules.printable(shown))' names no voice's pack: /v1/packs/{voice}.pack, the voice 1 to 64 letters, digits, '_' or '-'",
                hint: "the voices with packs: \(shelf.voices.isEmpty ? "none" : shelf.voices.joined(separator: ", ")); /v1/packs lists them",
                voices: shelf.voices)
        }
        return name
    }

    /// Whether `name` is `{version}-{setId}.pack`: the version's digits as a number writes them, the set id hex.
    private static func isPinnedName(_ name: String) -> Bool {
        guard name.hasSuffix(".pack"), let dash = name.firstIndex(of: "-") else { return false }
        let version = name[..<dash]
        let setId = name[name.index(after: dash)...].dropLast(5)
        return !version.isEmpty && version.utf8.count <= 18 && version.utf8.allSatisfy { (48...57).contains($0) } && version.first != "0"
            && PackHeader.isHex(String(setId))
    }

    private static func noPack(_ voice: String, _ shelf: PackShelf.Shelf) -> RequestProblem {
        RequestProblem(
            404,
            "there is no pack of the voice \(voice) here: the voices with packs are \(shelf.voices.isEmpty ? "none" : shelf.voices.joined(separator: ", "))",
            hint: "write one with soundset pack --voice \(voice) --out DIR/\(voice).pack (DIR the folder of --packs); /v1/packs lists them",
            voices: shelf.voices)
    }

    /// A pack's bytes with its tag: 304 when `If-None-Match` names it (the front sends no body; its
    /// `Content-Length` is the 200's), one byte range as announcements have them.
    private static func packResponse(_ pack: PackShelf.Pack, caching: String, request: HTTPRequest) -> HTTPResponse {
        let headers =
            [("Content-Type", "application/octet-stream"), ("Cache-Control", caching), ("ETag", pack.etag), ("Accept-Ranges", "bytes")] + common
        if matches(request.headers["if-none-match"], pack.etag) { return HTTPResponse(status: 304, headers: headers, body: pack.body) }
        return ranged(HTTPResponse(status: 200, headers: headers, body: pack.body), request: request, etag: pack.etag)
    }
}

/// `GET /v1/packs`: `{"packs": [{"bytes", "locale", "setId", "url", "version", "voice"}]}`, by voice,
/// newest first.
struct PackListing: Encodable {
    struct Entry: Encodable {
        var voice: String
        var locale: String
        var version: Int
        var setId: String
        var bytes: Int
        var url: String
    }
    var packs: [Entry]
}
