import Foundation
import SoundsetAudio
import SoundsetRuntime

/// One prepared clip in the disk memo, `<key>.clip`: the summary (small, read for every clip), then
/// the samples and their true-peak envelope (read only when the clip must be finished again).
///
/// ```
/// "SSCLIP04"  u64 length  summary JSON  u64 checksum      (of all before it)
/// samples (Float32 LE)  block ends (UInt32 LE)  block peaks (Float32 LE)  u64 checksum
/// ```
///
/// The summary carries the entry's own key and its recording's sha256: an entry copied over another
/// is recognised and ignored. Its sizes say how long the file must be, checked before anything
/// large is read, so a damaged or hostile entry costs nothing but its making again.
struct ClipEntry {
    static let magic = Data("SSCLIP04".utf8)
    static let fileExtension = "clip"
    /// Longest summary read: one to two kilobytes in practice (the recording's envelope is most of it).
    static let maxSummaryBytes: UInt64 = 1 << 20

    /// The summary's fields on disk.
    struct Stored: Codable, EntryHead {
        var key: String
        var sourceSHA256: String
        var region: TrimRegion
        var measurement: LoudnessMeasurement
        var analysis: ClipAnalysis
        var sampleCount: Int
        var blockCount: Int
        /// The envelope's `exactAbove`, as the bits of the Float.
        var envelopeExactAbove: UInt32
    }

    /// The entry's bytes for `clip`, under `key`.
    static func encode(_ clip: PreparedClip, key: String) -> Data? {
        let stored = Stored(
            key: key, sourceSHA256: clip.summary.sourceSHA256, region: clip.summary.region, measurement: clip.measurement,
            analysis: clip.summary.analysis, sampleCount: clip.samples.count, blockCount: clip.envelope.blockEnds.count,
            envelopeExactAbove: clip.envelope.exactAbove.bitPattern)
        guard let json = try? coder.encoder.encode(stored) else { return nil }
        var data = Data(capacity: 32 + json.count + (clip.samples.count + 2 * stored.blockCount) * 4)
        data.append(magic)
        append(UInt64(json.count), to: &data)
        data.append(json)
        append(checksum(data), to: &data)
        let payloadStart = data.count
        // 32-bit words, little-endian: on a little-endian machine, the values' own bytes.
        func words<Value>(_ values: [Value], _ bits: (Value) -> UInt32) {
            values.map { bits($0).littleEndian }.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        words(clip.samples, \.bitPattern)
        words(clip.envelope.blockEnds, { $0 })
        words(clip.envelope.blockPeaks, \.bitPattern)
        append(checksum(data[payloadStart...]), to: &data)
        return data
    }

    /// What reading the samples back needs of the summary: the rest (the analysis, most of its
    /// bytes) is not decoded again.
    struct Sizes: Decodable, EntryHead {
        var key: String
        var sourceSHA256: String
        var sampleCount: Int
        var blockCount: Int
        var envelopeExactAbove: UInt32
    }

    /// The summary in the entry at `url`, when it is intact, is the entry of `key` and is for the
    /// recording with `sourceSHA256`; and the size the whole entry must have.
    static func summary(at url: URL, key: String, sourceSHA256: String) -> (Stored, entrySize: Int)? {
        head(at: url, as: Stored.self, key: key, sourceSHA256: sourceSHA256)
    }

    /// `summary(at:key:sourceSHA256:)`, its fields decoded as `Head`.
    private static func head<Head: Decodable & EntryHead>(at url: URL, as: Head.Type, key: String, sourceSHA256: String) -> (Head, entrySize: Int)? {
        // A summary is a few hundred bytes: one read holds it.
        guard var (head, size) = try? RegularFile.head(url, count: 4096, followingLinks: false), head.prefix(8) == magic, head.count >= 16 else {
            return nil
        }
        let length = integer(head.dropFirst(8))
        guard length > 0, length <= maxSummaryBytes, 16 + Int(length) + 8 <= size else { return nil }
        if head.count < 16 + Int(length) + 8 {
            guard let longer = try? RegularFile.head(url, count: 16 + Int(length) + 8, followingLinks: false) else { return nil }
            (head, size) = longer
        }
        let summary = head.dropFirst(16).prefix(Int(length))
        guard head.count >= 16 + Int(length) + 8, checksum(head.prefix(16 + Int(length))) == integer(head.dropFirst(16 + Int(length))),
            let stored = try? coder.decoder.decode(Head.self, from: summary),
            stored.key == key, stored.sourceSHA256 == sourceSHA256, (0...(1 << 28)).contains(stored.sampleCount),
            (0...(1 << 28)).contains(stored.blockCount)
        else { return nil }
        return (stored, 16 + Int(length) + 8 + (stored.sampleCount + 2 * stored.blockCount) * 4 + 8)
    }

    /// The samples and envelope in the entry at `url`, checked as `summary(at:)` checks, and whole:
    /// its size is checked against the summary's before anything else is read.
    static func clip(at url: URL, summary: ClipSummary, key: String) -> PreparedClip? {
        guard let (stored, size) = head(at: url, as: Sizes.self, key: key, sourceSHA256: summary.sourceSHA256),
            stored.sampleCount == summary.sampleCount, (try? RegularFile.head(url, count: 0, followingLinks: false))?.size == size,
            let data = try? RegularFile.read(url, maxBytes: size, followingLinks: false), data.count == size
        else { return nil }
        let payloadStart = data.startIndex + 16 + Int(integer(data.dropFirst(8).prefix(8))) + 8
        let payload = data[payloadStart..<(data.endIndex - 8)]
        guard checksum(payload) == integer(data.suffix(8)) else { return nil }
        func words<Word>(from start: Int, count: Int, _ convert: (UInt32) -> Word) -> [Word] {
            var raw = [UInt32](repeating: 0, count: count)
            let base = payload.startIndex + start * 4
            raw.withUnsafeMutableBytes { _ = payload.copyBytes(to: $0, from: base..<(base + count * 4)) }
            return raw.map { convert(UInt32(littleEndian: $0)) }
        }
        let count = stored.sampleCount
        let blocks = stored.blockCount
        let ends = words(from: count, count: blocks) { $0 }
        guard zip(ends, ends.dropFirst()).allSatisfy({ $0 < $1 }), Int(ends.last ?? 0) == count else { return nil }
        let envelope = TruePeakEnvelope(
            blockEnds: ends, blockPeaks: words(from: count + blocks, count: blocks) { Float(bitPattern: $0) },
            exactAbove: Float(bitPattern: stored.envelopeExactAbove))
        return PreparedClip(summary: summary, samples: words(from: 0, count: count) { Float(bitPattern: $0) }, envelope: envelope)
    }

    /// Whether the file at `url` begins as an entry does: what pruning may delete.
    static func isEntry(_ url: URL) -> Bool {
        (try? RegularFile.head(url, count: 8, followingLinks: false))?.bytes == magic
    }

    // MARK: Bytes

    /// The cache's own JSON: compact, sorted, and able to hold the -inf loudness of silence.
    static var encoder: JSONEncoder { coder.encoder }
    static var decoder: JSONDecoder { coder.decoder }
    private static let coder = (
        encoder: { () -> JSONEncoder in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            return encoder
        }(),
        decoder: { () -> JSONDecoder in
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            return decoder
        }()
    )

    private static func append(_ value: UInt64, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    /// The little-endian 64-bit integer in the first 8 bytes of `data`.
    private static func integer<Bytes: Collection<UInt8>>(_ data: Bytes) -> UInt64 {
        data.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// A 64-bit checksum (FNV-style over 8-byte words): catches a torn or damaged entry. The memo is
    /// no security boundary (everything it holds can be made again); the key inside catches a
    /// misplaced one.
    static func checksum(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(data.count)
        data.withUnsafeBytes { raw in
            let words = raw.count / 8
            for index in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x0000_0100_0000_01b3
                hash ^= hash >> 29
            }
            for index in (words * 8)..<raw.count { hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01b3 }
        }
        return hash
    }
}

/// The fields of an entry's summary that say which entry it is and how long.
protocol EntryHead {
    var key: String { get }
    var sourceSHA256: String { get }
    var sampleCount: Int { get }
    var blockCount: Int { get }
}
