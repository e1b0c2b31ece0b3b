import Foundation
import SoundsetBuild
import SoundsetRuntime

/// `soundset announce`: what the app's extension does for one push, with a folder standing in for
/// the App Group's container. A QA engineer replays a day of pushes with it.
enum AnnounceCommand {
    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) throws -> Int32 {
        let parsed = try Arguments(
            arguments, options: ["--group", "--output", "--id", "--now", "--delivery", "--prefix", "--format"], flags: ["--help", "-h"])
        if parsed.wantsHelp {
            console.out(Help.announce)
            return ExitCode.success
        }
        guard parsed.positionals.count == 1, let amount = parsed.positionals.first else {
            throw UsageError(parsed.positionals.isEmpty ? "announce needs an AMOUNT, e.g. 123.45" : "give one AMOUNT, got \(parsed.positionals.count)")
        }
        guard let groupPath = parsed.options["--group"] else { throw UsageError("announce needs --group DIR (the folder that stands in for the App Group)") }
        let format = try parsed.format()
        var arrival: Double?
        if let text = parsed.options["--now"] {
            // Decimal digits only ("0x10" and "1e3" are numbers to Double), below 10^10 (the year 2286).
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }), parts[0].count <= 10,
                let value = Double(text), value < 1e10
            else { throw UsageError("--now needs a time in seconds from 0 to 9999999999, e.g. 1000.5") }
            arrival = value
        }
        var delivery: AnnouncementSettings.Delivery?
        if let text = parsed.options["--delivery"] {
            guard let value = AnnouncementSettings.Delivery(rawValue: text) else { throw UsageError("--delivery must be composed, chain or auto") }
            delivery = value
        }
        var prefix: String??
        if let text = parsed.options["--prefix"] {
            if text == "none" {
                prefix = .some(nil)
            } else {
                if let reason = ClipNameRules.problem(with: text) { throw UsageError("--prefix '\(ClipNameRules.printable(text))' is not a clip name: \(reason)") }
                prefix = .some(text)
            }
        }
        let transactionID = parsed.options["--id"]

        let output = URL(fileURLWithPath: parsed.options["--output"] ?? "Output")
        // The set is read (and installed) while no build swaps a new one in.
        let decision: AnnouncementDecision
        do {
            decision = try OutputFolder.reading(output) { () -> AnnouncementDecision in
                decide(
                    amount, transactionID: transactionID, arrival: arrival, delivery: delivery, prefix: prefix, output: output, groupPath: groupPath,
                    spelling: spelling)
            }
        } catch {
            decision = Announcer.unavailable("\(error)", transactionID: transactionID, at: arrival ?? SystemClock().now())
        }
        if format == "json" {
            console.out(try JSONFormatting.text(decision))
        } else {
            printDecision(decision, console: console)
        }
        return ExitCode.success
    }

    private static func decide(
        _ amount: String, transactionID: String?, arrival: Double?, delivery: AnnouncementSettings.Delivery?, prefix: String??, output: URL,
        groupPath: String, spelling: CommandSpelling
    ) -> AnnouncementDecision {
        let decision: AnnouncementDecision
        do {
            let set = try SoundSet(folder: output)
            var settings = set.manifest.announcement ?? AnnouncementSettings()
            if let delivery { settings.delivery = delivery }
            if let prefix { settings.prefix = prefix }
            let announcer = Announcer(set: set, group: GroupFolder(URL(fileURLWithPath: groupPath)), settings: settings)
            decision = announcer.announce(AnnouncementRequest(amount: .text(amount), transactionID: transactionID, arrival: arrival))
        } catch {
            let hint = if case .unreadable = error { " (run \(spelling.build(output: output.relativePath)) first)" } else { "" }
            decision = Announcer.unavailable("\(error)\(hint)", transactionID: transactionID, at: arrival ?? SystemClock().now())
        }
        return decision
    }

    private static func printDecision(_ decision: AnnouncementDecision, console: Console) {
        let what: String
        switch (decision.delivery, decision.sound) {
        case (.composed, let sound?): what = "composed \(sound)"
        case (.chain, _): what = "chain of \(decision.notifications.count) notifications"
        case (_, let sound?): what = "plays \(sound)"
        default: what = decision.systemSound ? "plays the system sound" : decision.outcome == .duplicate ? "plays nothing" : "keeps the push's own sound"
        }
        console.out(
            String(
                format: "%@ %@: %@, from %.3f to %.3f (wait %.3f s)", decision.outcome.rawValue, ClipNameRules.printable(decision.id), what,
                decision.start, decision.end, decision.wait))
        if !decision.clips.isEmpty { console.out("clips: \(decision.clips.joined(separator: " "))") }
        for notification in decision.notifications {
            console.out(String(format: "  %10.3f  %@  %@", notification.at, notification.sound, notification.identifier))
        }
        if let reason = decision.reason { console.out("reason: \(reason)") }
    }
}
