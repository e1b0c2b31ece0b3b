import Foundation
import SoundsetBuild
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset replay FILE --group DIR`: a QA engineer's day of pushes run through the extension's
/// announcer, in order, on the file's clock, with a folder standing in for the App Group: one line
/// per decision, then the tally.
enum ReplayCommand {
    /// The largest file of pushes read: a million lines of a short payload.
    static let maxFileBytes = 256 << 20

    static let format = Option.format.choosing(["text", "jsonl"])

    static let spec = CommandSpec(
        name: "replay", summary: "run a file of pushes through the extension's announcer in order, with a tally",
        arguments: .one("FILE", missing: "replay needs a FILE of pushes, one a line (SECONDS AMOUNT [ID], or a JSON payload with \"at\")"),
        options: [.requiredGroup, .output, .voice, format], about: Help.replayAbout,
        exitCodes: "exit codes: 0 replayed (fallbacks are decisions), 1 FILE or the set cannot be read, 64 bad usage")

    static func run(_ arguments: [String], console: Console, spelling: CommandSpelling = .installed) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        let path = try parsed.arguments()[0]
        guard let groupPath = parsed.given(.group) else {
            throw UsageError("replay needs \(Option.group.label) (the folder that stands in for the App Group; a fresh one for each replay)")
        }
        let format = try parsed.choice(Self.format)!
        _ = try Voices.name(parsed)

        let url = URL(fileURLWithPath: path)
        let group = URL(fileURLWithPath: groupPath)
        if let problem = inputProblem(url, shown: path, group: groupPath) {
            console.err("soundset: \(problem)")
            return ExitCode.failure
        }
        let log: (pushes: [ReplayPush], problems: [String])
        do { log = try PushLog.read(url, file: ClipNamePrinting.safe(path)) } catch {
            console.err("soundset: \(ClipNamePrinting.safe(path)): \(error.reason)")
            return ExitCode.failure
        }
        guard log.problems.isEmpty else {
            for problem in log.problems { console.err("error: \(problem)") }
            console.err(
                "soundset: \(log.problems.count) line\(log.problems.count == 1 ? "" : "s") of \(ClipNamePrinting.safe(path)) cannot be replayed; nothing was run"
            )
            return ExitCode.failure
        }
        guard !log.pushes.isEmpty else {
            console.err("soundset: \(ClipNamePrinting.safe(path)): no pushes (write one a line: SECONDS AMOUNT [ID], or a JSON payload with \"at\")")
            return ExitCode.failure
        }

        // The output folder itself, or with several voices the voice's set in it.
        let topName = parsed.value(.output)!.trimmingTrailingSlashes
        let set = try Voices.setFolder(parsed, output: topName, spelling: spelling)
        let outputName = set.display
        let output = set.url
        let decisions: [(push: ReplayPush, decision: AnnouncementDecision)]
        do {
            // The set is read (and installed) while no build swaps a new one in.
            decisions = try OutputFolder.reading(output) { () throws -> [(push: ReplayPush, decision: AnnouncementDecision)] in
                let set: SoundSet
                // A link in the set is not the set (a commit or an app carries the link): not read.
                if let refusal = SetLink.refusal(in: output, display: outputName) {
                    throw Unavailable(description: "\(refusal) (run \(spelling.build(output: topName)) first)")
                }
                do { set = try SoundSet(folder: output) } catch {
                    throw Unavailable(
                        description: "\(error)\((error as? ManifestError)?.isUnreadable == true ? " (run \(spelling.build(output: topName)) first)" : "")")
                }
                let announcer = Announcer(set: set, group: GroupFolder(group))
                return log.pushes.map { ($0, announcer.announce($0.request)) }
            }
        } catch {
            console.err("soundset: \(error)")
            return ExitCode.failure
        }
        let tally = ReplayTally(decisions)
        if format == "jsonl" {
            for (push, decision) in decisions { console.out(try JSONFormatting.line(members(push, decision))) }
            console.out(try JSONFormatting.line([("tally", tally)]))
        } else {
            printTable(decisions, console: console)
            console.out(tally.text)
        }
        return ExitCode.success
    }

    /// Why the file of pushes at `url` or the group folder cannot start a replay, or nil.
    static func inputProblem(_ url: URL, shown path: String, group groupPath: String) -> String? {
        // The size first: the file is then read a chunk at a time (`PushLog.read`).
        do throws(RegularFile.Failure) {
            let size = try RegularFile.head(url, count: 0).size
            guard size <= maxFileBytes else { throw RegularFile.Failure(reason: "is \(size) bytes, more than the \(maxFileBytes) allowed", kind: .tooLarge) }
        } catch {
            return "\(ClipNamePrinting.safe(path)): \(error.reason)"
        }
        // A replay starts from an empty group folder: an earlier replay's queue would make its
        // transactions duplicates and its announcements waits.
        if let problem = AnnounceCommand.groupProblem(groupPath) { return problem }
        if let names = try? FileManager.default.contentsOfDirectory(atPath: groupPath), !names.isEmpty {
            return
                "\(ClipNamePrinting.safe(groupPath)) is not empty (an earlier replay's queue would carry over): give \(Option.group.name) a new folder, or remove it first"
        }
        return nil
    }

    /// The set cannot be read: the replay runs nothing.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// A decision's JSON line: what a reader looks for first (when, what, the outcome), then the rest.
    static func members(_ push: ReplayPush, _ decision: AnnouncementDecision) -> [(key: String, value: any Encodable)] {
        [
            ("line", push.line), ("at", JSONFormatting.milliseconds(push.at)), ("amount", push.amount), ("id", decision.transactionID),
            ("outcome", decision.outcome.rawValue), ("delivery", decision.delivery.rawValue), ("start", JSONFormatting.milliseconds(decision.start)),
            ("end", JSONFormatting.milliseconds(decision.end)), ("wait", JSONFormatting.milliseconds(decision.wait)), ("reason", decision.reason),
            ("sound", decision.sound), ("systemSound", decision.systemSound), ("clips", decision.clips), ("notifications", decision.notifications),
            ("key", decision.key),
        ]
    }

    /// One aligned line per decision: time, amount, id, outcome, delivery, start, wait, reason.
    static func printTable(_ decisions: [(push: ReplayPush, decision: AnnouncementDecision)], console: Console) {
        let header = ["time", "amount", "id", "outcome", "delivery", "start", "wait", "reason"]
        let rows = decisions.map { push, decision in
            [
                PushLog.format(push.at), push.amount.map(ClipNamePrinting.safe) ?? "-", decision.transactionID.map(ClipNamePrinting.safe) ?? "-",
                decision.outcome.rawValue, decision.delivery.rawValue, PushLog.format(decision.start), PushLog.format(decision.wait),
                decision.reason.map(ClipNamePrinting.safe) ?? "",
            ]
        }
        // Numbers right-aligned, words left-aligned; the reason, last, as it is.
        let numeric: Set<Int> = [0, 5, 6]
        let widths = (0..<header.count - 1).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() {
                guard column < widths.count else {
                    text += cell
                    break
                }
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                text += (numeric.contains(column) ? pad + cell : cell + pad) + "  "
            }
            return text.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        console.out(line(header))
        for row in rows { console.out(line(row)) }
    }
}

extension ManifestError {
    /// The manifest is missing or cannot be read (a set not built yet), not refused for what it holds.
    var isUnreadable: Bool { if case .unreadable = self { true } else { false } }
}
