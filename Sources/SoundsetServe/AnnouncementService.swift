import Foundation
import SoundsetRuntime

/// How the service reads its set and what it keeps.
public struct ServeSettings: Sendable {
    /// The built set's folder.
    public var output: URL
    /// How the folder is named in messages (`Output`).
    public var outputDisplay: String
    /// The most bytes of composed announcements kept in memory; 0 keeps none.
    public var cacheBytes: Int
    /// Where each request's access line goes; nil writes none (`--quiet`).
    public var accessLog: AccessLog?
    /// Where why there is no set to serve goes (it names the server's files, so a 503's body does
    /// not): one line each time the reason changes; nil writes none.
    public var problemLog: (@Sendable (String) -> Void)?
    /// The folder of voice packs served (`--packs`), nil for none; how it is named in messages.
    public var packs: URL?
    public var packsDisplay: String

    /// The voice the unversioned paths mean (`serve --voice`), over `voices.json`'s default; nil:
    /// that default.
    public var voice: String?

    public init(
        output: URL, outputDisplay: String, cacheBytes: Int = 64 << 20, accessLog: AccessLog? = nil,
        problemLog: (@Sendable (String) -> Void)? = nil, packs: URL? = nil, packsDisplay: String? = nil, voice: String? = nil
    ) {
        self.voice = voice
        self.packs = packs
        self.packsDisplay = packsDisplay ?? packs?.path ?? ""
        self.output = output
        self.outputDisplay = outputDisplay
        self.cacheBytes = cacheBytes
        self.accessLog = accessLog
        self.problemLog = problemLog
    }
}

/// `soundset serve`'s answers, without a socket: a request in, a response out. Routes:
///
///     GET /healthz                                       the set's id, or 503 without a valid set
///     GET /v1/set                                        the set: id, locale, rate, container, clips
///     GET /v1/plan/{amount}                              the plan, as soundset plan --format json
///     GET /v1/announcements/{amount}.{wav|mp3|caf|aiff}  the announcement
///     GET /v1/sets/{id}/announcements/… and …/plan/…     the same, pinned to one set: cached for a year
///     GET /metrics                                       counters in the Prometheus text format
///     GET /v1/voices                                     the voices: name, locale, ids, the default
///     GET /v1/voices/{voice}/…                           any /v1/ path above, of that voice (the unversioned: the default's)
///     GET /v1/packs, /v1/packs/{voice}.pack, /v1/packs/{voice}/{version}-{setId}.pack   voice packs (`--packs`)
///
/// `HEAD` is answered as `GET` (the front leaves the body out), `OPTIONS` as a CORS preflight (204);
/// every other method is 405.
public final class AnnouncementService: HTTPHandler {
    /// The methods answered.
    public static let allowedMethods = ["GET", "HEAD", "OPTIONS"]
    /// `Cache-Control` of a URL pinned to one set: its bytes never change.
    static let pinnedCaching = "public, max-age=31536000, immutable"
    /// `Cache-Control` of an unpinned URL: a build may change it.
    static let unpinnedCaching = "public, max-age=60"

    /// The output folder's voices (one, unnamed, without `voices.json`), each with its set's source.
    let voices: VoiceSources
    let cache: ResponseCache
    private let accessLog: AccessLog?
    let problemLog: (@Sendable (String) -> Void)?
    /// The last reason `voices.json` could not be read, once told.
    let toldIndex = ToldReason()
    /// The packs of `--packs`, when given.
    let packs: PackShelf?
    let metrics = ServeMetrics()

    public init(_ settings: ServeSettings) {
        voices = VoiceSources(output: settings.output, display: settings.outputDisplay, chosen: settings.voice)
        cache = ResponseCache(capacity: settings.cacheBytes)
        accessLog = settings.accessLog
        problemLog = settings.problemLog
        packs = settings.packs.map { PackShelf(folder: $0, display: settings.packsDisplay, log: settings.problemLog) }
    }

    /// The default voice's set's id (the one set's, without voices), or why there is none (which
    /// the caller tells: it is not logged again until it changes).
    public func currentSet() -> Result<String, Error> {
        let lineup = voices.current()
        if let broken = lineup.broken {
            _ = toldIndex.replace(with: broken)
            return .failure(broken)
        }
        guard let voice = lineup.defaultVoice else {
            return .failure(SetUnavailable(reason: "\(voices.display) holds the voices \(lineup.names.joined(separator: ", ")) and names no default"))
        }
        let current = voice.source.current()
        if case .failure(let unavailable) = current { _ = voice.told.replace(with: unavailable) }
        return current.map(\.id).mapError { $0 as Error }
    }

    /// The 503 without a valid set: its body says only that (the reason names the server's files);
    /// the reason goes to the problem log, once until it changes.
    func unavailable(_ unavailable: SetUnavailable, voice: ServedVoice? = nil) -> RequestProblem {
        if (voice?.told ?? toldIndex).replace(with: unavailable) { problemLog?("soundset: no valid sound set: \(unavailable.reason)") }
        let which = voice?.name.map { " for the voice '\($0)'" } ?? ""
        return RequestProblem(
            503, "no valid sound set\(which)", hint: "build the set: the server picks it up without a restart (the server's log says what is wrong)")
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse { answer(to: request).response }

    /// Every answer but a `GET` of an announcement not made yet is made now; composing it (and
    /// encoding an MP3: LAME takes milliseconds) is work for the front's workers. A `HEAD` or a
    /// `304` of an announcement whose length is known (`ResponseCache.length`) is answered now
    /// with that length and no body (`HTTPResponse.bodyLength`); a `HEAD` of an MP3 never made is
    /// answered now without its length (`HTTPResponse.lengthUnknown`).
    public func answer(to request: HTTPRequest) -> HTTPAnswer {
        do {
            if let lengths = request.headers["content-length"], Self.disagree(lengths) {
                throw RequestProblem(
                    400, "the request has Content-Length fields that disagree (\(ClipNameRules.printable(lengths)))",
                    hint: "send one Content-Length, or none: GET and HEAD take no body")
            }
            guard request.target.utf8.count <= RequestTarget.maxBytes else {
                throw RequestProblem(
                    414, "the request's URI is \(request.target.utf8.count) bytes, over the \(RequestTarget.maxBytes) allowed",
                    hint: "an announcement's URL is short: /v1/announcements/123.45.mp3")
            }
            guard Self.allowedMethods.contains(request.method) else { throw MethodNotAllowed(method: request.method) }
            if request.method == "OPTIONS" { return .now(CORS.preflight()) }
            let target: RequestTarget
            do { target = try RequestTarget(request.target) } catch {
                switch error {
                case .tooLong, .notAPath: throw notFound
                case .badEscape(let what): throw RequestProblem(400, "the URL has \(what)", hint: "escape only bytes of UTF-8 text, as %XX")
                }
            }
            return try route(target, request: request)
        } catch let problem as RequestProblem {
            return .now(Self.errorResponse(problem))
        } catch let refused as MethodNotAllowed {
            var response = Self.errorResponse(
                RequestProblem(
                    405, "the method \(ClipNameRules.printable(refused.method)) is not allowed",
                    hint: "soundset serve answers GET, HEAD and OPTIONS only"))
            response.headers.append(("Allow", Self.allowedMethods.joined(separator: ", ")))
            return .now(response)
        } catch {
            return .now(Self.errorResponse(RequestProblem(500, "\(error)", hint: "see the server's log")))
        }
    }

    public func completed(_ exchange: HTTPExchange) {
        metrics.answered(method: exchange.method, target: exchange.target, status: exchange.status, bytes: exchange.bytes)
        accessLog?.record(exchange)
    }

    public func connectionsChanged(by delta: Int) { metrics.connectionsChanged(by: delta) }

    /// An access line's request part: method, target, status, body bytes, milliseconds.
    static func accessLine(_ exchange: HTTPExchange) -> String { AccessLog.requestPart(exchange) }

    // MARK: - Routes

    var notFound: RequestProblem {
        RequestProblem(
            404, "no such resource",
            hint: "the resources are /healthz, /v1/set, /v1/plan/{amount} and /v1/announcements/{amount}.{wav|mp3|caf|aiff}, e.g. /v1/announcements/123.45.mp3")
    }

    private func route(_ target: RequestTarget, request: HTTPRequest) throws -> HTTPAnswer {
        let segments = target.segments
        if segments == ["healthz"] { return .now(health()) }
        if segments == ["metrics"] { return .now(metricsText()) }
        guard segments.first == "v1", segments.count >= 2 else { throw notFound }
        var rest = Array(segments.dropFirst())
        if rest.first == "packs" { return .now(try packAnswer(Array(rest.dropFirst()), request: request)) }
        let lineup = voices.current()
        let voice: ServedVoice
        if rest.first == "voices" {
            if rest.count == 1 { return .now(try voiceList(lineup)) }
            voice = try named(rest[1], in: lineup)
            rest = Array(rest.dropFirst(2))
        } else {
            voice = try defaultVoice(of: lineup)
        }
        return try route(rest, of: voice, target: target, request: request)
    }

    /// `rest` of a path after `/v1` (or `/v1/voices/<voice>`), answered with `voice`'s set.
    private func route(_ rest: [String], of voice: ServedVoice, target: RequestTarget, request: HTTPRequest) throws -> HTTPAnswer {
        var rest = rest
        var pin: String?
        if rest.first == "sets" {
            guard rest.count >= 3 else { throw notFound }
            pin = rest[1]
            rest = Array(rest.dropFirst(2))
            guard rest.first == "announcements" || rest.first == "plan" else { throw notFound }
        }
        let served = try currentServedSet(of: voice)
        if let pin, pin != served.id {
            let prefix = voice.pathPrefix
            throw RequestProblem(
                404, "the set '\(ClipNameRules.printable(pin))' is not served here: the current set is \(served.id)",
                hint: "ask for \(prefix)/sets/\(served.id)/\(rest.joined(separator: "/")), or the unpinned \(prefix)/\(rest.joined(separator: "/"))",
                set: served.id)
        }
        let caching = pin == nil ? Self.unpinnedCaching : Self.pinnedCaching
        switch (rest.first, rest.count) {
        case ("set", 1) where pin == nil:
            return .now(try describe(served))
        case ("plan", 2):
            let amount = try Self.amount(rest[1])
            let options = try AnnouncementOptions(query: target.query)
            return .now(try plan(amount, options: options, served: served, caching: caching, request: request))
        case ("announcements", 2):
            let (amount, format) = try Self.announcementFile(rest[1])
            let options = try AnnouncementOptions(query: target.query)
            return try announcement(amount, options: options, format: format, served: served, caching: caching, request: request)
        default:
            throw notFound
        }
    }

    func currentServedSet(of voice: ServedVoice) throws(RequestProblem) -> ServedSet {
        switch voice.source.current() {
        case .success(let served): return served
        case .failure(let reason):
            throw unavailable(reason, voice: voice)
        }
    }

    private func health() -> HTTPResponse {
        let lineup = voices.current()
        guard lineup.several else {
            switch lineup.voices[0].source.current() {
            case .success(let served):
                return Self.json(200, ["status": "ok", "set": served.id], headers: [("Cache-Control", "no-store")])
            case .failure(let reason):
                var response = Self.errorResponse(unavailable(reason, voice: lineup.voices[0]))
                response.headers.append(("Cache-Control", "no-store"))
                return response
            }
        }
        return severalHealth(lineup)
    }

    private func metricsText() -> HTTPResponse {
        let lineup = voices.current()
        let sets = lineup.voices.map { (voice: $0.name ?? "", set: try? $0.source.current().get().id) }
        let snapshot = ServeMetrics.Snapshot(
            set: lineup.several ? nil : sets.first?.set, voices: lineup.several ? sets : nil, cacheBytes: cache.bytes, cacheEntries: cache.count,
            cacheCapacity: cache.capacity)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-store")] + Self.common,
            body: ResponseBody(Data(metrics.text(snapshot).utf8)))
    }

    private func describe(_ served: ServedSet) throws -> HTTPResponse {
        let manifest = served.set.manifest
        let description = SetDescription(
            id: served.id, setId: served.set.id, locale: manifest.locale.rawValue, sampleRate: manifest.sampleRate, channels: manifest.channels,
            container: manifest.container.rawValue, encoding: manifest.encoding.rawValue,
            clips: manifest.clips.map {
                .init(name: $0.name, file: $0.file, copy: $0.copy, frames: $0.frames, seconds: JSONFormatting.milliseconds($0.seconds))
            })
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/json"), ("Cache-Control", Self.unpinnedCaching), ("ETag", Self.etag(served, key: "set")),
            ] + Self.common,
            body: ResponseBody(try JSONFormatting.encode(description)))
    }

    private func plan(_ amount: Amount, options: AnnouncementOptions, served: ServedSet, caching: String, request: HTTPRequest) throws -> HTTPResponse {
        let etag = served.entityTag(amount, options: options, kind: "plan")
        let headers = [("Content-Type", "application/json"), ("Cache-Control", caching), ("ETag", etag)] + Self.common
        let plan = try AnnouncementRenderer.plan(amount, options: options, set: served)
        let body = ResponseBody(Data((try JSONFormatting.text(plan) + "\n").utf8))
        // A 304 carries the body a 200 would: the front sends none, and its Content-Length is the 200's.
        return HTTPResponse(status: Self.matches(request.headers["if-none-match"], etag) ? 304 : 200, headers: headers, body: body)
    }

    private func announcement(
        _ amount: Amount, options: AnnouncementOptions, format: AudioFormat, served: ServedSet, caching: String, request: HTTPRequest
    ) throws -> HTTPAnswer {
        // The tag names the set, the options, the format and the amount: it is the cache's key too.
        let etag = served.entityTag(amount, options: options, kind: format.rawValue)
        let headers = [("Content-Type", format.contentType), ("Cache-Control", caching), ("ETag", etag), ("Accept-Ranges", "bytes")] + Self.common
        let revalidated = Self.matches(request.headers["if-none-match"], etag)
        let head = request.method == "HEAD"
        // A 304 carries the body a 200 would (or its length): the front sends none, and its
        // Content-Length is the 200's (RFC 9110 8.6 allows no other).
        @Sendable func answer(_ body: ResponseBody) -> HTTPResponse {
            revalidated
                ? HTTPResponse(status: 304, headers: headers, body: body)
                : Self.ranged(HTTPResponse(status: 200, headers: headers, body: body), request: request, etag: etag)
        }
        let (cache, metrics) = (cache, metrics)
        let make = { @Sendable (_ keep: Bool) throws(RenderProblem) -> ResponseBody in
            let start = DispatchTime.now().uptimeNanoseconds
            let body = ResponseBody(try AnnouncementRenderer.render(amount: amount, options: options, format: format, set: served))
            metrics.encoded(format, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if keep { cache.store(.init(body: body, etag: etag), for: etag) } else { cache.learnLength(body.count, for: etag) }
            return body
        }
        if head || revalidated {
            // No body is sent: its length is all that is needed. Neither a cache hit nor a miss
            // (those count bodies sent from the cache or composed).
            if let length = cache.length(etag) {
                var response =
                    revalidated
                    ? HTTPResponse(status: 304, headers: headers)
                    : Self.ranged(HTTPResponse(status: 200, headers: headers), length: length, request: request, etag: etag)
                if revalidated { response.bodyLength = length }
                return .now(response)
            }
            if head {
                // A WAV, CAF or AIFF is composed here for its length (well under a millisecond),
                // and not kept: a HEAD evicts no body, only its length is learned. An MP3's length
                // is known once it is encoded, and a HEAD does not encode it (an amount that cannot
                // be planned is still the error it would be).
                guard format == .mp3 else { return .now(answer(try make(false))) }
                _ = try AnnouncementRenderer.plan(amount, options: options, set: served)
                var response = HTTPResponse(status: revalidated ? 304 : 200, headers: headers)
                response.lengthUnknown = true
                return .now(response)
            }
            // A 304 whose length was never learned: the workers make it, for its length.
            return .later {
                do throws(RenderProblem) { return answer(try make(true)) } catch { return Self.errorResponse(error) }
            }
        }
        if let hit = cache.entry(etag) {
            metrics.cacheHits.add()
            return .now(answer(hit.body))
        }
        // Composing and encoding is the workers': whatever the format, a burst of new amounts
        // never holds up the answers that need neither. A miss is counted when the work runs (the
        // front skips the work of a client gone meanwhile: no body composed, no miss).
        return .later {
            metrics.cacheMisses.add()
            do throws(RenderProblem) { return answer(try make(true)) } catch { return Self.errorResponse(error) }
        }
    }

    /// `response` cut to the one byte range the request asks for (`Range: bytes=0-1`, `bytes=100-`,
    /// `bytes=-500`; Safari asks so before it plays a sound): 206 with `Content-Range`, or 416 when
    /// the range starts past the end. A request with several ranges, another unit, or an `If-Range`
    /// that is not this body's tag gets the whole body (RFC 9110 allows ignoring `Range`).
    static func ranged(_ response: HTTPResponse, request: HTTPRequest, etag: String) -> HTTPResponse {
        switch byteRange(request: request, etag: etag, total: response.body.count) {
        case .whole: return response
        case .unsatisfiable: return unsatisfiable(response, total: response.body.count)
        case .part(let first, let last):
            var partial = response
            partial.status = 206
            partial.headers.append(("Content-Range", "bytes \(first)-\(last)/\(response.body.count)"))
            partial.body = ResponseBody(Data(bytes: response.body.pointer + first, count: last - first + 1))
            return partial
        }
    }

    /// A `HEAD`'s `response` of a body of `length` bytes not in hand, answered as `ranged` would
    /// answer it with the body (`bodyLength` the length of the part it would send).
    static func ranged(_ response: HTTPResponse, length: Int, request: HTTPRequest, etag: String) -> HTTPResponse {
        switch byteRange(request: request, etag: etag, total: length) {
        case .whole:
            var whole = response
            whole.bodyLength = length
            return whole
        case .unsatisfiable: return unsatisfiable(response, total: length)
        case .part(let first, let last):
            var partial = response
            partial.status = 206
            partial.headers.append(("Content-Range", "bytes \(first)-\(last)/\(length)"))
            partial.bodyLength = last - first + 1
            return partial
        }
    }

    private enum ByteRange {
        case whole
        case part(first: Int, last: Int)
        case unsatisfiable
    }

    /// The part of a body of `total` bytes the request's `Range` asks for.
    private static func byteRange(request: HTTPRequest, etag: String, total: Int) -> ByteRange {
        guard let field = request.headers["range"], request.headers["if-range"].map({ $0 == etag }) ?? true else { return .whole }
        let spec = field.trimmingCharacters(in: .whitespaces)
        guard spec.hasPrefix("bytes="), !spec.contains(",") else { return .whole }
        let bounds = spec.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let digits = { (text: String) in !text.isEmpty && text.count <= 18 && text.utf8.allSatisfy { (48...57).contains($0) } }
        guard bounds.count == 2, bounds.allSatisfy({ $0.isEmpty || digits($0) }), !(bounds[0].isEmpty && bounds[1].isEmpty) else { return .whole }
        let first: Int
        let last: Int
        if bounds[0].isEmpty {
            // The last N bytes.
            guard let suffix = Int(bounds[1]), suffix > 0 else { return .unsatisfiable }
            first = max(0, total - suffix)
            last = total - 1
        } else {
            first = Int(bounds[0])!
            last = bounds[1].isEmpty ? total - 1 : min(Int(bounds[1])!, total - 1)
            guard last >= first || first >= total else { return .whole }
        }
        guard first < total else { return .unsatisfiable }
        return .part(first: first, last: last)
    }

    private static func unsatisfiable(_ response: HTTPResponse, total: Int) -> HTTPResponse {
        var refused = errorResponse(
            RequestProblem(416, "the range asked for starts past the end (\(total) bytes)", hint: "ask for bytes=0- or leave Range out"))
        refused.headers.append(("Content-Range", "bytes */\(total)"))
        return refused
    }

    // MARK: - Pieces

    /// Headers every answer carries: any page may fetch it and read its caching headers (`CORS`),
    /// and nobody sniffs its type.
    static let common: [(name: String, value: String)] = CORS.headers + [("X-Content-Type-Options", "nosniff")]

    /// The amount in a URL segment.
    static func amount(_ text: String) throws(RequestProblem) -> Amount {
        if let plain = plainAmount(text) { return plain }
        do { return try Amount(text) } catch {
            throw RequestProblem(
                400, "'\(ClipNameRules.printable(text))': \(error.explaining(text))",
                hint: "write the amount in digits with at most two decimals after a point, e.g. /v1/announcements/123.45.mp3")
        }
    }

    /// `text` read as `Amount(text)` reads it when it is of the form that parser documents
    /// (`^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$`), byte by byte; nil for anything else, which the
    /// parser itself reads (and explains).
    static func plainAmount(_ text: String) -> Amount? {
        var text = text
        return text.withUTF8 { bytes -> Amount? in
            let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
            var index = 0
            var whole: Int64 = 0
            while index < bytes.count && bytes[index] >= zero && bytes[index] <= nine {
                whole = whole * 10 + Int64(bytes[index] - zero)
                index += 1
                if index > 12 { return nil }
            }
            guard index > 0, bytes[0] != zero || index == 1 else { return nil }
            var cents: Int64 = 0
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: "."), bytes.count - index - 1 == 1 || bytes.count - index - 1 == 2 else { return nil }
                for (place, byte) in bytes[(index + 1)...].enumerated() {
                    guard byte >= zero && byte <= nine else { return nil }
                    cents += Int64(byte - zero) * (place == 0 ? 10 : 1)
                }
            }
            return try? Amount(minorUnits: whole * 100 + cents)
        }
    }

    /// The amount and format of `123.45.mp3`.
    static func announcementFile(_ name: String) throws(RequestProblem) -> (Amount, AudioFormat) {
        // The last dot, found in the bytes (a dot is one byte, and never part of another character).
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), let format = AudioFormat(rawValue: String(name[name.index(after: dot)...])) else {
            let formats = AudioFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw RequestProblem(
                404, "'\(ClipNameRules.printable(name))' names no format: end it in .\(AudioFormat.allCases.map(\.rawValue).joined(separator: ", ."))",
                hint: "e.g. /v1/announcements/123.45.mp3 (formats: \(formats))")
        }
        return (try amount(String(name[..<dot])), format)
    }

    /// Whether a `Content-Length` field sent more than once (its values joined by commas) names
    /// lengths that differ.
    static func disagree(_ lengths: String) -> Bool {
        let values = lengths.utf8.split(separator: UInt8(ascii: ",")).map { $0.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } }
        return values.contains { $0 != values[0] }
    }

    /// A strong entity tag for `key` of `served`.
    static func etag(_ served: ServedSet, key: String) -> String {
        "\"\(served.id)-\(SHA256Digest.hex(Data(key.utf8)).prefix(16))\""
    }

    /// Whether an `If-None-Match` value names `etag` (`*`, or a list of tags; `W/` compares weakly,
    /// as RFC 9110 has it for this field). Compared byte by byte: no text is made.
    static func matches(_ field: String?, _ etag: String) -> Bool {
        guard var text = field else { return false }
        var etag = etag
        return text.withUTF8 { text in etag.withUTF8 { etag in matches(text, etag) } }
    }

    private static func matches(_ field: UnsafeBufferPointer<UInt8>, _ etag: UnsafeBufferPointer<UInt8>) -> Bool {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), comma = UInt8(ascii: ",")
        var start = 0
        while start <= field.count {
            var end = start
            while end < field.count && field[end] != comma { end += 1 }
            // One member, without the spaces around it.
            var first = start, last = end
            while first < last && (field[first] == space || field[first] == tab) { first += 1 }
            while last > first && (field[last - 1] == space || field[last - 1] == tab) { last -= 1 }
            if last - first == 1 && field[first] == UInt8(ascii: "*") && start == 0 && end == field.count { return true }
            if last - first >= 2 && field[first] == UInt8(ascii: "W") && field[first + 1] == UInt8(ascii: "/") { first += 2 }
            if last - first == etag.count && memcmp(field.baseAddress! + first, etag.baseAddress!, etag.count) == 0 { return true }
            start = end + 1
        }
        return false
    }

    static func errorResponse(_ problem: RequestProblem) -> HTTPResponse {
        var fields = ["error": problem.error, "hint": problem.hint]
        if let set = problem.set { fields["set"] = set }
        let headers = problem.status == 404 || problem.status == 400 ? [("Cache-Control", "no-store")] : []
        if let voices = problem.voices, let body = try? encodedLine(VoicesProblem(error: problem.error, hint: problem.hint, voices: voices)) {
            return HTTPResponse(status: problem.status, headers: [("Content-Type", "application/json")] + headers + common, body: ResponseBody(body))
        }
        return json(problem.status, fields, headers: headers)
    }

    static func json(_ status: Int, _ fields: [String: String], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = (try? encoder.encode(fields)) ?? Data("{}".utf8)
        data.append(0x0A)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers + common, body: ResponseBody(data))
    }
}

/// An error body listing the voices: `{"error", "hint", "voices": [...]}`.
private struct VoicesProblem: Encodable {
    var error: String
    var hint: String
    var voices: [String]
}

/// A method other than GET and HEAD.
private struct MethodNotAllowed: Error {
    var method: String
}

/// `GET /v1/set`.
struct SetDescription: Codable {
    struct Clip: Codable {
        var name: String
        var file: String
        var copy: String?
        var frames: Int
        var seconds: Double
    }
    /// What pinned URLs name (`/v1/sets/{id}/…`): the set's clips and format and everything that
    /// changes what an announcement says (locale, reading, announcement settings), so a pinned URL
    /// never changes meaning.
    var id: String
    /// The set's own id: its clips and format only, as the report shows it, `soundset check`
    /// compares it, and the app's installed clip names begin with it.
    var setId: String
    var locale: String
    var sampleRate: Int
    var channels: Int
    var container: String
    var encoding: String
    var clips: [Clip]
}
