import Foundation

/// What a build did, counted: the work that costs, so a test can hold "a no-op build does nothing"
/// and "one changed take costs one take" by counts, not timings. `soundset build --verbose` prints
/// it (`summary`).
public struct BuildWork: Codable, Sendable, Equatable {
    /// Recordings whose file was stat'ed to prove it unchanged (once each, by the no-op check).
    public var takesStatted = 0
    /// Recordings whose header was read (libsndfile opened the file): the memo answers for a
    /// recording its stamp proves unchanged.
    public var headersRead = 0
    /// Recordings read and hashed (the memo could not prove them unchanged by their stamps).
    public var takesHashed = 0
    /// Recordings decoded (libsndfile), mixed down and trimmed.
    public var takesDecoded = 0
    /// Recordings resampled to the set's rate (libsamplerate): at most once each.
    public var takesResampled = 0
    /// Pairs of takes whose fingerprints were compared (the same-recording check).
    public var fingerprintsCompared = 0
    /// Clips encoded into files.
    public var clipsEncoded = 0
    /// Bytes written into the set (clips, copies, manifest; a file linked from the last build is none;
    /// a clip finished again at a lower level by the level search is counted each time).
    public var bytesWritten = 0

    public init() {}

    /// One line: `work: 230 takes stat'ed, 0 headers read, 0 hashed, 0 decoded, 0 resampled; 0 fingerprint pairs compared; 0 clips encoded, 0 bytes written`.
    public var summary: String {
        "work: \(takesStatted) takes stat'ed, \(headersRead) headers read, \(takesHashed) hashed, \(takesDecoded) decoded, \(takesResampled) resampled; "
            + "\(fingerprintsCompared) fingerprint pairs compared; \(clipsEncoded) clips encoded, \(bytesWritten) bytes written"
    }

    /// Counts `amount` of the work at `item` for the build running in this task (and its child
    /// tasks); nothing outside a build (the check decodes takes too).
    package static func count(_ item: WritableKeyPath<BuildWork, Int>, _ amount: Int = 1) {
        Counter.current?.add(item, amount)
    }

    /// The counts of one build, shared by its tasks.
    package final class Counter: @unchecked Sendable {
        // @unchecked: `work` is read and written under `lock` only.
        @TaskLocal package static var current: Counter?
        private let lock = NSLock()
        private var work = BuildWork()

        package init() {}

        package func add(_ item: WritableKeyPath<BuildWork, Int>, _ amount: Int) {
            lock.withLock { work[keyPath: item] += amount }
        }

        package var counted: BuildWork { lock.withLock { work } }
    }
}
