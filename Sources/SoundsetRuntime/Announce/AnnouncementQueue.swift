import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The group's one queue of announcements, kept in `soundset/queue.json` and changed only under the
/// group's file lock, so pushes handled at once, in one process or several, are ordered.
///
/// It is bounded by construction: at most `maxAnnouncements` announcements (dropped a minute after
/// they end), `maxTransactions` transaction ids (each a fixed-size hash, dropped after
/// `dedupeSeconds`, the oldest first) and `maxLeftovers` files found in `Library/Sounds` that no
/// announcement knows (deleted a minute after they were found). Every field has a fixed or bounded
/// size, so the fullest queue encodes below `maxBytes`, the most the reader accepts; the writer
/// checks it too. It keeps no amount, and no transaction id but its hash.
struct AnnouncementQueue: Codable, Equatable {
    static let currentSchemaVersion = 3
    /// The schema before this one, read as well: its transactions were a list of strings.
    static let previousSchemaVersion = 2
    /// How long after its end an announcement's composed file is kept: nothing that may still play
    /// is deleted.
    static let keepSeconds = 60.0
    static let maxAnnouncements = 256
    static let maxTransactions = 1000
    static let maxLeftovers = 256
    /// The most bytes of `queue.json` read: the fullest queue is about 0.6 MB (`AnnouncementQueueTests`).
    static let maxBytes = 1 << 20
    /// Every announcement is shorter than this: a composed file and a chain (its lead-in included)
    /// are refused at 30 s, and a fallback clip is one clip, shorter than 30 s. A longer entry is
    /// corruption.
    static let longestSeconds = NotificationSchedule.maxSeconds
    /// The longest wait any settings allow (`maxWaitSeconds` is at most 25 s).
    static let longestWait = 25.0
    /// How far the clock may read earlier than the last decision's time before it counts as set
    /// back: two pushes decided a moment apart may carry their arrival times out of order.
    static let clockSlack = 5.0
    /// Times further from the clock than this are not times this library wrote (about year 5000).
    static let maxTime = 1e11

    var schemaVersion = currentSchemaVersion
    /// The time of the latest decision.
    var clock: Double?
    var announcements: [Entry] = []
    var transactions: [Transaction] = []
    var leftovers: [Leftover] = []

    /// What an entry plays.
    enum Kind: String, Codable {
        /// A composed file (`file`).
        case composed
        /// A chain of notifications of the set's installed clips.
        case chain
        /// One installed clip of the set: a failure's fallback sound.
        case clip
    }

    /// One queued announcement.
    struct Entry: Codable, Equatable {
        /// Unique to the announcement: its composed file and notification identifiers carry it.
        var key: String
        var kind: Kind
        var start: Double
        var end: Double
        /// The set whose installed clips it plays.
        var set: String
        /// The composed file in `Library/Sounds`, for composed announcements: written after the
        /// entry is saved, so another process never finds the file without its entry.
        var file: String?
        /// The fire times of a chain's notifications.
        var notifications: [Double]
        /// The hash of its transaction id, when the push carried one.
        var transaction: String?
    }

    /// A transaction id's hash, and when it was seen (to the millisecond), written `<hash>
    /// <milliseconds>`; the queue keeps them all in one string, `,` between them (schema 3): a
    /// thousand decode in a tenth of the time a list of strings takes (schema 2, still read), and
    /// the decision's hold with a full list of ids stays within its 5 ms (`make bench`).
    struct Transaction: Codable, Equatable {
        var hash: String
        var milliseconds: Int64

        init(hash: String, at seconds: Double) {
            self.hash = hash
            milliseconds = Int64((seconds * 1000).rounded())
        }

        init(hash: String, milliseconds: Int64) {
            self.hash = hash
            self.milliseconds = milliseconds
        }

        /// When it was seen, in seconds.
        var at: Double { Double(milliseconds) / 1000 }

        /// `<hash> <milliseconds>` (its UTF-8 bytes), or nil when `text` is not that. Read byte by
        /// byte: a thousand of them are read under the lock at every decision.
        init?<Bytes: Collection>(_ text: Bytes) where Bytes.Element == UInt8 {
            guard let space = text.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            var digits = text[text.index(after: space)...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
            let magnitude = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
            milliseconds = negative ? -magnitude : magnitude
            hash = String(decoding: text[..<space], as: UTF8.self)
        }

        var text: String { "\(hash) \(milliseconds)" }

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let read = Transaction(text.utf8) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a hash and a time"))
            }
            self = read
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    private enum CodingKeys: String, CodingKey { case schemaVersion, clock, announcements, transactions, leftovers }

    init() {}

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try values.decode(Int.self, forKey: .schemaVersion)
        clock = try values.decodeIfPresent(Double.self, forKey: .clock)
        announcements = try values.decode([Entry].self, forKey: .announcements)
        leftovers = try values.decode([Leftover].self, forKey: .leftovers)
        if let joined = try? values.decode(String.self, forKey: .transactions) {
            transactions = try joined.utf8.split(separator: UInt8(ascii: ",")).map { text in
                guard let read = Transaction(text) else {
                    throw DecodingError.dataCorruptedError(forKey: .transactions, in: values, debugDescription: "not a hash and a time")
                }
                return read
            }
        } else {
            transactions = try values.decode([Transaction].self, forKey: .transactions)
        }
        schemaVersion = Self.currentSchemaVersion
    }

    func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(schemaVersion, forKey: .schemaVersion)
        try values.encodeIfPresent(clock, forKey: .clock)
        try values.encode(announcements, forKey: .announcements)
        try values.encode(transactions.map(\.text).joined(separator: ","), forKey: .transactions)
        try values.encode(leftovers, forKey: .leftovers)
    }

    /// A file in `Library/Sounds` with a name soundset writes (a composed file, or a temporary file
    /// of one or of an installed clip) that no announcement knows: left by a process killed midway,
    /// by a state that was started again, or still being written by another process. It is deleted
    /// a minute after it was seen, when nothing decided before can still be playing or writing it.
    struct Leftover: Codable, Equatable {
        var name: String
        var seen: Double
    }

    /// A transaction id as the queue keeps it: the first 128 bits of the SHA-256 of its bytes, as
    /// sent. Ids are opaque: two texts that Unicode calls equal but whose bytes differ are two ids.
    static func hash(_ id: String) -> String { String(SHA256Digest.hex(Data(id.utf8)).prefix(32)) }

    private static let shownName = "\(SoundSetLayout.stateName)/\(GroupFolder.queueName)"

    /// The queue in `group`, or an empty one with a note when the file is unreadable, corrupt, from
    /// another version, or holds times that no clock reading `now` could have written (the device's
    /// time was set back): then it is replaced on the next save, and composed files it named are
    /// found as leftovers and deleted a minute later. A damaged queue still keeps every transaction
    /// id in it that reads whole (`salvagedTransactions`): a retry of a payment already heard is
    /// never announced again because the file around its id was damaged.
    /// - Throws: `GroupFailure` when the system refuses to open it (data protection): a queue that
    ///   cannot be read must not be written over.
    static func load(_ group: OpenGroup, at now: Double) throws(GroupFailure) -> (queue: AnnouncementQueue, note: String?) {
        let again = "so the queue was started again"
        let data: Data
        do { data = try group.state.read(GroupFolder.queueName, maxBytes: maxBytes) } catch {
            switch error {
            case .missing: return (AnnouncementQueue(), nil)
            case .notRegular:
                // Not ours to delete: moved aside, so that the next save can write the file.
                let moved = try group.clearWay(for: GroupFolder.queueName, in: group.state)
                return (AnnouncementQueue(), "\(moved ?? "\(shownName) is not a regular file"), \(again)")
            case .system(let code) where code == EPERM || code == EACCES: throw error.failure(shownName)
            default: return (AnnouncementQueue(), "\(shownName) \(error.reason), \(again)")
            }
        }
        /// The ids that read whole, kept in a queue started again.
        func damaged(_ what: String) -> (queue: AnnouncementQueue, note: String?) {
            var kept = AnnouncementQueue()
            kept.transactions = salvagedTransactions(data)
            let ids = kept.transactions.isEmpty ? "" : " (keeping the \(kept.transactions.count) transaction ids that read whole)"
            return (kept, "\(shownName) \(what), \(again)\(ids)")
        }
        struct Version: Decodable { var schemaVersion: Int }
        guard let version = try? JSONDecoder().decode(Version.self, from: data) else { return damaged("was corrupt (not a queue's JSON)") }
        guard version.schemaVersion == currentSchemaVersion || version.schemaVersion == previousSchemaVersion else {
            return damaged("was written by another version of soundset (schema \(version.schemaVersion))")
        }
        guard let queue = try? JSONDecoder().decode(AnnouncementQueue.self, from: data) else { return damaged("was corrupt (not a queue's JSON)") }
        if let problem = queue.problem { return damaged("was corrupt (\(problem))") }
        let setBack = (queue.clock ?? -Double.infinity) > now + clockSlack
        let tooLate = queue.announcements.contains { $0.start > now + longestWait + clockSlack }
        if setBack || tooLate {
            // The transactions stay (a retry is still a duplicate), but for those whose sound never
            // was in place; the leftovers keep their names.
            var heard = queue
            _ = heard.reclaim(unwrittenIn: group.sounds)
            var kept = AnnouncementQueue()
            kept.transactions = heard.transactions
            kept.leftovers = queue.leftovers.map { Leftover(name: $0.name, seen: min($0.seen, now)) }
            return (kept, "\(shownName) holds times after now (was the device's time changed?), \(again)")
        }
        return (queue, nil)
    }

    /// Every transaction that reads whole in the bytes of a damaged queue: `Transaction`'s form with
    /// a 32-digit lower-case hex hash and a time no clock is far from, between two of `"` and `,`
    /// (schema 3's one string, or schema 2's list), wherever it stands; the latest
    /// `maxTransactions`, each hash once (its latest time), oldest first.
    static func salvagedTransactions(_ data: Data) -> [Transaction] {
        func isHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
        var latest: [String: Int64] = [:]
        for piece in data.split(whereSeparator: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: ",") }) {
            guard piece.count >= 34, piece.count <= 51, let read = Transaction(piece), read.hash.utf8.count == 32, read.hash.utf8.allSatisfy(isHex), read.milliseconds >= 0,
                abs(read.at) < maxTime
            else { continue }
            latest[read.hash] = max(latest[read.hash] ?? .min, read.milliseconds)
        }
        let kept = latest.map { Transaction(hash: $0.key, milliseconds: $0.value) }.sorted { ($0.milliseconds, $0.hash) < ($1.milliseconds, $1.hash) }
        return Array(kept.suffix(maxTransactions))
    }

    /// Writes the queue as a new file, flushed, renamed over the old one, and the folder flushed
    /// (moving aside what is in the way): a kill or a power cut at any byte leaves the old queue or
    /// the new one, whole, never a mix. Only ever under the group's lock.
    /// - Returns: the note of what was moved, if anything.
    @discardableResult
    func save(_ group: OpenGroup) throws(GroupFailure) -> String? {
        // Compact: the file is read and written under the lock, by programs.
        guard let data = try? JSONEncoder().encode(self) else { throw GroupFailure(reason: "\(Self.shownName) cannot be encoded") }
        // Never reached by construction (see `maxBytes`); a queue the reader would refuse is not written.
        guard data.count <= Self.maxBytes else {
            throw GroupFailure(reason: "\(Self.shownName) would be \(data.count) bytes, more than the \(Self.maxBytes) it is read with")
        }
        return try group.replace(GroupFolder.queueName, in: group.state, with: data, durable: true)
    }

    /// What makes this queue one this library did not write, or nil.
    var problem: String? {
        if announcements.count > Self.maxAnnouncements {
            return "it holds \(announcements.count) announcements, more than the \(Self.maxAnnouncements) it keeps"
        }
        if transactions.count > Self.maxTransactions { return "it holds \(transactions.count) transactions, more than the \(Self.maxTransactions) it keeps" }
        if leftovers.count > Self.maxLeftovers { return "it holds \(leftovers.count) leftovers, more than the \(Self.maxLeftovers) it keeps" }
        let sane = { (time: Double) in time.isFinite && abs(time) < Self.maxTime }
        if let clock, !sane(clock) { return "its clock is not a time" }
        for entry in announcements {
            guard GroupFolder.isKey(entry.key[...]), entry.set.isEmpty || isHex(entry.set, count: 10),
                entry.file.map({ GroupFolder.isComposedName($0) && $0.hasPrefix("soundset-\(entry.key).") }) ?? true,
                entry.transaction.map({ isHex($0, count: 32) }) ?? true
            else { return "an announcement has a key, set, file or transaction that soundset does not write" }
            guard sane(entry.start), sane(entry.end), entry.notifications.allSatisfy(sane) else { return "an announcement has a time no clock reads" }
            guard entry.start <= entry.end, entry.notifications.count <= NotificationSchedule.maxSteps,
                entry.notifications.allSatisfy({ $0 >= entry.start && $0 <= entry.end })
            else { return "an announcement's times are out of order" }
            let length = entry.end - entry.start
            guard length < Self.longestSeconds else {
                return String(format: "an announcement lasts %g s, longer than any can (%g s)", length, Self.longestSeconds)
            }
        }
        guard transactions.allSatisfy({ isHex($0.hash, count: 32) && sane($0.at) }) else { return "a transaction is not a hash and a time" }
        guard leftovers.allSatisfy({ Self.isLeftoverName($0.name) && sane($0.seen) }) else {
            return "a leftover is not a file soundset writes"
        }
        return nil
    }

    private func isHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// When the last announcement ends, or nil when none is queued.
    var lastEnd: Double? { announcements.map(\.end).max() }

    /// Chain notifications still to fire at `now`, across every queued chain.
    func pendingNotifications(at now: Double) -> Int {
        announcements.reduce(0) { $0 + $1.notifications.filter { $0 >= now }.count }
    }

    /// The sets whose installed clips a queued announcement may still play, or compose from, at `now`.
    func setsInUse(at now: Double) -> Set<String> {
        Set(announcements.filter { $0.end + Self.keepSeconds > now }.map(\.set))
    }

    /// When the transaction with `hash` was last seen within `window` seconds of `now` (before or
    /// after: two retries arriving together may be decided in either order), or nil.
    func seen(_ hash: String, within window: Double, at now: Double) -> Double? {
        transactions.last { $0.hash == hash && abs(now - $0.at) < window }?.at
    }

    /// Remembers a transaction, forgetting the oldest beyond `maxTransactions`.
    mutating func remember(_ hash: String, at now: Double) {
        transactions.append(Transaction(hash: hash, at: now))
        if transactions.count > Self.maxTransactions { transactions.removeFirst(transactions.count - Self.maxTransactions) }
    }

    /// Drops the composed announcements whose file is neither in `sounds` nor claimed by a live
    /// process (`FolderHandle.claim`): their process was killed between the decision and the file,
    /// so they never played. Their transactions are forgotten with them, so a retry is announced.
    /// - Returns: the hashes of the transactions given back.
    mutating func reclaim(unwrittenIn sounds: FolderHandle) -> Set<String> {
        let missing = Set(announcements.compactMap { $0.kind == .composed ? $0.file : nil }.filter { sounds.kind(of: $0) != S_IFREG })
        guard !missing.isEmpty else { return [] }
        // A writer renames its file into place before it lets its claim go: a file missing before the
        // claims were listed and found unclaimed may have been renamed in between, so it is looked
        // for again after the listing; only then is it known to be abandoned.
        let claimed = sounds.claimed(among: missing)
        let abandoned = missing.subtracting(claimed).filter { sounds.kind(of: $0) != S_IFREG }
        guard !abandoned.isEmpty else { return [] }
        var given = Set<String>()
        announcements.removeAll { entry in
            guard entry.kind == .composed, let file = entry.file, abandoned.contains(file) else { return false }
            if let hash = entry.transaction {
                given.insert(hash)
                if let seen = transactions.lastIndex(where: { $0.hash == hash }) { transactions.remove(at: seen) }
            }
            return true
        }
        return given
    }

    /// The entry `key` withdrawn (a chain the system refused to schedule), with its transaction, so
    /// a retry of the push is announced.
    mutating func withdraw(_ key: String) {
        guard let index = announcements.lastIndex(where: { $0.key == key }) else { return }
        let entry = announcements.remove(at: index)
        if let hash = entry.transaction, let seen = transactions.lastIndex(where: { $0.hash == hash }) { transactions.remove(at: seen) }
    }

    /// Drops announcements that ended a minute or more before `now`, ids older than `window`, and
    /// leftovers seen a minute or more ago.
    /// - Returns: the names in `Library/Sounds` to delete (composed files and leftovers).
    mutating func prune(at now: Double, transactionWindow window: Double) -> [String] {
        let expired = announcements.filter { $0.end + Self.keepSeconds <= now }.compactMap(\.file)
        announcements.removeAll { $0.end + Self.keepSeconds <= now }
        transactions.removeAll { abs(now - $0.at) >= window }
        let gone = leftovers.filter { $0.seen + Self.keepSeconds <= now }.map(\.name)
        leftovers.removeAll { $0.seen + Self.keepSeconds <= now }
        return expired + gone
    }

    /// Whether `name` may be a leftover: a composed file's name or a temporary file of soundset's,
    /// at most 255 bytes (the longest file name).
    static func isLeftoverName(_ name: String) -> Bool {
        name.utf8.count <= 255 && (GroupFolder.isComposedName(name) || GroupFolder.isOwnTemporary(name))
    }

    /// Takes in the names of `Library/Sounds` that are soundset's but that no announcement knows,
    /// in name order, up to `maxLeftovers` (the rest wait for a later decision).
    mutating func takeIn(_ names: [String], at now: Double) {
        let known = Set(announcements.compactMap(\.file) + leftovers.map(\.name))
        for name in names.sorted() where leftovers.count < Self.maxLeftovers {
            guard Self.isLeftoverName(name), !known.contains(name) else { continue }
            leftovers.append(Leftover(name: name, seen: now))
        }
    }

    /// Makes room for one more announcement: at `maxAnnouncements`, the ones that ended longest ago
    /// go first, their files deleted early (they have played).
    /// - Returns: the composed files to delete, or nil when every queued announcement is still to end.
    mutating func makeRoom(at now: Double) -> [String]? {
        guard announcements.count >= Self.maxAnnouncements else { return [] }
        let ended = announcements.indices.filter { announcements[$0].end <= now }.sorted { announcements[$0].end < announcements[$1].end }
        let excess = announcements.count - Self.maxAnnouncements + 1
        guard ended.count >= excess else { return nil }
        let dropped = Set(ended.prefix(excess))
        let files = dropped.compactMap { announcements[$0].file }
        announcements = announcements.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        return files
    }
}
