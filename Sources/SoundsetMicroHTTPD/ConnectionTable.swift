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
final class ConnectionTable: @unchecked Sendable {
    // @unchecked: `entries` is only read and written holding `lock`.
    private let lock = NSLock()
    private var entries: [UInt: Entry] = [:]

    enum Phase { case idle, receiving, handling }

    struct Entry {
        var socket: Int32
        var phase: Phase = .idle
        /// When the phase began (monotonic seconds): the connection's opening or the last response's end.
        var since: Double
        /// The request line's target, as sent.
        var target = ""
        var method = ""
        /// When the request line arrived.
        var started: Double = 0
        var status = 0
        var bytes = 0
        /// Shut down for being late: told once.
        var expired = false
        /// The client's address, for the access log.
        var client = "-"
        /// The id of the request last answered (`X-Request-Id`).
        var requestID = "-"
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func opened(_ connection: UInt, socket: Int32, client: String = "-") {
        lock.withLock { entries[connection] = Entry(socket: socket, since: Self.now(), client: client) }
    }

    func closed(_ connection: UInt) {
        lock.withLock { _ = entries.removeValue(forKey: connection) }
    }

    /// The request line arrived with `target`.
    func requestLine(_ connection: UInt, target: String) {
        lock.withLock {
            entries[connection]?.phase = .receiving
            entries[connection]?.target = target
            entries[connection]?.started = Self.now()
            entries[connection]?.status = 0
            entries[connection]?.bytes = 0
            entries[connection]?.requestID = "-"
        }
    }

    /// The request is whole: returns its target and start, or nil when the connection was shut down
    /// for being late (the race is decided under the lock: a late request is never answered).
    func handling(_ connection: UInt, method: String) -> (target: String, started: Double)? {
        lock.withLock {
            guard var entry = entries[connection], !entry.expired else { return nil }
            entry.phase = .handling
            entry.method = method
            entries[connection] = entry
            return (entry.target, entry.started)
        }
    }

    /// The response queued: `status`, with `bytes` of body to send, for the request `requestID`.
    func responded(_ connection: UInt, status: Int, bytes: Int, requestID: String = "-") {
        lock.withLock {
            entries[connection]?.status = status
            entries[connection]?.bytes = bytes
            entries[connection]?.requestID = requestID
        }
    }

    /// The request ended (its response sent, or its connection closed): the entry as it was, and
    /// the connection idle again.
    func completed(_ connection: UInt) -> Entry? {
        lock.withLock {
            guard var entry = entries[connection] else { return nil }
            let ended = entry
            entry.phase = .idle
            entry.since = Self.now()
            entries[connection] = entry
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
                _ = shutdown(entry.socket, Int32(SHUT_RDWR))
                count += 1
            }
            return count
        }
    }

    /// Requests under way: receiving or being handled, or bytes of a new one waiting in an idle
    /// connection's socket (which the library has not read yet).
    func underWay() -> Int {
        lock.withLock {
            entries.values.filter { entry in
                if entry.expired { return false }
                if entry.phase != .idle { return true }
                var waiting: Int32 = 0
                return ioctl(entry.socket, UInt(FIONREAD), &waiting) == 0 && waiting > 0
            }.count
        }
    }
}
