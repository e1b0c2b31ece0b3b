import Foundation
import SoundsetRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How access lines are written.
public enum AccessLogFormat: String, Sendable, CaseIterable {
    /// `2026-12-03T14:52:07.123Z 127.0.0.1 5f1c0a9d00000001 GET /v1/announcements/1.mp3 200 43249 4.1 ms`
    case text
    /// One JSON object a line: `time`, `client`, `requestId`, `method`, `target`, `status`, `bytes`, `durationMs`.
    case json
}

/// Why the access log cannot be written.
public struct AccessLogError: Error, CustomStringConvertible {
    public var description: String
}

/// The access log: one line per request, formatted on the thread that answered it and appended to
/// a buffer; one writer thread writes what has gathered, at most every 20 ms, in one `write` (a
/// `write(2)` per line made the log cost 20-38 % of cached throughput). A file is reopened by
/// `reopen()` (SIGHUP), so it can be rotated: rename it, send SIGHUP, the next lines go to a new
/// file of the same name. When the writer falls behind by more than 16 MiB (a stderr nobody reads),
/// lines are dropped and counted rather than holding up answers.
public final class AccessLog: @unchecked Sendable {
    // @unchecked: `pending`, `descriptor`, `reopening`, `closing` and `dropped` are only read and
    // written holding `condition`'s lock; `format` and `path` never change.

    /// Where the lines go.
    public enum Destination: Sendable {
        case standardError
        /// A file, created when missing, appended to.
        case file(String)
    }

    public let format: AccessLogFormat
    private let path: String?
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var descriptor: Int32
    private var reopening = false
    private var closing = false
    private var dropped = 0
    private var writer: Thread?
    private let finished = DispatchSemaphore(value: 0)
    static let maxPending = 16 << 20

    public init(format: AccessLogFormat, destination: Destination) throws(AccessLogError) {
        self.format = format
        switch destination {
        case .standardError:
            path = nil
            descriptor = STDERR_FILENO
        case .file(let file):
            path = file
            descriptor = try Self.openFile(file)
        }
        pending.reserveCapacity(64 << 10)
        let thread = Thread { [self] in drain() }
        thread.name = "soundset-access-log"
        writer = thread
        thread.start()
    }

    /// Appends the line of `exchange`.
    public func record(_ exchange: HTTPExchange) {
        var line = Self.line(exchange, format: format, at: Self.wallClock() - exchange.seconds)
        line.append("\n")
        condition.lock()
        if pending.count + line.utf8.count > Self.maxPending {
            dropped += 1
        } else {
            if pending.isEmpty { condition.signal() }
            pending.append(contentsOf: line.utf8)
        }
        condition.unlock()
    }

    /// Reopens the file (after a rotation renamed it) before the next write; nothing for stderr.
    public func reopen() {
        condition.lock()
        reopening = true
        condition.signal()
        condition.unlock()
    }

    /// Writes what is left, then stops the writer and closes the file; waits at most `timeout`
    /// seconds for a write that does not return (a full pipe nobody reads). Lines recorded later are
    /// dropped.
    public func close(timeout: Double = 5) {
        condition.lock()
        let first = !closing
        closing = true
        condition.signal()
        condition.unlock()
        guard first, finished.wait(timeout: .now() + timeout) == .success else { return }
        if path != nil { closeDescriptor(descriptor) }
    }

    // MARK: - Writing

    private func drain() {
        var batch: [UInt8] = []
        batch.reserveCapacity(64 << 10)
        while true {
            condition.lock()
            while pending.isEmpty && !reopening && !closing { condition.wait() }
            let stopping = closing
            condition.unlock()
            // Let a batch gather: one write for every line of the next 20 ms.
            if !stopping { usleep(20_000) }
            condition.lock()
            swap(&batch, &pending)
            let reopen = reopening
            reopening = false
            let lost = dropped
            dropped = 0
            let target = descriptor
            condition.unlock()
            if lost > 0 { batch.append(contentsOf: "soundset: \(lost) access lines dropped: the log was not written fast enough\n".utf8) }
            Self.writeAll(batch, to: target)
            batch.removeAll(keepingCapacity: true)
            if reopen, let path { reopenFile(path) }
            if stopping {
                condition.lock()
                let left = pending
                pending = []
                condition.unlock()
                Self.writeAll(left, to: target)
                finished.signal()
                return
            }
        }
    }

    private func reopenFile(_ path: String) {
        do {
            let opened = try Self.openFile(path)
            condition.lock()
            let old = descriptor
            descriptor = opened
            condition.unlock()
            closeDescriptor(old)
        } catch {
            Self.writeAll(Array("soundset: \(error); still writing to the file opened before\n".utf8), to: STDERR_FILENO)
        }
    }

    private static func openFile(_ path: String) throws(AccessLogError) -> Int32 {
        let descriptor = openForAppending(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw AccessLogError(description: "cannot open the access log \(ClipNameRules.printable(path)): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    // MARK: - Lines

    /// Seconds since 1970, now.
    static func wallClock() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The line of `exchange`, whose request arrived at `time` (seconds since 1970), without its newline.
    public static func line(_ exchange: HTTPExchange, format: AccessLogFormat, at time: Double) -> String {
        let stamp = timestamp(time)
        let ms = milliseconds(exchange.seconds)
        switch format {
        case .text:
            return "\(stamp) \(printable(exchange.client)) \(printable(exchange.requestID)) \(requestPart(exchange))"
        case .json:
            var text = "{\"time\":\"\(stamp)\",\"client\":"
            appendJSON(exchange.client, to: &text)
            text += ",\"requestId\":"
            appendJSON(exchange.requestID, to: &text)
            text += ",\"method\":"
            appendJSON(exchange.method, to: &text)
            text += ",\"target\":"
            appendJSON(exchange.target, to: &text)
            text += ",\"status\":\(exchange.status),\"bytes\":\(exchange.bytes),\"durationMs\":\(ms)}"
            return text
        }
    }

    /// The request line's part of a text line: method, target, status, body bytes, milliseconds.
    static func requestPart(_ exchange: HTTPExchange) -> String {
        "\(printable(exchange.method)) \(printable(exchange.target)) \(exchange.status) \(exchange.bytes) \(milliseconds(exchange.seconds)) ms"
    }

    /// Control characters escaped, at most 200 characters; plain ASCII (nearly every target) as it is.
    private static func printable(_ text: String) -> String {
        if text.utf8.count <= 200 && text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        return ClipNameRules.printable(text)
    }

    /// `12.3`: milliseconds with one decimal.
    static func milliseconds(_ seconds: Double) -> String {
        let tenths = seconds.isFinite ? max(0, Int((seconds * 10_000).rounded())) : 0
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// RFC 3339 in UTC with milliseconds: `2026-12-03T14:52:07.123Z`.
    static func timestamp(_ time: Double) -> String {
        var whole = time_t(time.rounded(.down))
        let millis = min(999, max(0, Int(((time - Double(whole)) * 1000).rounded(.down))))
        var parts = tm()
        gmtime_r(&whole, &parts)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(millis, 3)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as it is.
    static func appendJSON(_ text: String, to output: inout String) {
        output.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    let hex = String(scalar.value, radix: 16)
                    output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }
}

/// `close(2)`, out of reach of `AccessLog.close()`'s name.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

/// `open(2)`, out of reach of the type's names.
private func openForAppending(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
