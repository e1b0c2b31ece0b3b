import SoundsetRuntime

/// What a replay's decisions add up to: how many of each outcome, the longest wait, and how many
/// announcements started before the one before them had ended (the queue makes that 0).
struct ReplayTally: Encodable, Equatable {
    var pushes = 0
    var announced = 0
    var shortened = 0
    var fallback = 0
    var duplicate = 0
    /// The longest a push waited for the announcements queued before it, seconds.
    var longestWait = 0.0
    /// The line of the push that waited longest, when one waited at all.
    var longestWaitLine: Int?
    /// Announcements (and fallback clips, which are queued too) that started while another played.
    var overlaps = 0

    init(_ decisions: [(push: ReplayPush, decision: AnnouncementDecision)]) {
        pushes = decisions.count
        var playing: [(start: Double, end: Double)] = []
        for (push, decision) in decisions {
            switch decision.outcome {
            case .announced: announced += 1
            case .shortened: shortened += 1
            case .fallback: fallback += 1
            case .duplicate: duplicate += 1
            }
            if decision.wait > longestWait {
                longestWait = decision.wait
                longestWaitLine = push.line
            }
            // What the queue places: composed files, chains and fallback clips. The system's sound
            // and the push's own sound play at once, outside the queue.
            if decision.delivery != .none || decision.sound != nil { playing.append((decision.start, decision.end)) }
        }
        var latestEnd = -Double.infinity
        for interval in playing.sorted(by: { $0.start < $1.start }) {
            if interval.start < latestEnd { overlaps += 1 }
            latestEnd = max(latestEnd, interval.end)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case pushes, announced, shortened, fallback, duplicate, longestWait, longestWaitLine, overlaps
    }

    func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(pushes, forKey: .pushes)
        try values.encode(announced, forKey: .announced)
        try values.encode(shortened, forKey: .shortened)
        try values.encode(fallback, forKey: .fallback)
        try values.encode(duplicate, forKey: .duplicate)
        try values.encode(JSONFormatting.time(longestWait, in: encoder), forKey: .longestWait)
        try values.encode(longestWaitLine, forKey: .longestWaitLine)
        try values.encode(overlaps, forKey: .overlaps)
    }

    /// The tally in one line.
    var text: String {
        var line = "\(pushes) push\(pushes == 1 ? "" : "es"): \(announced) announced, \(shortened) shortened, \(fallback) fallback, \(duplicate) duplicate"
        line += longestWaitLine.map { "; longest wait \(PushLog.format(longestWait)) s (line \($0))" } ?? "; no push waited"
        return line + "; \(overlaps) announcement\(overlaps == 1 ? "" : "s") overlapped"
    }
}
