import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One counter, added to from any thread without a lock.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    func add(_ amount: Int = 1) { value.wrappingAdd(amount, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}

/// What `GET /metrics` reports, counted as requests are answered: a few relaxed atomic additions
/// a request, no lock. Read in the Prometheus text exposition format (version 0.0.4) by `text`.
final class ServeMetrics: Sendable {
    /// The statuses counted on their own; any other counts as `other`.
    static let statuses = [200, 204, 206, 304, 400, 404, 405, 408, 413, 414, 416, 431, 500, 503]
    /// The `format` label: an announcement's format, or `none` for anything else.
    static let formats = AudioFormat.allCases.map(\.rawValue) + ["none"]
    /// The encode-time histogram's upper bounds, in seconds.
    static let bounds = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    /// [status index][format index], `statuses.count` being `other`.
    private let requests: [[Counter]]
    private let responseBytes = Counter()
    private let connections = Counter()
    let cacheHits = Counter()
    let cacheMisses = Counter()
    /// [format][bucket]: counts per bucket (not cumulative: summed when read), then microseconds spent.
    private let encodeBuckets: [[Counter]]
    private let encodeMicroseconds: [Counter]

    init() {
        requests = (0...Self.statuses.count).map { _ in Self.formats.map { _ in Counter() } }
        encodeBuckets = AudioFormat.allCases.map { _ in (0...Self.bounds.count).map { _ in Counter() } }
        encodeMicroseconds = AudioFormat.allCases.map { _ in Counter() }
    }

    /// A request answered (or refused by the front) with `status` and `bytes` of body; its format
    /// is its target's for `GET` and `HEAD`, none for a preflight or a refused method.
    func answered(method: String, target: String, status: Int, bytes: Int) {
        let row = Self.statuses.firstIndex(of: status) ?? Self.statuses.count
        let column = method == "GET" || method == "HEAD" ? Self.formatIndex(target) : Self.formats.count - 1
        requests[row][column].add()
        responseBytes.add(bytes)
    }

    func connectionsChanged(by delta: Int) { connections.add(delta) }

    /// An announcement in `format` composed and encoded in `seconds`.
    func encoded(_ format: AudioFormat, seconds: Double) {
        let index = AudioFormat.allCases.firstIndex(of: format)!
        let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        encodeBuckets[index][bucket].add()
        encodeMicroseconds[index].add(Int((seconds * 1e6).rounded()))
    }

    /// The format an announcement's target names (`/v1/…/announcements/1.mp3?x`), or `none`: read
    /// from the bytes as sent, without decoding (a target that escapes its extension counts as none).
    static func formatIndex(_ target: String) -> Int {
        let path = target.utf8.prefix { $0 != UInt8(ascii: "?") }
        guard let dot = path.lastIndex(of: UInt8(ascii: ".")), path.contains(where: { $0 == UInt8(ascii: "/") }) else { return formats.count - 1 }
        let ext = path[path.index(after: dot)...]
        return AudioFormat.allCases.firstIndex { $0.rawValue.utf8.elementsEqual(ext) } ?? formats.count - 1
    }

    /// What else the text shows, read when it is asked for.
    struct Snapshot {
        var set: String?
        /// Each voice's set (nil: none valid), when the output folder holds several voices.
        var voices: [(voice: String, set: String?)]?
        var cacheBytes: Int
        var cacheEntries: Int
        var cacheCapacity: Int
    }

    /// The metrics in the Prometheus text exposition format 0.0.4.
    func text(_ snapshot: Snapshot) -> String {
        var out = ""
        func header(_ name: String, _ type: String, _ help: String) { out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n" }

        header("soundset_http_requests_total", "counter", "Requests answered, by status and announcement format (none: not an announcement).")
        for (row, counters) in requests.enumerated() {
            let status = row < Self.statuses.count ? String(Self.statuses[row]) : "other"
            for (column, counter) in counters.enumerated() where counter.current > 0 {
                out += "soundset_http_requests_total{status=\"\(status)\",format=\"\(Self.formats[column])\"} \(counter.current)\n"
            }
        }
        /// A family of one sample, without labels.
        func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
            header(name, type, help)
            out += "\(name) \(value)\n"
        }
        single("soundset_http_response_bytes_total", "counter", "Body bytes of the responses answered (HEAD and 304: none).", responseBytes.current)
        single("soundset_http_open_connections", "gauge", "Connections open now.", connections.current)

        single("soundset_cache_hits_total", "counter", "Announcements answered from the cache.", cacheHits.current)
        single("soundset_cache_misses_total", "counter", "Announcements composed because the cache did not hold them.", cacheMisses.current)
        single("soundset_cache_bytes", "gauge", "Bytes of composed announcements held in the cache (bodies and keys).", snapshot.cacheBytes)
        single("soundset_cache_entries", "gauge", "Announcements held in the cache.", snapshot.cacheEntries)
        single("soundset_cache_capacity_bytes", "gauge", "The cache's bound (--cache-mb).", snapshot.cacheCapacity)

        header("soundset_encode_seconds", "histogram", "Time to compose and encode an announcement, by format.")
        for (index, format) in AudioFormat.allCases.enumerated() {
            var cumulative = 0
            for (bucket, counter) in encodeBuckets[index].enumerated() {
                cumulative += counter.current
                let bound = bucket < Self.bounds.count ? Self.number(Self.bounds[bucket]) : "+Inf"
                out += "soundset_encode_seconds_bucket{format=\"\(format.rawValue)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "soundset_encode_seconds_sum{format=\"\(format.rawValue)\"} \(Self.number(Double(encodeMicroseconds[index].current) / 1e6))\n"
            out += "soundset_encode_seconds_count{format=\"\(format.rawValue)\"} \(cumulative)\n"
        }

        header("soundset_set_info", "gauge", "The set served now, as its id label (absent while the folder holds no valid set).")
        if let set = snapshot.set { out += "soundset_set_info{set=\"\(Self.labelValue(set))\"} 1\n" }
        for (voice, set) in snapshot.voices ?? [] {
            if let set { out += "soundset_set_info{set=\"\(Self.labelValue(set))\",voice=\"\(Self.labelValue(voice))\"} 1\n" }
        }
        header("soundset_set_valid", "gauge", "1 while a valid set is served, 0 otherwise (/healthz answers 503).")
        let valid = snapshot.voices.map { !$0.isEmpty && $0.allSatisfy { $0.set != nil } } ?? (snapshot.set != nil)
        out += "soundset_set_valid \(valid ? 1 : 0)\n"
        if let resident = Self.residentBytes() {
            header("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
            out += "process_resident_memory_bytes \(resident)\n"
        }
        return out
    }

    /// A number as Prometheus reads it: `0.005`, `1`, `2.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func labelValue(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The process's resident set (Linux's /proc/self/statm), or nil elsewhere.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
