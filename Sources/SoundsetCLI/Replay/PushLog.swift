import Foundation
import SoundsetBuild
import SoundsetRuntime

/// One push of a replay: where it was written, when it arrives and what it carries.
struct ReplayPush {
    /// Its line in the file (from 1).
    var line: Int
    /// When it arrives, seconds on the replay's clock.
    var at: Double
    /// The amount as the push carries it, for the printed line; nil when it carries none that reads.
    var amount: String?
    var request: AnnouncementRequest
}

/// A replay's file of pushes, one a line: `SECONDS AMOUNT [ID]`, or a push's JSON payload as APNs
/// delivers it with an `"at"` field (`{"aps": {…}, "amount": "12.50", "transactionId": "t1", "at":
/// 1000.5}`), read through `PushPayload` as the extension reads it. Blank lines and lines starting
/// with `#` are skipped. Times must not go back: the pushes are replayed in the order they arrive.
enum PushLog {
    /// The longest line read, in bytes: what a push's JSON may have (`PushPayload.maxJSONBytes`,
    /// the cap of `announce --payload` and of the extension's reading). A longer line is named and
    /// not kept: the file is read a chunk at a time, so memory holds one line at most, whatever
    /// the file's lines.
    static let maxLineBytes = PushPayload.maxJSONBytes

    /// The pushes in the file at `url` (named `file` in problems), and every line that cannot be
    /// read, as `FILE:LINE: problem`: a line that is not UTF-8 text (a byte that is not would be
    /// read as U+FFFD, and two ids that differ only there would be one), or longer than
    /// `maxLineBytes`, or not a push.
    /// - Throws: `RegularFile.Failure` when the file cannot be read.
    static func read(_ url: URL, file: String) throws(RegularFile.Failure) -> (pushes: [ReplayPush], problems: [String]) {
        var reader = LineReader(file: file)
        try RegularFile.stream(url) { chunk in reader.take(chunk) }
        reader.finish()
        return (reader.pushes, reader.problems)
    }

    /// The file's bytes as they come, cut at each line feed into lines of at most `maxLineBytes`
    /// (a longer one is counted, not kept), each read as it ends.
    private struct LineReader {
        let file: String
        var pushes: [ReplayPush] = []
        var problems: [String] = []
        /// The current line's bytes, while it is no longer than `maxLineBytes`.
        private var line: [UInt8] = []
        /// The current line's length, kept or not.
        private var length = 0
        /// The lines read so far, as a text editor counts them (any line end: `\r\n`, `\r`, U+2028 ...).
        private var number = 0

        init(file: String) { self.file = file }

        mutating func take(_ chunk: UnsafeRawBufferPointer) {
            var start = 0
            while start < chunk.count {
                let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
                let end = rest.firstIndex(of: 0x0A).map { start + $0 }
                let piece = UnsafeRawBufferPointer(rebasing: chunk[start..<(end ?? chunk.count)])
                length += piece.count
                if length <= maxLineBytes { line.append(contentsOf: piece) } else { line = [] }
                guard let end else { return }
                endLine()
                start = end + 1
            }
        }

        /// The last line, when the file does not end with a line feed.
        mutating func finish() {
            if length > 0 { endLine() }
        }

        private mutating func endLine() {
            defer {
                line.removeAll(keepingCapacity: true)
                length = 0
            }
            guard length <= maxLineBytes else {
                number += 1
                problems.append(
                    "\(file):\(number): is \(length) bytes, more than the \(maxLineBytes) a line may have (a push's JSON is at most \(maxLineBytes) bytes): write one push a line"
                )
                return
            }
            // "\r\n" ends one line, as it does in the text.
            if line.last == 0x0D { line.removeLast() }
            let text = String(decoding: line, as: UTF8.self)
            // Split at any line end, as an editor shows the lines.
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            guard String(validating: line, as: UTF8.self) != nil else {
                problems.append("\(file):\(number + 1): is not UTF-8 text: save the file as UTF-8 (a push's JSON is UTF-8)")
                number += lines.count
                return
            }
            for raw in lines {
                number += 1
                read(String(raw))
            }
        }

        /// One line of text, numbered `number`.
        private mutating func read(_ raw: String) {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { return }
            let place = "\(file):\(number)"
            do {
                let push = try line.hasPrefix("{") ? json(line, line: number) : words(line, line: number)
                if let last = pushes.last, push.at < last.at {
                    problems.append(
                        "\(place): \(format(push.at)) is before the push above it (\(format(last.at))): list the pushes in the order they arrive")
                }
                pushes.append(push)
            } catch {
                problems.append("\(place): \(error.reason)")
            }
        }
    }

    struct Problem: Error {
        var reason: String
    }

    /// `SECONDS AMOUNT [ID]`.
    private static func words(_ line: String, line number: Int) throws(Problem) -> ReplayPush {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard (2...3).contains(words.count) else {
            throw Problem(reason: "'\(ClipNamePrinting.safe(line))' is not SECONDS AMOUNT [ID] (e.g. 1000.5 123.45 tx-1) or a JSON payload")
        }
        guard let at = seconds(words[0]) else { throw Problem(reason: "'\(ClipNamePrinting.safe(words[0]))' \(secondsRule)") }
        let id = words.count == 3 ? words[2] : nil
        return ReplayPush(line: number, at: at, amount: words[1], request: AnnouncementRequest(amount: .text(words[1]), transactionID: id, arrival: at))
    }

    /// A JSON payload with `"at"`, read as iOS reads it (`PushPayload.userInfo(fromJSON:)`); having
    /// the text, a key it repeats falls back, as with `announce --payload` (`request(fromJSON:)`).
    private static func json(_ line: String, line number: Int) throws(Problem) -> ReplayPush {
        let info: [AnyHashable: Any]
        do { info = try PushPayload.userInfo(fromJSON: Data(line.utf8)) } catch { throw Problem(reason: "the payload \(error.description)") }
        // JSON true is a number to JSONSerialization (objCType "c"): not a time.
        guard let time = info["at"] as? NSNumber, String(cString: time.objCType) != "c", case let at = time.doubleValue,
            at.isFinite, at >= 0, at < 1e10
        else { throw Problem(reason: "the payload needs \"at\": the push's arrival in seconds from 0 to 9999999999, e.g. \"at\": 1000.5") }
        let request = (try? PushPayload.request(fromJSON: Data(line.utf8), arrival: at)) ?? PushPayload.request(from: info, arrival: at)
        let amount: String?
        switch request.amount {
        case .text(let text): amount = text
        case .minorUnits(let units): amount = (try? Amount(minorUnits: units))?.description ?? "\(units) minor units"
        case .missing: amount = nil
        }
        return ReplayPush(line: number, at: at, amount: amount, request: request)
    }

    /// What a time in seconds may be, said after it.
    static let secondsRule = "is not a time in seconds from 0 to 9999999999, e.g. 1000.5"

    /// A time in seconds as `announce --now` and a replay's lines write it: decimal digits, an
    /// optional fraction, below 10^10 (the year 2286). ("0x10" and "1e3" are numbers to Double.)
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }), parts[0].count <= 10,
            let value = Double(text), value < 1e10
        else { return nil }
        return value
    }

    static func format(_ seconds: Double) -> String { String(format: "%.3f", seconds) }
}
