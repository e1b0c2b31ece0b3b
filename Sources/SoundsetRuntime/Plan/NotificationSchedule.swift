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

    /// Schedules `plan`: each clip waits until its start in the plan (`Timeline`).
    /// - Parameter announcementID: unique per announcement (e.g. the push's id or a UUID); the
    ///   identifiers are `<announcementID>.<step>`, never the sound name or a clock alone, so two
    ///   requests never replace each other.
    /// - Throws: `ScheduleError` for more than 64 steps or 30 s or more.
    public init(plan: AnnouncementPlan, announcementID: String) throws(ScheduleError) {
        guard plan.steps.count <= Self.maxSteps else { throw .tooManySteps(plan.steps.count) }
        guard plan.totalSeconds < Self.maxSeconds else { throw .tooLong(plan.totalSeconds) }
        guard !announcementID.isEmpty else { throw .emptyIdentifier }
        // The plan's start times: with speech joins a clip starts inside the previous one's trailing
        // pad. Never earlier than the clip before (a lead longer than the speech before it).
        var delay = 0.0
        items = plan.steps.enumerated().map { index, step in
            delay = max(delay, step.start)
            return Item(sound: step.file, delay: delay, identifier: "\(announcementID).\(index)")
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
