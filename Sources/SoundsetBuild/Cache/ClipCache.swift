import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The build's incremental cache: a folder beside the output folder (`.soundset-cache`, ignored by
/// git) holding, per recording, the prepared clip (trimmed, resampled, faded, measured). Keys are
/// the recording's sha256, the configuration's hash and the tool version, so a stale entry is never
/// found. It is an optimisation only: a missing, corrupt or foreign file is ignored and the clip is
/// made again, giving the same bytes.
///
/// One file per recording, `<key>.clip`: the measurements (small, read for every clip), then the
/// samples and their true-peak envelope (read only when the clip must be finished again), each part
/// followed by a 64-bit checksum. Finished files are not kept twice: the last build's output files
/// serve (see `FinishedFiles`). One file per clip keeps file creation, which costs more than the
/// writing on some file systems, to one per recording.
public struct ClipCache: Sendable {
    /// The cache folder's name, beside the output folder.
    public static let folderName = ".soundset-cache"
    /// Extension of an entry.
    static let entryExtension = "clip"

    let folder: URL
    let configurationHash: String

    /// The cache for an output folder at `output`.
    public init(output: URL, configurationHash: String) {
        folder = Self.folder(for: output)
        self.configurationHash = configurationHash
    }

    static func folder(for output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(folderName)
    }

    /// The key of a recording's prepared clip.
    func key(sourceSHA256: String) -> String {
        SHA256.hex(Data("\(sourceSHA256)|\(configurationHash)|\(ToolVersion.current)".utf8))
    }

    private func entry(_ sourceSHA256: String) -> URL {
        folder.appendingPathComponent("\(key(sourceSHA256: sourceSHA256)).\(Self.entryExtension)")
    }

    // MARK: Prepared clips

    private struct PreparedMeta: Codable {
        var region: TrimRegion
        var measurement: LoudnessMeasurement
        var warnings: [BuildProblem]
        var sampleCount: Int
        /// The envelope's `exactAbove`, as the bits of the Float.
        var envelopeExactAbove: UInt32
    }

    /// The prepared clip stored for `recording` without its samples (`isHollow`), if a valid one is there.
    func prepared(_ recording: Recording, sourceSHA256: String) -> PreparedClip? {
        guard let handle = try? FileHandle(forReadingFrom: entry(sourceSHA256)) else { return nil }
        defer { try? handle.close() }
        guard let lengthBytes = try? handle.read(upToCount: 8), lengthBytes.count == 8 else { return nil }
        let length = Self.integer(lengthBytes)
        guard length > 0, length < 1 << 20, let rest = try? handle.read(upToCount: Int(length) + 8),
            let json = Self.verified(lengthBytes + rest).map({ $0.dropFirst(8) }),
            let meta = try? Self.decoder.decode(PreparedMeta.self, from: json)
        else { return nil }
        return PreparedClip(
            recording: recording, sourceSHA256: sourceSHA256, region: meta.region, samples: [],
            measurement: meta.measurement, envelope: TruePeakEnvelope(blockEnds: [], blockPeaks: [], exactAbove: Float(bitPattern: meta.envelopeExactAbove)),
            warnings: meta.warnings,
            sampleCount: meta.sampleCount)
    }

    /// `clip` with its samples and envelope read back, if its entry is intact.
    func filled(_ clip: PreparedClip) -> PreparedClip? {
        let count = clip.sampleCount
        guard let data = try? Data(contentsOf: entry(clip.sourceSHA256)), data.count >= 16 else { return nil }
        let metaEnd = data.startIndex + 16 + Int(clamping: Self.integer(data.prefix(8)))
        guard metaEnd <= data.endIndex, let payload = Self.verified(data[metaEnd...]),
            payload.count >= count * 4, (payload.count - count * 4) % 8 == 0
        else { return nil }
        // The samples, then the envelope's block ends, then its block peaks: 32-bit little-endian words.
        let blocks = (payload.count - count * 4) / 8
        func words<Word>(from start: Int, count: Int, _ convert: (UInt32) -> Word) -> [Word] {
            var raw = [UInt32](repeating: 0, count: count)
            let base = payload.startIndex + start * 4
            raw.withUnsafeMutableBytes { _ = payload.copyBytes(to: $0, from: base..<(base + count * 4)) }
            return raw.map { convert(UInt32(littleEndian: $0)) }
        }
        let ends = words(from: count, count: blocks) { $0 }
        guard zip(ends, ends.dropFirst()).allSatisfy({ $0 < $1 }), Int(ends.last ?? 0) == count else { return nil }
        var full = clip
        full.samples = words(from: 0, count: count) { Float(bitPattern: $0) }
        full.envelope = TruePeakEnvelope(
            blockEnds: ends, blockPeaks: words(from: count + blocks, count: blocks) { Float(bitPattern: $0) },
            exactAbove: clip.envelope.exactAbove)
        return full
    }

    /// Stores a prepared clip: its measurements, then its samples and envelope, built in place in
    /// one buffer (the samples are 4 bytes in 5 of an entry; they are copied once).
    func store(_ clip: PreparedClip) {
        guard
            let json = try? Self.encoder.encode(
                PreparedMeta(
                    region: clip.region, measurement: clip.measurement, warnings: clip.warnings, sampleCount: clip.samples.count,
                    envelopeExactAbove: clip.envelope.exactAbove.bitPattern))
        else { return }
        let payloadSize = (clip.samples.count + 2 * clip.envelope.blockEnds.count) * 4
        var data = Data(capacity: 8 + json.count + 8 + payloadSize + 8)
        func seal(from start: Int) { withUnsafeBytes(of: Self.checksum(data[start...]).littleEndian) { data.append(contentsOf: $0) } }
        // 32-bit words, little-endian: on a little-endian machine, the values' own bytes.
        func append<Value>(_ values: [Value], _ bits: (Value) -> UInt32) {
            #if _endian(big)
                values.map { bits($0).littleEndian }.withUnsafeBytes { data.append(contentsOf: $0) }
            #else
                values.withUnsafeBytes { data.append(contentsOf: $0) }
            #endif
        }
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(json)
        seal(from: 0)
        let payloadStart = data.count
        append(clip.samples, \.bitPattern)
        append(clip.envelope.blockEnds, { $0 })
        append(clip.envelope.blockPeaks, \.bitPattern)
        seal(from: payloadStart)
        write(data, to: entry(clip.sourceSHA256))
    }

    // MARK: Finished clips

    /// A clip's written file's figures, at one set level (kept with the build's stamps, see `FinishedFiles`).
    struct Finished: Codable, Sendable, Equatable {
        var levelBits: UInt64
        /// The limiting the level search saw before encoding (a clip that the encoding pushes over
        /// the ceiling is finished again under a lower one, with more limiting).
        var searchLimitingDb: Double
        var gainDb: Double
        var limitingDb: Double
        var frames: Int
        var loudness: Double
        var truePeak: Double
        /// sha256 of the file's bytes.
        var sha256: String
    }

    /// Removes every entry whose key is not in `keep` (the prepared keys of this build), and leftovers
    /// (entries of other tool versions included).
    func prune(keeping keys: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where !name.hasPrefix("stamps-") {
            if !keys.contains(String(name.prefix(64))) { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
    }

    // MARK: File format

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    /// A 64-bit checksum (FNV-style over 8-byte words): catches a torn or damaged entry; the cache is
    /// no security boundary, everything it holds can be made again.
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

    /// The payload of sealed `data`, or nil when the checksum does not match.
    static func verified(_ data: Data) -> Data? {
        guard data.count >= 8 else { return nil }
        let payload = data.prefix(data.count - 8)
        var stored: UInt64 = 0
        for (index, byte) in data.suffix(8).enumerated() { stored |= UInt64(byte) << (8 * UInt64(index)) }
        return checksum(payload) == stored ? payload : nil
    }

    /// The little-endian 64-bit integer in the first 8 bytes of `data`.
    private static func integer(_ data: Data) -> UInt64 {
        data.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    /// Writes an entry in place: a build killed mid-write leaves an entry whose checksum fails, which
    /// is then made again (writing aside and renaming would cost a second file per entry).
    private func write(_ data: Data, to url: URL) {
        do { try FileWriting.write(data, to: url) } catch {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            do { try FileWriting.write(data, to: url) } catch { try? FileManager.default.removeItem(at: url) }
        }
    }
}
