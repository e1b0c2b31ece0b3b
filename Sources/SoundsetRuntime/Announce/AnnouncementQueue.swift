import Foundation

/// The group's one queue of announcements, kept in `soundset/queue.json` and changed only under the
/// group's file lock, so pushes handled at once, in one process or several, are ordered.
///
/// It is small: announcements are dropped a minute after they end, transaction ids after
/// `dedupeSeconds`, and at most `maxTransactions` ids are kept.
struct AnnouncementQueue: Codable, Equatable {
    static let currentSchemaVersion = 1
    /// How long after its end an announcement's composed file is kept: nothing that may still play
    /// is deleted.
    static let keepSeconds = 60.0
    static let maxTransactions = 1000
    static let maxBytes = 4 << 20

    var schemaVersion = currentSchemaVersion
    var announcements: [Entry] = []
    var transactions: [Transaction] = []

    /// What an entry plays.
    enum Kind: String, Codable {
        /// A composed file (`file`).
        case composed
        /// A chain of notifications of the set's installed clips.
        case chain
        /// One installed clip of the set: a failure's fallback sound.
        case clip
        /// A composed file the queue did not know (left by a crash or a replaced state): it plays
        /// nothing the queue waits for, and is deleted when the entry ends.
        case stray
    }

    /// One queued announcement.
    struct Entry: Codable, Equatable {
        /// Unique to the announcement: its composed file and notification identifiers carry it.
        var key: String
        /// The decision's id (the transaction id, or a generated one).
        var id: String
        var kind: Kind
        var start: Double
        var end: Double
        /// The set whose installed clips it plays.
        var set: String
        /// The composed file in `Library/Sounds`, for composed announcements.
        var file: String?
        /// The fire times of a chain's notifications.
        var notifications: [Double]
    }

    /// A transaction id seen, and when.
    struct Transaction: Codable, Equatable {
        var id: String
        var at: Double
    }

    /// Times further from the clock than this are not times this library wrote (about year 5000).
    static let maxTime = 1e11

    /// The queue in `group`, or an empty one with a note when the file is unreadable, corrupt, or
    /// holds times that no clock reading `now` could have written (the device's time was changed):
    /// then it is replaced on the next save, and composed files it named are deleted a minute later.
    /// - Parameter horizon: how far after `now` a queued announcement can start (the longest wait).
    static func load(_ group: GroupFolder, at now: Double, horizon: Double) -> (queue: AnnouncementQueue, note: String?) {
        let name = "\(SoundSetLayout.stateName)/\(group.queueFile.lastPathComponent)"
        let data: Data
        do { data = try RegularFile.read(group.queueFile, maxBytes: maxBytes) } catch {
            if error.kind == .missing { return (AnnouncementQueue(), nil) }
            // Not ours to keep: an empty folder or a FIFO in its place would block every save.
            if error.kind == .notRegularFile { group.removeStray(group.queueFile) }
            return (AnnouncementQueue(), "\(name) \(error.reason), so the queue was started again")
        }
        guard let queue = try? JSONDecoder().decode(AnnouncementQueue.self, from: data), queue.isSound else {
            return (AnnouncementQueue(), "\(name) was corrupt, so the queue was started again")
        }
        let times = queue.announcements.flatMap { [$0.start, $0.end] + $0.notifications } + queue.transactions.map(\.at)
        guard queue.announcements.allSatisfy({ $0.start <= now + horizon }), queue.transactions.allSatisfy({ $0.at <= now + horizon }),
            times.allSatisfy({ abs($0) < maxTime })
        else {
            return (AnnouncementQueue(), "\(name) holds times after now (was the device's time changed?), so the queue was started again")
        }
        return (queue, nil)
    }

    /// Writes the queue in one rename.
    func save(_ group: GroupFolder) throws(RegularFile.Failure) {
        guard let data = try? JSONFormatting.encode(self) else { throw RegularFile.Failure(reason: "cannot be encoded") }
        try RegularFile.replace(group.queueFile, with: data)
    }

    /// A version this library writes, finite times, and no file name outside `Library/Sounds`.
    private var isSound: Bool {
        schemaVersion == Self.currentSchemaVersion
            && announcements.allSatisfy { entry in
                entry.start.isFinite && entry.end.isFinite && entry.start <= entry.end && entry.notifications.allSatisfy(\.isFinite)
                    && (entry.file.map(GroupFolder.isComposedName) ?? true)
            }
            && transactions.allSatisfy { $0.at.isFinite }
    }

    /// When the last announcement that plays ends, or nil when none is queued.
    var lastEnd: Double? { announcements.filter { $0.kind != .stray }.map(\.end).max() }

    /// Chain notifications still to fire at `now`, across every queued chain.
    func pendingNotifications(at now: Double) -> Int {
        announcements.reduce(0) { $0 + $1.notifications.filter { $0 >= now }.count }
    }

    /// The sets whose installed clips a queued chain may still play at `now`.
    func setsInUse(at now: Double) -> Set<String> {
        Set(announcements.filter { ($0.kind == .chain || $0.kind == .clip) && $0.end + Self.keepSeconds > now }.map(\.set))
    }

    /// When `id` was last seen within `window` seconds of `now` (before or after: two retries
    /// arriving together may be decided in either order), or nil.
    func seen(_ id: String, within window: Double, at now: Double) -> Double? {
        transactions.last { $0.id == id && abs(now - $0.at) < window }?.at
    }

    /// The entry `key` withdrawn (a chain the system refused to schedule), with its transaction
    /// id, so a retry of the push is announced.
    mutating func withdraw(_ key: String) {
        guard let index = announcements.lastIndex(where: { $0.key == key }) else { return }
        let entry = announcements.remove(at: index)
        if let seen = transactions.lastIndex(where: { $0.id == entry.id }) { transactions.remove(at: seen) }
    }

    /// Drops announcements that ended a minute or more before `now` and ids older than `window`.
    /// - Returns: the composed files of the dropped announcements, to delete.
    mutating func prune(at now: Double, transactionWindow window: Double) -> [String] {
        let expired = announcements.filter { $0.end + Self.keepSeconds <= now }
        announcements.removeAll { $0.end + Self.keepSeconds <= now }
        transactions.removeAll { abs(now - $0.at) >= window }
        if transactions.count > Self.maxTransactions { transactions.removeFirst(transactions.count - Self.maxTransactions) }
        return expired.compactMap(\.file)
    }
}
