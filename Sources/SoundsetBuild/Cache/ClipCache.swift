import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The build's incremental cache: a folder beside the output folder (`.soundset-cache`, ignored by
/// git) holding, per recording, the prepared clip (trimmed, resampled, faded, measured) and, per
/// set level, the finished file. Keys are the recording's sha256, the configuration's hash and the
/// tool version, so a stale entry is never found. It is an optimisation only: a missing, corrupt or
/// foreign file is ignored and the clip is made again, giving the same bytes.
///
/// Entries: `<key>.prep` (the measurements, small, read for every clip), `<key>.samples` (the
/// samples and their true-peak envelope, read only when the clip must be finished again) and
/// `<key>-<level>.fin` (a finished file). Each ends in a 64-bit checksum of what precedes it.
public struct ClipCache: Sendable {
    /// The cache folder's name, beside the output folder.
    public static let folderName = ".soundset-cache"

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

    // MARK: Prepared clips

    private struct PreparedMeta: Codable {
        var region: TrimRegion
        var measurement: LoudnessMeasurement
        var warnings: [BuildProblem]
        var sampleCount: Int
    }

    /// The prepared clip stored for `recording` without its samples (`isHollow`), if a valid one is there.
    func prepared(_ recording: Recording, sourceSHA256: String) -> PreparedClip? {
        guard let (meta, _) = read(PreparedMeta.self, file: "\(key(sourceSHA256: sourceSHA256)).prep") else { return nil }
        return PreparedClip(
            recording: recording, sourceSHA256: sourceSHA256, region: meta.region, samples: [],
            measurement: meta.measurement, envelope: [], warnings: meta.warnings, sampleCount: meta.sampleCount)
    }

    /// `clip` with its samples and envelope read back, if the samples file is intact.
    func filled(_ clip: PreparedClip) -> PreparedClip? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("\(key(sourceSHA256: clip.sourceSHA256)).samples")),
            let payload = Self.verified(data), payload.count == clip.sampleCount * 8
        else { return nil }
        var floats = [Float](repeating: 0, count: clip.sampleCount * 2)
        floats.withUnsafeMutableBytes { _ = payload.copyBytes(to: $0) }
        #if _endian(big)
            floats = floats.map { Float(bitPattern: UInt32(littleEndian: $0.bitPattern)) }
        #endif
        var full = clip
        full.samples = Array(floats[..<clip.sampleCount])
        full.envelope = Array(floats[clip.sampleCount...])
        return full
    }

    /// Stores a prepared clip: its measurements and, separately, its samples.
    func store(_ clip: PreparedClip) {
        let name = key(sourceSHA256: clip.sourceSHA256)
        var floats = clip.samples + clip.envelope
        #if _endian(big)
            floats = floats.map { Float(bitPattern: $0.bitPattern.littleEndian) }
        #endif
        let payload = floats.withUnsafeBytes { Data($0) }
        write(Self.sealed(payload), file: "\(name).samples")
        write(
            PreparedMeta(region: clip.region, measurement: clip.measurement, warnings: clip.warnings, sampleCount: clip.samples.count),
            payload: Data(), file: "\(name).prep")
    }

    // MARK: Finished clips

    /// A clip's written file and its figures, at one set level.
    struct Finished: Codable, Sendable {
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

    private func finishedFile(_ clip: PreparedClip, level: Double) -> String {
        "\(key(sourceSHA256: clip.sourceSHA256))-\(String(level.bitPattern, radix: 16)).fin"
    }

    /// The finished file stored for `clip` at exactly `level`, if a valid one is there.
    func finished(_ clip: PreparedClip, level: Double) -> (Finished, Data)? {
        guard let (meta, bytes) = read(Finished.self, file: finishedFile(clip, level: level)),
            meta.levelBits == level.bitPattern
        else { return nil }
        return (meta, bytes)
    }

    func store(_ finished: Finished, bytes: Data, for clip: PreparedClip, level: Double) {
        write(finished, payload: bytes, file: finishedFile(clip, level: level))
    }

    /// Removes every entry whose key is not in `keep` (the prepared keys of this build), and leftovers.
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

    /// `payload` followed by its checksum.
    static func sealed(_ payload: Data) -> Data {
        var data = payload
        withUnsafeBytes(of: checksum(payload).littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// The payload of sealed `data`, or nil when the checksum does not match.
    static func verified(_ data: Data) -> Data? {
        guard data.count >= 8 else { return nil }
        let payload = data.prefix(data.count - 8)
        var stored: UInt64 = 0
        for (index, byte) in data.suffix(8).enumerated() { stored |= UInt64(byte) << (8 * UInt64(index)) }
        return checksum(Data(payload)) == stored ? Data(payload) : nil
    }

    /// Reads a sealed entry: 8-byte meta length, JSON meta, payload.
    private func read<Meta: Decodable>(_ type: Meta.Type, file: String) -> (Meta, Data)? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(file)), let body = Self.verified(data), body.count >= 8 else { return nil }
        var length = 0
        for (index, byte) in body.prefix(8).enumerated() { length |= Int(byte) << (8 * index) }
        guard length >= 0, length <= body.count - 8 else { return nil }
        let metaStart = body.startIndex + 8
        guard let meta = try? Self.decoder.decode(Meta.self, from: body[metaStart..<(metaStart + length)]) else { return nil }
        return (meta, Data(body[(metaStart + length)...]))
    }

    private func write<Meta: Encodable>(_ meta: Meta, payload: Data, file: String) {
        guard let json = try? Self.encoder.encode(meta) else { return }
        var body = Data()
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { body.append(contentsOf: $0) }
        body.append(json)
        body.append(payload)
        write(Self.sealed(body), file: file)
    }

    /// Writes aside and renames, so a killed build never leaves half an entry under the real name.
    private func write(_ data: Data, file: String) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent(file)
        let temporary = folder.appendingPathComponent(".\(file).\(UUID().uuidString)")
        do {
            try FileWriting.write(data, to: temporary)
            if rename(temporary.path, target.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
