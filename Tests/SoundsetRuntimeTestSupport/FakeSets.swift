import Foundation
import SoundsetRuntime

/// Sound sets made without the build: every zh-CN clip (plus `received`) with known frames, for
/// runtime and command tests that need a set but not its audio processing. Files are written by
/// the runtime's own writer, so the runtime's tests need no C library.
public enum FakeSets {
    /// Every zh-CN clip name, then `received`.
    public static let clipNames =
        (0...9).map(String.init) + ["ten", "hundred", "thousand", "ten_thousand", "hundred_million", "point", "yuan", "liang", "jiao", "fen", "received"]

    /// A manifest at 1000 Hz (1 frame = 1 ms) whose clip `i` lasts 300 + 10·i frames.
    public static func manifest(copies: [String] = (0...9).map(String.init), prefix: String? = "received", gapMs: Double = 0) -> Manifest {
        let clips = clipNames.enumerated().map { index, name in
            Manifest.Clip(
                name: name, file: "\(name).caf", copy: copies.contains(name) ? "\(name)Copy.caf" : nil,
                frames: 300 + index * 10, seconds: Double(300 + index * 10) / 1000, loudness: -16, truePeak: -1,
                gain: 0, limiting: 0, sha256: String(repeating: "0", count: 64), source: .init(file: "\(name).wav", sha256: String(repeating: "0", count: 64)))
        }
        return Manifest(
            toolVersion: "test", configurationHash: "", locale: .zhCN, sampleRate: 1000, channels: 1,
            container: .caf, encoding: .pcm16,
            loudness: .init(target: -16, truePeakCeiling: -1, maxLimiterReductionDb: 6, setLevel: -16, reason: ""),
            reading: ReadingOptions(), announcement: AnnouncementSettings(prefix: prefix, gapMs: gapMs), clips: clips)
    }

    /// The sample bytes of clip `index`: `frames` frames of a ramp that differs per clip.
    public static func samples(index: Int, frames: Int, encoding: Encoding, littleEndian: Bool) -> Data {
        var bytes = Data(capacity: frames * encoding.bytesPerSample)
        for frame in 0..<frames {
            let value = Int16(truncatingIfNeeded: (frame * 97 + index * 1000) % 20000 - 10000)
            switch encoding {
            case .pcm16:
                let bits = UInt16(bitPattern: value)
                bytes.append(contentsOf: littleEndian ? [UInt8(bits & 0xFF), UInt8(bits >> 8)] : [UInt8(bits >> 8), UInt8(bits & 0xFF)])
            case .ulaw, .alaw:
                bytes.append(UInt8(truncatingIfNeeded: frame * 7 + index * 31))
            }
        }
        return bytes
    }

    /// Writes `folder/Sounds` with one file per clip (the `i`th by name has 200 + 37·i frames of a
    /// distinct ramp, unless `frames` says how many a clip has) and `folder/manifest.json` with each
    /// file's true sha256; returns the manifest.
    /// - Parameters:
    ///   - announcement: the manifest's announcement settings (their prefix and gap are `prefix` and
    ///     `gapMs`).
    ///   - speech: each clip's speech bounds, from its frames; none when nil.
    @discardableResult
    public static func write(
        in folder: URL, container: Container = .caf, encoding: Encoding = .pcm16, rate: Int = 8000,
        prefix: String? = nil, gapMs: Double = 25, announcement: AnnouncementSettings = AnnouncementSettings(), frames: ((String) -> Int)? = nil,
        speech: ((_ frames: Int) -> Manifest.Speech)? = nil
    ) throws -> Manifest {
        let sounds = try TemporaryDirectory.folder(folder, "Sounds")
        var manifest = manifest(prefix: prefix, gapMs: gapMs)
        var settings = announcement
        settings.prefix = prefix
        settings.gapMs = gapMs
        manifest.announcement = settings
        manifest.sampleRate = rate
        manifest.container = container
        manifest.encoding = encoding
        let format = SoundFormat(container: container, encoding: encoding, sampleRate: rate)
        for index in manifest.clips.indices {
            let name = manifest.clips[index].name
            let count = frames?(name) ?? 200 + index * 37
            let data = SoundData(format: format, samples: samples(index: index, frames: count, encoding: encoding, littleEndian: format.littleEndian)).encoded()
            let file = "\(name).\(container.fileExtension)"
            try data.write(to: sounds.appendingPathComponent(file))
            manifest.clips[index].file = file
            manifest.clips[index].frames = count
            manifest.clips[index].seconds = Double(count) / Double(rate)
            manifest.clips[index].sha256 = SHA256Digest.hex(data)
            manifest.clips[index].speech = speech?(count)
            if manifest.clips[index].copy != nil {
                let copy = "\(name)Copy.\(container.fileExtension)"
                manifest.clips[index].copy = copy
                try data.write(to: sounds.appendingPathComponent(copy))
            }
        }
        try manifest.encoded().write(to: folder.appendingPathComponent(SoundSetLayout.manifestName))
        return manifest
    }
}
