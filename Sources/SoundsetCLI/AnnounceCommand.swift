import Foundation
import SoundsetBuild
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset announce`: what the app's extension does for one push, with a folder standing in for
/// the App Group's container. A QA engineer replays a day of pushes with it.
enum AnnounceCommand {
    static let id = Option.value("--id", "ID", shown: "none; the JSON's id is then null", help: "the transaction id")
    static let payload = Option(
        name: "--payload", value: "FILE", help: "the push's JSON (- for standard input) instead of AMOUNT and --id", inSynopsis: false)
    static let now = Option.value("--now", "SECONDS", shown: "the system's", help: "the push's arrival on a clock shared by every call")
    static let delivery = Option.choice(
        "--delivery", ["composed", "chain", "auto"], shown: "announcement.delivery of the set", help: "composed, chain or auto")
    static let prefix = Option.value("--prefix", "NAME|none", shown: "announcement.prefix", help: "clip before the amount; none for no prefix")

    static let spec = CommandSpec(
        name: "announce", summary: "do what the app's extension does for one push: queue, compose or chain, fall back",
        arguments: .one("AMOUNT", missing: "announce needs an AMOUNT, e.g. 123.45, or \(payload.label)", instead: payload),
        options: [.requiredGroup, .output, .voice, id, payload, now, delivery, prefix, .format], about: Help.announceAbout,
        exitCodes: "exit codes: 0 a decision was printed (a fallback is a decision), 1 the payload file cannot be read as a push, 64 bad usage")

    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        let payloadPath = parsed.given(Self.payload)
        if payloadPath != nil {
            guard parsed.positionals.isEmpty else { throw UsageError("give an AMOUNT or \(payload.label), not both") }
            guard parsed.given(Self.id) == nil else { throw UsageError("\(payload.name) carries the transaction id (transactionId): drop \(id.name)") }
        } else {
            _ = try parsed.arguments()
        }
        guard let groupPath = parsed.given(.group) else {
            throw UsageError("announce needs \(Option.group.label) (the folder that stands in for the App Group)")
        }
        let format = try parsed.format()
        if let problem = groupProblem(groupPath) {
            console.err("soundset: \(problem)")
            return ExitCode.failure
        }
        var arrival: Double?
        if let text = parsed.given(Self.now) {
            guard let value = PushLog.seconds(text) else { throw UsageError("\(now.name) needs a time in seconds from 0 to 9999999999, e.g. 1000.5") }
            arrival = value
        }
        let delivery = try parsed.choice(Self.delivery).flatMap(AnnouncementSettings.Delivery.init(rawValue:))
        var prefix: String??
        if let text = parsed.given(Self.prefix) {
            if text == "none" {
                prefix = .some(nil)
            } else {
                if let reason = ClipNameRules.problem(with: text) {
                    throw UsageError("\(Self.prefix.name) '\(ClipNameRules.printable(text))' is not a clip name: \(reason)")
                }
                prefix = .some(text)
            }
        }
        if let id = parsed.given(Self.id), RawArguments.wasRepaired(id) {
            throw UsageError(
                "\(Self.id.name) is not valid UTF-8: give the transaction id as the server sends it (JSON text is UTF-8), or use \(payload.label)")
        }
        let request: AnnouncementRequest
        if let payloadPath {
            request = try payloadRequest(payloadPath, arrival: arrival)
        } else {
            request = AnnouncementRequest(amount: .text(parsed.positionals[0]), transactionID: parsed.given(Self.id), arrival: arrival)
        }
        let transactionID = request.transactionID

        // The output folder itself, or with several voices the voice's set in it.
        let output = try Voices.setFolder(parsed, output: parsed.value(.output)!, spelling: spelling).url
        // The set is read (and installed) while no build swaps a new one in.
        let decision: AnnouncementDecision
        do {
            decision = try OutputFolder.reading(output) { () -> AnnouncementDecision in
                decide(
                    request, delivery: delivery, prefix: prefix, output: output, groupPath: groupPath,
                    rebuild: spelling.build(output: URL(fileURLWithPath: parsed.value(.output)!).relativePath))
            }
        } catch {
            decision = Announcer.unavailable("\(error)", transactionID: transactionID, at: arrival ?? SystemClock().now())
        }
        if format == "json" {
            console.out(try JSONFormatting.text(decision))
        } else {
            printDecision(decision, transactionID: transactionID, console: console)
        }
        return ExitCode.success
    }

    /// Why `path` cannot stand in for the App Group's container (it is there and is not a folder),
    /// or nil.
    static func groupProblem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return nil }
        return "\(ClipNamePrinting.safe(path)) is not a folder: give \(Option.group.name) a folder (a new one is made)"
    }

    /// The request in the push's JSON at `path` (`-`: standard input), read as the extension reads
    /// its `userInfo`.
    private static func payloadRequest(_ path: String, arrival: Double?) throws -> AnnouncementRequest {
        let shown = path == "-" ? "standard input" : path
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readData(ofLength: PushPayload.maxJSONBytes + 1)
        } else {
            do { data = try RegularFile.read(URL(fileURLWithPath: path), maxBytes: PushPayload.maxJSONBytes) } catch {
                throw PayloadFileError(description: "\(ClipNameRules.printable(shown)): \(error.reason)")
            }
        }
        do { return try PushPayload.request(fromJSON: data, arrival: arrival) } catch {
            throw PayloadFileError(description: "\(ClipNameRules.printable(shown)): \(error.description)")
        }
    }

    /// A payload file that cannot be read as a push.
    struct PayloadFileError: Error, CustomStringConvertible {
        var description: String
    }

    private static func decide(
        _ request: AnnouncementRequest, delivery: AnnouncementSettings.Delivery?, prefix: String??, output: URL, groupPath: String,
        rebuild: String
    ) -> AnnouncementDecision {
        let decision: AnnouncementDecision
        do {
            // A link in the set is not the set (a commit or an app carries the link): not read.
            if let refusal = SetLink.refusal(in: output, display: output.relativePath) {
                return Announcer.unavailable(
                    "\(refusal) (run \(rebuild) first)", transactionID: request.transactionID,
                    at: request.arrival ?? SystemClock().now())
            }
            let set = try SoundSet(folder: output)
            var settings = set.manifest.announcement ?? AnnouncementSettings()
            if let delivery { settings.delivery = delivery }
            if let prefix { settings.prefix = prefix }
            var announcer = Announcer(set: set, group: GroupFolder(URL(fileURLWithPath: groupPath)), settings: settings)
            KillPoint.arm(&announcer)
            decision = announcer.announce(request)
        } catch {
            let hint = if case .unreadable = error { " (run \(rebuild) first)" } else { "" }
            decision = Announcer.unavailable("\(error)\(hint)", transactionID: request.transactionID, at: request.arrival ?? SystemClock().now())
        }
        return decision
    }

    /// One line of what was decided, the push's transaction id after the outcome when it had one
    /// (without one, the decision's `id` is its queue key: a name the server never sent, not shown).
    private static func printDecision(_ decision: AnnouncementDecision, transactionID: String?, console: Console) {
        let what: String
        switch (decision.delivery, decision.sound) {
        case (.composed, let sound?): what = "composed \(sound)"
        case (.chain, _): what = "chain of \(decision.notifications.count) notifications"
        case (_, let sound?): what = "plays \(sound)"
        default: what = decision.systemSound ? "plays the system sound" : decision.outcome == .duplicate ? "plays nothing" : "keeps the push's own sound"
        }
        console.out(
            String(
                format: "%@%@: %@, from %.3f to %.3f (wait %.3f s)", decision.outcome.rawValue,
                transactionID.map { _ in " " + ClipNameRules.printable(decision.id) } ?? "", what,
                decision.start, decision.end, decision.wait))
        if !decision.clips.isEmpty { console.out("clips: \(decision.clips.joined(separator: " "))") }
        for notification in decision.notifications {
            console.out(String(format: "  %10.3f  %@  %@", notification.at, notification.sound, notification.identifier))
        }
        if let reason = decision.reason { console.out("reason: \(reason)") }
    }
}

/// The program's own arguments as the system gave them: Swift reads them as UTF-8 and replaces bytes
/// that are not with U+FFFD, so two different byte strings can read as one.
enum RawArguments {
    /// Whether `value` is (or ends) an argument that was not valid UTF-8.
    static func wasRepaired(_ value: String) -> Bool {
        guard value.unicodeScalars.contains("\u{FFFD}") else { return false }
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            if String(decoding: bytes, as: UTF8.self).hasSuffix(value) { return true }
        }
        return false
    }
}
