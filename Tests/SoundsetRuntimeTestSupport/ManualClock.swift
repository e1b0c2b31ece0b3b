import Foundation
import SoundsetRuntime

/// A clock that moves only when a test says so.
public final class ManualClock: AnnouncerClock, @unchecked Sendable {
    // @unchecked: `time` is only read and written under `lock`.
    private let lock = NSLock()
    private var time: Double

    public init(_ start: Double = 1000) { time = start }

    public func now() -> Double { lock.withLock { time } }

    public func set(_ value: Double) { lock.withLock { time = value } }

    public func advance(_ seconds: Double) { lock.withLock { time += seconds } }
}

/// Keys `k0`, `k1`, ... instead of UUIDs, so names in a test are known in advance.
public final class CountingKeys: @unchecked Sendable {
    // @unchecked: `next` is only read and written under `lock`.
    private let lock = NSLock()
    private var next = 0
    private let prefix: String

    public init(_ prefix: String = "k") { self.prefix = prefix }

    public func make() -> String {
        lock.withLock {
            defer { next += 1 }
            return "\(prefix)\(next)"
        }
    }
}
