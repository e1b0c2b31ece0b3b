import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime

/// One prepared clip in the disk memo, `<key>.clip`: the summary (small, read for every clip), then
/// the samples and their true-peak envelope (read only when the clip must be finished again).
///
/// ```
/// "SSCLIP05"  u64 length  summary  u64 checksum      (of all before it)
/// samples (Float32 LE)  block ends (UInt32 LE)  block peaks (Float32 LE)  u64 checksum
/// ```
///
/// The summary is binary (`EntryBytesWriter`; its notes, rare, as JSON): a rebuild reads every
/// clip's summary, and decoding them as JSON was most of what a rebuild after one changed take cost.
/// It carries the entry's own key and its recording's sha256: an entry copied over another is
/// recognised and ignored. Its sizes say how long the file must be, checked before anything large
/// is read, so a damaged or hostile entry costs nothing but its making again.
struct ClipEntry {
    static let magic = Data("SSCLIP05".utf8)
    static let fileExtension = "clip"
    /// Longest summary read: two to four kilobytes in practice (the recording's envelope and the
    /// fingerprint are most of it).
    static let maxSummaryBytes: UInt64 = 1 << 20

    /// The summary's fields on disk.
    struct Stored {
        var key: String
        var sourceSHA256: String
        var region: TrimRegion
        var measurement: LoudnessMeasurement
        var analysis: ClipAnalysis
        var sampleCount: Int
        var blockCount: Int
        /// The envelope's `exactAbove`, as the bits of the Float.
        var envelopeExactAbove: UInt32

        func encoded() throws -> Data {
            var out = EntryBytesWriter()
            out.string(key)
            out.string(sourceSHA256)
            for value in [region.soundStart, region.soundEnd, region.keepStart, region.keepEnd] { out.int(value) }
            for value in [region.noiseFloorDb, region.peakDb, region.thresholdDb, measurement.loudness, measurement.truePeak] { out.double(value) }
            out.int(analysis.sourceRate)
            out.int(analysis.sourceFrames)
            out.bytes(analysis.notes.isEmpty ? Data() : try ClipEntry.coder.encoder.encode(analysis.notes))
            out.int8s(analysis.envelope.values)
            out.bool(analysis.fingerprint != nil)
            if let fingerprint = analysis.fingerprint {
                out.int(fingerprint.rate)
                out.int8s(fingerprint.values)
            }
            out.int(sampleCount)
            out.int(blockCount)
            out.uint32(envelopeExactAbove)
            return out.data
        }

        init(
            key: String, sourceSHA256: String, region: TrimRegion, measurement: LoudnessMeasurement, analysis: ClipAnalysis, sampleCount: Int,
            blockCount: Int, envelopeExactAbove: UInt32
        ) {
            self.key = key
            self.sourceSHA256 = sourceSHA256
            self.region = region
            self.measurement = measurement
            self.analysis = analysis
            self.sampleCount = sampleCount
            self.blockCount = blockCount
            self.envelopeExactAbove = envelopeExactAbove
        }

        init(decoding data: Data) throws {
            var input = EntryBytesReader(data)
            key = try input.string()
            sourceSHA256 = try input.string()
            region = TrimRegion(
                soundStart: try input.int(), soundEnd: try input.int(), keepStart: try input.int(), keepEnd: try input.int(),
                noiseFloorDb: try input.double(), peakDb: try input.double(), thresholdDb: try input.double())
            measurement = LoudnessMeasurement(loudness: try input.double(), truePeak: try input.double())
            let sourceRate = try input.int()
            let sourceFrames = try input.int()
            let notes = try input.bytes()
            let envelope = try input.int8s()
            guard envelope.count % 2 == 0 else { throw EntryBytesReader.Short() }
            var fingerprint: TakeFingerprint?
            if try input.bool() {
                // The rate sizes the same-recording search: a damaged or forged one is no entry (as
                // `TakeFingerprint`'s own decoding refuses it).
                let rate = try input.int()
                guard (1...TakeFingerprint.maxRate).contains(rate) else { throw EntryBytesReader.Short() }
                fingerprint = TakeFingerprint(rate: rate, values: try input.int8s())
            }
            analysis = ClipAnalysis(
                sourceRate: sourceRate, sourceFrames: sourceFrames,
                notes: notes.isEmpty ? [] : try ClipEntry.coder.decoder.decode([ClipNote].self, from: notes),
                envelope: ClipEnvelope(values: envelope), fingerprint: fingerprint)
            sampleCount = try input.int()
            blockCount = try input.int()
            envelopeExactAbove = try input.uint32()
            guard input.isAtEnd else { throw EntryBytesReader.Short() }
        }
    }

    /// The entry's bytes for `clip`, under `key`.
    static func encode(_ clip: PreparedClip, key: String) -> Data? {
        let stored = Stored(
            key: key, sourceSHA256: clip.summary.sourceSHA256, region: clip.summary.region, measurement: clip.measurement,
            analysis: clip.summary.analysis, sampleCount: clip.samples.count, blockCount: clip.envelope.blockEnds.count,
            envelopeExactAbove: clip.envelope.exactAbove.bitPattern)
        guard let summary = try? stored.encoded() else { return nil }
        var data = Data(capacity: 32 + summary.count + (clip.samples.count + 2 * stored.blockCount) * 4)
        data.append(magic)
        append(UInt64(summary.count), to: &data)
        data.append(summary)
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

    /// The summary in the entry at `url`, when it is intact, is the entry of `key` and is for the
    /// recording with `sourceSHA256`; and the size the whole entry must have.
    static func summary(at url: URL, key: String, sourceSHA256: String) -> (Stored, entrySize: Int)? {
        // A summary is a few kilobytes: one read of 16 KiB holds it (a second read costs a second open).
        guard var (head, size) = try? RegularFile.head(url, count: 16384, followingLinks: false), head.prefix(8) == magic, head.count >= 16 else {
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
            let stored = try? Stored(decoding: summary),
            stored.key == key, stored.sourceSHA256 == sourceSHA256, (0...(1 << 28)).contains(stored.sampleCount),
            (0...(1 << 28)).contains(stored.blockCount)
        else { return nil }
        return (stored, 16 + Int(length) + 8 + (stored.sampleCount + 2 * stored.blockCount) * 4 + 8)
    }

    /// The samples and envelope in the entry at `url`, checked as `summary(at:)` checks, and whole:
    /// its size is checked against the summary's before anything else is read.
    static func clip(at url: URL, summary: ClipSummary, key: String) -> PreparedClip? {
        guard let (stored, size) = self.summary(at: url, key: key, sourceSHA256: summary.sourceSHA256),
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
        // Any version's entry (`SSCLIP` and two digits): an older one is pruned too.
        (try? RegularFile.head(url, count: 8, followingLinks: false))?.bytes.prefix(6) == magic.prefix(6)
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
    static func integer<Bytes: Collection<UInt8>>(_ data: Bytes) -> UInt64 {
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
