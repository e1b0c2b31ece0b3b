/// A chain of local notifications that plays an announcement, one clip per notification.
public struct NotificationSchedule: Codable, Sendable, Equatable {
    /// iOS keeps at most this many local notifications pending.
    public static let maxSteps = 64
    /// Sounds of 30 s or more are not played; a chain that long would outlast the extension too.
    public static let maxSeconds = 30.0

    /// One notification of the chain.
    public struct Item: Codable, Sendable, Equatable {
        /// The sound file name, as `UNNotificationSound(named:)` takes it.
        public var sound: String
        /// Seconds from the start of the announcement until this clip starts.
        public var delay: Double
        /// The request identifier: unique to this announcement and step.
        public var identifier: String
    }

    public var items: [Item]
    /// When the last notification's sound ends, seconds from the start.
    public var totalSeconds: Double

    /// Schedules `plan`: each clip waits until its start in the plan (`Timeline`), or, with speech
    /// joins whose pads are longer than the gap, until the previous clip's speech has ended.
    /// - Parameter announcementID: unique per announcement (e.g. the push's id or a UUID); the
    ///   identifiers are `<announcementID>.<step>`, never the sound name or a clock alone, so two
    ///   requests never replace each other.
    /// - Throws: `ScheduleError` for more than 64 steps or 30 s or more.
    public init(plan: AnnouncementPlan, announcementID: String) throws(ScheduleError) {
        guard plan.steps.count <= Self.maxSteps else { throw .tooManySteps(plan.steps.count) }
        guard !announcementID.isEmpty else { throw .emptyIdentifier }
        // The plan's start times: with speech joins a clip starts inside the previous one's trailing
        // pad. But a new notification's sound cuts the one playing, so a clip never starts before
        // the previous clip's speech has ended (a lead longer than the gap): from there on the
        // chain runs that much later than the composed file would.
        let rate = Double(max(1, plan.sampleRate))
        var frames: [Int] = []
        for (index, step) in plan.steps.enumerated() {
            guard index > 0 else {
                frames.append(step.startFrame)
                continue
            }
            let before = plan.steps[index - 1]
            let shift = frames[index - 1] - before.startFrame
            let speechEnd = frames[index - 1] + (before.speechEnd ?? 0)
            frames.append(max(step.startFrame + shift, speechEnd, frames[index - 1]))
        }
        let end = zip(plan.steps, frames).map { $0.frames + $1 }.max() ?? 0
        totalSeconds = Double(end) / rate
        guard totalSeconds < Self.maxSeconds else { throw .tooLong(totalSeconds) }
        items = zip(plan.steps, frames).enumerated().map { index, pair in
            Item(sound: pair.0.file, delay: Double(pair.1) / rate, identifier: "\(announcementID).\(index)")
        }
    }
}

/// Why an announcement cannot be scheduled.
public enum ScheduleError: Error, Equatable, CustomStringConvertible {
    case tooManySteps(Int)
    case tooLong(Double)
    case emptyIdentifier

    public var description: String {
        switch self {
        case .tooManySteps(let count): "the announcement needs \(count) notifications; iOS keeps at most \(NotificationSchedule.maxSteps) pending"
        case .tooLong(let seconds): "the announcement lasts \(seconds) s; it must be shorter than 30 s"
        case .emptyIdentifier: "the announcement identifier is empty"
        }
    }
}
