import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The build's incremental cache: a folder beside the output folder (`.soundset-cache`, ignored by
/// git) holding, per recording, the prepared clip (trimmed, resampled, faded, measured) and, per
/// set level, the finished file. Keys are the recording's sha256, the configuration's hash and the
/// tool version, so a stale entry is never found. It is an optimisation only: a missing, corrupt or
/// foreign file is ignored and the clip is made again, giving the same bytes.
public struct ClipCache: Sendable {
    /// The cache folder's name, beside the output folder.
    public static let folderName = ".soundset-cache"

    let folder: URL
    let configurationHash: String

    /// The cache for an output folder at `output`.
    public init(output: URL, configurationHash: String) {
        folder = output.deletingLastPathComponent().appendingPathComponent(Self.folderName)
        self.configurationHash = configurationHash
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
    }

    /// The prepared clip stored for `recording`, if a valid one is there.
    func prepared(_ recording: Recording, sourceSHA256: String) -> PreparedClip? {
        // The payload is the samples followed by their true-peak envelope, as many of each.
        guard let (meta, payload) = read(PreparedMeta.self, kind: "prep", name: key(sourceSHA256: sourceSHA256)),
              payload.count % 8 == 0 else { return nil }
        let floats = payload.withUnsafeBytes { raw in
            (0..<payload.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        let half = floats.count / 2
        return PreparedClip(recording: recording, sourceSHA256: sourceSHA256, region: meta.region, samples: Array(floats[..<half]),
                            measurement: meta.measurement, envelope: Array(floats[half...]), warnings: meta.warnings)
    }

    /// Stores a prepared clip.
    func store(_ clip: PreparedClip) {
        var payload = Data(capacity: clip.samples.count * 8)
        for sample in clip.samples + clip.envelope { withUnsafeBytes(of: sample.bitPattern.littleEndian) { payload.append(contentsOf: $0) } }
        write(PreparedMeta(region: clip.region, measurement: clip.measurement, warnings: clip.warnings), payload: payload,
              kind: "prep", name: key(sourceSHA256: clip.sourceSHA256))
    }

    // MARK: Finished clips

    /// A clip's written file and its figures, at one set level.
    struct Finished: Codable {
        var levelBits: UInt64
        /// The limiting the level search saw before encoding (a clip that the encoding pushes over
        /// the ceiling is finished again under a lower one, with more limiting).
        var searchLimitingDb: Double
        var gainDb: Double
        var limitingDb: Double
        var frames: Int
        var loudness: Double
        var truePeak: Double
    }

    private func finishedName(_ clip: PreparedClip, level: Double) -> String {
        "\(key(sourceSHA256: clip.sourceSHA256))-\(String(level.bitPattern, radix: 16))"
    }

    /// The finished file stored for `clip` at exactly `level`, if a valid one is there.
    func finished(_ clip: PreparedClip, level: Double) -> (Finished, Data)? {
        guard let (meta, bytes) = read(Finished.self, kind: "fin", name: finishedName(clip, level: level)),
              meta.levelBits == level.bitPattern else { return nil }
        return (meta, bytes)
    }

    func store(_ finished: Finished, bytes: Data, for clip: PreparedClip, level: Double) {
        write(finished, payload: bytes, kind: "fin", name: finishedName(clip, level: level))
    }

    /// Removes every entry whose key is not in `keep` (the prepared keys of this build).
    func prune(keeping keys: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let key = String(name.prefix(64))
            if !keys.contains(key) { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        }
    }

    // MARK: File format: magic line, 8-byte meta length, JSON meta, payload, sha256 of all before it (hex).

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

    private func magic(_ kind: String) -> Data { Data("soundset-\(kind)-1\n".utf8) }

    private func read<Meta: Decodable>(_ type: Meta.Type, kind: String, name: String) -> (Meta, Data)? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("\(name).\(kind)")) else { return nil }
        let head = magic(kind)
        guard data.count > head.count + 8 + 64, data.prefix(head.count) == head else { return nil }
        let body = data.prefix(data.count - 64)
        guard SHA256.hex(Data(body)) == String(decoding: data.suffix(64), as: UTF8.self) else { return nil }
        var length: UInt64 = 0
        for (index, byte) in data[(data.startIndex + head.count)..<(data.startIndex + head.count + 8)].enumerated() {
            length |= UInt64(byte) << (8 * UInt64(index))
        }
        let metaStart = data.startIndex + head.count + 8
        guard length <= UInt64(body.count - head.count - 8) else { return nil }
        let metaEnd = metaStart + Int(length)
        guard let meta = try? Self.decoder.decode(Meta.self, from: data[metaStart..<metaEnd]) else { return nil }
        return (meta, Data(data[metaEnd..<(data.endIndex - 64)]))
    }

    private func write<Meta: Encodable>(_ meta: Meta, payload: Data, kind: String, name: String) {
        guard let json = try? Self.encoder.encode(meta) else { return }
        var data = magic(kind)
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(payload)
        data.append(Data(SHA256.hex(data).utf8))
        // Written aside and renamed, so a killed build never leaves half an entry under the real name.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("\(name).\(kind)")
        let temporary = folder.appendingPathComponent(".\(name).\(kind).\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
            _ = try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: temporary, to: target)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
