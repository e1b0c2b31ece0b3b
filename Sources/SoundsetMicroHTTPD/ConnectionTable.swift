internal import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every open connection and where its request is: the deadline libmicrohttpd does not keep (its
/// own timeout restarts with every byte, so a client sending a byte a second would hold its
/// connection for ever), and what stopping waits for.
///
/// A connection is idle from when it opens, and again from each response's end; receiving from
/// its request line; handling from when the request is whole and handed to the handler until its
/// response is sent. An idle or receiving connection older than the deadline is shut down
/// (`shutdown(2)`, which libmicrohttpd sees as the client leaving, and so closes it). Entries are
/// removed on libmicrohttpd's close notification, which comes before it closes the socket; the
/// shutdown is made holding the same lock, so it never reaches a socket number reused since.
///
/// It keeps the connection limit too (libmicrohttpd's own, set higher, only stops accepting, so a
/// client waits in the kernel's queue behind connections doing nothing): a connection opened past
/// `limit` makes room by shutting down the one idle the longest, with no request begun on it; when
/// every connection has one under way, the new one is refused.
///
/// A request has begun on an idle connection when bytes have come since its last response (or
/// since it opened). The library reads them as they come, so that is asked of the system
/// (`TCP_INFO`) when it matters, at the limit and when stopping, never once a request: bytes still
/// in the socket; any byte received on a connection not answered yet; data come more than
/// `Self.lastDataMargin` after the last response ended (the system counts in ticks of up to 4 ms:
/// a request begun sooner than that after the previous response, and still incomplete, counts as
/// not begun).
final class ConnectionTable: @unchecked Sendable {
    // @unchecked: every field is only read and written holding `lock`.
    private let lock = NSLock()
    private var entries: [UInt: Entry] = [:]
    /// Entries shut down, not yet closed by the library: they hold no place under the limit.
    private var expiredCount = 0
    /// Connections opened since the start.
    private var openedCount = 0
    private var stopping = false
    /// The most connections open at once.
    let limit: Int

    init(limit: Int = .max) { self.limit = limit }

    enum Phase { case idle, receiving, handling }

    struct Entry {
        var socket: Int32
        var phase: Phase = .idle
        /// When the phase began (monotonic seconds): the connection's opening or the last response's end.
        var since: Double
        /// The request line's target, as the library handed it over (up to any NUL in it).
        var target = ""
        /// The target's length in bytes, as handed over.
        var targetBytes = 0
        var method = ""
        /// When the request line arrived.
        var started: Double = 0
        var status = 0
        var bytes = 0
        /// Shut down (late, or to make room): told once.
        var expired = false
        /// The client's address, for the access log.
        var client = "-"
        /// The id of the request last answered (`X-Request-Id`).
        var requestID = "-"
        /// Whether a response has ended on it.
        var answered = false
    }

    /// Seconds by which data must have come after a response's end to count as a new request's.
    static let lastDataMargin = 0.005

    /// What became of a connection opened.
    enum Admission: Equatable {
        case admitted
        /// Admitted in place of an idle connection, shut down.
        case admittedClosingIdle
        /// Over the limit with every other connection busy: to be refused.
        case refused
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// A connection opened on `socket`: admitted, in place of an idle one if the limit is reached,
    /// or to be refused (it is marked shut down; the caller answers and shuts it down).
    ///
    /// At the limit the idle connections are listed once, oldest first, under the lock; the system
    /// is asked whether a request has begun on each outside it (a probe of a socket closed and
    /// reused meanwhile is harmless: the first not begun is checked again under the lock, still
    /// there, still idle since the same moment, before it is shut down).
    func opened(_ connection: UInt, socket: Int32, client: String = "-") -> Admission {
        let candidates: [(key: UInt, entry: Entry)]? = lock.withLock {
            entries[connection] = Entry(socket: socket, since: Self.now(), client: client)
            openedCount += 1
            guard entries.count - expiredCount > limit else { return nil }
            return entries.filter { $0.key != connection && !$0.value.expired && $0.value.phase == .idle }
                .map { (key: $0.key, entry: $0.value) }
                .sorted { $0.entry.since < $1.entry.since }
        }
        guard let candidates else { return .admitted }
        for (key, candidate) in candidates where !Self.begun(candidate, now: Self.now()) {
            let made: Admission? = lock.withLock {
                guard entries.count - expiredCount > limit else { return .admitted }  // room made meanwhile
                guard let entry = entries[key], !entry.expired, entry.phase == .idle, entry.since == candidate.since,
                    entry.socket == candidate.socket
                else { return nil }
                entries[key]?.expired = true
                expiredCount += 1
                _ = shutdown(entry.socket, Int32(SHUT_RDWR))
                return .admittedClosingIdle
            }
            if let made { return made }
        }
        return lock.withLock {
            guard let entry = entries[connection], !entry.expired else { return .admitted }
            guard entries.count - expiredCount > limit else { return .admitted }
            entries[connection]?.expired = true
            expiredCount += 1
            return .refused
        }
    }

    func closed(_ connection: UInt) {
        lock.withLock {
            if entries.removeValue(forKey: connection)?.expired == true { expiredCount -= 1 }
        }
    }

    /// Connections opened since the start.
    var opened: Int { lock.withLock { openedCount } }

    /// Whether bytes of a new request have come on an idle connection (the system asked; no lock needed).
    private static func begun(_ entry: Entry, now: Double) -> Bool {
        var waiting: Int32 = 0
        if ioctl(entry.socket, UInt(FIONREAD), &waiting) == 0 && waiting > 0 { return true }
        var received: Int64 = -1
        var milliseconds: Int64 = -1
        guard soundset_tcp_received(entry.socket, &received, &milliseconds) == 0 else { return false }
        if !entry.answered { return received > 0 }
        return milliseconds >= 0 && Double(milliseconds) / 1000 + lastDataMargin < now - entry.since
    }

    /// The request line arrived with `target`.
    func requestLine(_ connection: UInt, target: String, bytes: Int = -1) {
        let now = Self.now()
        lock.withLock {
            guard let index = entries.index(forKey: connection) else { return }
            entries.values[index].phase = .receiving
            entries.values[index].target = target
            entries.values[index].targetBytes = bytes < 0 ? target.utf8.count : bytes
            entries.values[index].started = now
            entries.values[index].status = 0
            entries.values[index].bytes = 0
            entries.values[index].requestID = "-"
        }
    }

    /// The request is whole: returns its target (and its length in bytes) and start, or nil when the
    /// connection was shut down for being late (the race is decided under the lock: a late request
    /// is never answered).
    func handling(_ connection: UInt, method: String) -> (target: String, started: Double, targetBytes: Int)? {
        lock.withLock {
            guard let index = entries.index(forKey: connection), !entries.values[index].expired else { return nil }
            entries.values[index].phase = .handling
            entries.values[index].method = method
            return (entries.values[index].target, entries.values[index].started, entries.values[index].targetBytes)
        }
    }

    /// Requests handed to the handler and not yet answered (their response not yet sent).
    func handlingCount() -> Int { lock.withLock { entries.values.count { $0.phase == .handling } } }

    /// Sets the target of `connection`'s request (the NUL the library cut it at put back).
    func setTarget(_ connection: UInt, _ target: String) {
        lock.withLock {
            if let index = entries.index(forKey: connection) { entries.values[index].target = target }
        }
    }

    /// The response queued: `status`, with `bytes` of body to send, for the request `requestID`.
    /// - Returns: whether stopping has begun (the response is the connection's last).
    func responded(_ connection: UInt, status: Int, bytes: Int, requestID: String = "-") -> Bool {
        lock.withLock {
            if let index = entries.index(forKey: connection) {
                entries.values[index].status = status
                entries.values[index].bytes = bytes
                entries.values[index].requestID = requestID
            }
            return stopping
        }
    }

    /// Stopping has begun: `responded` says so from now on.
    func beginStopping() { lock.withLock { stopping = true } }

    /// The request ended (its response sent, or its connection closed): the entry as it was, and
    /// the connection idle again.
    func completed(_ connection: UInt) -> Entry? {
        let now = Self.now()
        return lock.withLock {
            guard let index = entries.index(forKey: connection) else { return nil }
            let ended = entries.values[index]
            entries.values[index].phase = .idle
            entries.values[index].since = now
            entries.values[index].answered = true
            return ended
        }
    }

    /// Shuts down every connection whose request has not arrived whole within `timeout` seconds.
    /// - Returns: how many were shut down.
    @discardableResult
    func expire(after timeout: Double) -> Int {
        let now = Self.now()
        return lock.withLock {
            var count = 0
            for (key, entry) in entries where entry.phase != .handling && !entry.expired && now - entry.since > timeout {
                entries[key]?.expired = true
                expiredCount += 1
                _ = shutdown(entry.socket, Int32(SHUT_RDWR))
                count += 1
            }
            return count
        }
    }

    /// Requests under way: receiving or being handled, or begun on an idle connection (its first
    /// bytes come, in the library's buffer or still in the socket's).
    func underWay() -> Int {
        let now = Self.now()
        return lock.withLock {
            entries.values.filter { entry in
                if entry.expired { return false }
                return entry.phase != .idle || Self.begun(entry, now: now)
            }.count
        }
    }
}
