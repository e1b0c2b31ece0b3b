import Foundation
import SoundsetRuntime

/// The voices' part of the routes: `/v1/voices`, which voice a path means, and `/healthz` over
/// several voices.
extension AnnouncementService {
    /// The sets served, for the line `serve` prints when it starts: `set 3f1c0a9d2e`, or
    /// `voices en-US: set …, zh-CN: set …; default zh-CN`; or the first reason a voice has none
    /// (told here: it is not logged again until it changes).
    public func servedSets() -> Result<String, Error> {
        let lineup = voices.current()
        guard lineup.several else { return currentSet().map { "set \($0)" } }
        if let broken = lineup.broken {
            _ = toldIndex.replace(with: broken)
            return .failure(broken)
        }
        var parts: [String] = []
        for voice in lineup.voices {
            switch voice.source.current() {
            case .success(let served): parts.append("\(voice.name ?? ""): set \(served.id)")
            case .failure(let reason):
                _ = voice.told.replace(with: reason)
                return .failure(reason)
            }
        }
        return .success("voices \(parts.joined(separator: ", ")); \(lineup.defaultVoice?.name.map { "default \($0)" } ?? "no default")")
    }

    /// The voice `name` of a URL (`/v1/voices/{name}/…`): a name as the build allows, one of the
    /// lineup's.
    func named(_ name: String, in lineup: VoiceLineup) throws(RequestProblem) -> ServedVoice {
        let shown = ClipNameRules.printable(name)
        guard VoiceName.isValid(name) else {
            throw unknownVoice("'\(shown)' is not a voice's name (1 to 64 letters, digits, '_' or '-', not starting with '-')", lineup)
        }
        guard lineup.several else {
            throw RequestProblem(
                404, "there is no voice '\(shown)': this server's output folder holds one set, not several voices",
                hint: "ask the unversioned paths, e.g. /v1/announcements/123.45.mp3", voices: [])
        }
        if let broken = lineup.broken { throw unavailable(broken) }
        guard let voice = lineup.voice(named: name) else { throw unknownVoice("there is no voice '\(shown)'", lineup) }
        return voice
    }

    /// The voice the unversioned paths mean.
    func defaultVoice(of lineup: VoiceLineup) throws(RequestProblem) -> ServedVoice {
        if let broken = lineup.broken { throw unavailable(broken) }
        guard let voice = lineup.defaultVoice else {
            throw unknownVoice("the output folder holds several voices and names no default one", lineup)
        }
        return voice
    }

    private func unknownVoice(_ error: String, _ lineup: VoiceLineup) -> RequestProblem {
        let names = lineup.names
        let example = names.first.map { "/v1/voices/\($0)/announcements/123.45.mp3" } ?? "/v1/voices"
        return RequestProblem(
            404, "\(error): the voices are \(names.isEmpty ? "none" : names.joined(separator: ", "))",
            hint: "ask for one of them, e.g. \(example); /v1/voices lists them", voices: names)
    }

    /// `GET /v1/voices`.
    func voiceList(_ lineup: VoiceLineup) throws(RequestProblem) -> HTTPResponse {
        if let broken = lineup.broken { throw unavailable(broken) }
        var entries: [VoiceListing.Entry] = []
        for voice in lineup.voices {
            let served = try? voice.source.current().get()
            // One set and no voices: its listing is its set's, and without one there is nothing to list.
            if !lineup.several, served == nil { _ = try currentServedSet(of: voice) }
            entries.append(
                VoiceListing.Entry(
                    voice: voice.name, locale: served?.set.manifest.locale.rawValue ?? voice.listed?.locale, id: served?.id,
                    setId: served?.set.id ?? voice.listed?.setId, isDefault: voice === lineup.defaultVoice))
        }
        let body = VoiceListing(defaultVoice: lineup.defaultVoice?.name, voices: entries)
        do {
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", Self.unpinnedCaching)] + Self.common,
                body: ResponseBody(try Self.encodedLine(body)))
        } catch {
            throw RequestProblem(500, "cannot write the list of voices: \(error)", hint: "see the server's log")
        }
    }

    /// `/healthz` over several voices: 200 when every voice has a valid set (`voices` names each
    /// one's id, `set` the default's), else 503 naming the first voice without one.
    func severalHealth(_ lineup: VoiceLineup) -> HTTPResponse {
        var ids: [String: String] = [:]
        var problem: RequestProblem?
        if let broken = lineup.broken { problem = unavailable(broken) }
        for voice in lineup.voices where problem == nil {
            do { ids[voice.name ?? ""] = try currentServedSet(of: voice).id } catch { problem = error }
        }
        var response: HTTPResponse
        if let problem {
            response = Self.errorResponse(problem)
        } else {
            let body = SeveralHealth(set: lineup.defaultVoice.flatMap { ids[$0.name ?? ""] }, status: "ok", voices: ids)
            response = HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json")] + Self.common,
                body: ResponseBody((try? Self.encodedLine(body)) ?? Data("{\"status\":\"ok\"}\n".utf8)))
        }
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }

    /// `value` as one line of JSON, keys sorted, slashes as they are.
    static func encodedLine(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }
}

/// `GET /v1/voices`: `{"defaultVoice", "voices": [{"default", "id", "locale", "setId", "voice"}]}`;
/// an output folder of one set lists it with `"voice": null`.
struct VoiceListing: Encodable {
    struct Entry: Encodable {
        var voice: String?
        var locale: String?
        /// The served id (pinned URLs'), nil while the voice has no valid set.
        var id: String?
        var setId: String?
        var isDefault: Bool

        enum CodingKeys: String, CodingKey { case voice, locale, id, setId, isDefault = "default" }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(voice, forKey: .voice)
            try container.encode(locale, forKey: .locale)
            try container.encode(id, forKey: .id)
            try container.encode(setId, forKey: .setId)
            try container.encode(isDefault, forKey: .isDefault)
        }
    }
    var defaultVoice: String?
    var voices: [Entry]

    enum CodingKeys: String, CodingKey { case defaultVoice, voices }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(defaultVoice, forKey: .defaultVoice)
        try container.encode(voices, forKey: .voices)
    }
}

/// `/healthz` of several voices.
private struct SeveralHealth: Encodable {
    var set: String?
    var status: String
    var voices: [String: String]
}
