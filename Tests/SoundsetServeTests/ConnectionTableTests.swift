import Foundation
import Testing

@testable import SoundsetMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection limit's choices (`ConnectionTable.opened`), over socket pairs: the server's end
/// in the table, the client's end to write a request's first bytes into or to see a shutdown.
@Suite struct ConnectionTableTests {
    /// A connected pair of sockets: `server` for the table, `client` for the test.
    private final class Pair {
        let server: Int32
        let client: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            #if canImport(Glibc)
                let type = Int32(SOCK_STREAM.rawValue)
            #else
                let type = SOCK_STREAM
            #endif
            guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw POSIXError(.EMFILE) }
            server = ends[0]
            client = ends[1]
        }

        /// Whether the server's end was shut down: the client reads the end, without waiting.
        var shutDown: Bool {
            var byte: UInt8 = 0
            return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }

        func write(_ text: String) { _ = text.withCString { send(client, $0, strlen($0), 0) } }

        deinit {
            close(server)
            close(client)
        }
    }

    @Test func underTheLimitEveryConnectionIsAdmitted() throws {
        let table = ConnectionTable(limit: 3)
        let pairs = try (0..<3).map { _ in try Pair() }
        for (index, pair) in pairs.enumerated() { #expect(table.opened(UInt(index + 1), socket: pair.server) == .admitted) }
        #expect(pairs.allSatisfy { !$0.shutDown })
        #expect(table.opened == 3)
    }

    /// At the limit the connection idle the longest with no request begun makes room; one with
    /// bytes waiting (a request begun) is passed over, and so is one handling a request.
    @Test func atTheLimitTheOldestIdleWithNothingBegunIsShutDown() throws {
        let table = ConnectionTable(limit: 3)
        let pairs = try (0..<4).map { _ in try Pair() }
        #expect(table.opened(1, socket: pairs[0].server) == .admitted)
        #expect(table.opened(2, socket: pairs[1].server) == .admitted)
        #expect(table.opened(3, socket: pairs[2].server) == .admitted)
        pairs[0].write("GET /v1/pla")  // begun: its bytes wait in the socket
        table.requestLine(2, target: "/healthz")
        #expect(table.handling(2, method: "GET") != nil)  // handed to the handler (or suspended on a worker)
        #expect(table.opened(4, socket: pairs[3].server) == .admittedClosingIdle)
        #expect(!pairs[0].shutDown && !pairs[1].shutDown)
        #expect(pairs[2].shutDown)
        table.closed(3)
    }

    /// With a request under way on every other connection, a new one is refused, and none of the
    /// others is shut down; once one closes, the next is admitted.
    @Test func withEveryConnectionBusyTheNewOneIsRefused() throws {
        let table = ConnectionTable(limit: 2)
        let pairs = try (0..<4).map { _ in try Pair() }
        #expect(table.opened(1, socket: pairs[0].server) == .admitted)
        #expect(table.opened(2, socket: pairs[1].server) == .admitted)
        table.requestLine(1, target: "/v1/announcements/1.mp3")
        #expect(table.handling(1, method: "GET") != nil)
        pairs[1].write("GET /")
        #expect(table.opened(3, socket: pairs[2].server) == .refused)
        #expect(!pairs[0].shutDown && !pairs[1].shutDown)
        #expect(table.handlingCount() == 1)
        table.closed(3)  // the refused one, closed by the library
        table.closed(1)
        #expect(table.opened(4, socket: pairs[3].server) == .admitted)
    }
}
