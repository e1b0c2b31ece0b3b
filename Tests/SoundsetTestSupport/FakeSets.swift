import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Sound sets made without the build: every zh-CN clip (plus `received`) with known frames, for
/// runtime and command tests that need a set but not its audio processing.
public enum FakeSets {
    /// A manifest at 1000 Hz (1 frame = 1 ms) whose clip `i` lasts 300 + 10·i frames.
    public static func manifest(copies: [String] = (0...9).map(String.init), prefix: String? = "received", gapMs: Double = 0) -> Manifest {
        let names = ChineseToken.all.map(\.clipName) + ["received"]
        let clips = names.enumerated().map { index, name in
            Manifest.Clip(
                name: name, file: "\(name).caf", copy: copies.contains(name) ? "\(name)Copy.caf" : nil,
                frames: 300 + index * 10, seconds: Double(300 + index * 10) / 1000, loudness: -16, truePeak: -1,
                gain: 0, limiting: 0, sha256: "", source: .init(file: "\(name).wav", sha256: ""))
        }
        return Manifest(
            toolVersion: "test", configurationHash: "", locale: "zh-CN", sampleRate: 1000, channels: 1,
            container: "caf", encoding: "pcm16",
            loudness: .init(target: -16, truePeakCeiling: -1, maxLimiterReductionDb: 6, setLevel: -16, reason: ""),
            reading: ReadingOptions(), announcement: AnnouncementSettings(prefix: prefix, gapMs: gapMs), clips: clips)
    }

    /// Writes `folder/Sounds` with one file per clip (libsndfile; clip `i` has 200 + 37·i frames of a
    /// distinct ramp) and `folder/manifest.json`; returns the manifest.
    @discardableResult
    public static func write(
        in folder: URL, container: Container = .caf, encoding: Encoding = .pcm16, rate: Int = 8000,
        prefix: String? = nil, gapMs: Double = 25
    ) throws -> Manifest {
        let sounds = try TemporaryDirectory.folder(folder, "Sounds")
        var manifest = manifest(prefix: prefix, gapMs: gapMs)
        manifest.sampleRate = rate
        manifest.container = container.rawValue
        manifest.encoding = encoding.rawValue
        for index in manifest.clips.indices {
            let name = manifest.clips[index].name
            let frames = 200 + index * 37
            let pcm = (0..<frames).map { Int16(truncatingIfNeeded: ($0 * 97 + index * 1000) % 20000 - 10000) }
            let file = "\(name).\(container.rawValue)"
            do {
                let writer = try SoundFile.create(writing: sounds.appendingPathComponent(file).path, container: container, encoding: encoding, sampleRate: rate)
                try writer.write(pcm)
            }
            manifest.clips[index].file = file
            manifest.clips[index].frames = frames
            manifest.clips[index].seconds = Double(frames) / Double(rate)
            if manifest.clips[index].copy != nil {
                let copy = "\(name)Copy.\(container.rawValue)"
                manifest.clips[index].copy = copy
                try FileManager.default.copyItem(at: sounds.appendingPathComponent(file), to: sounds.appendingPathComponent(copy))
            }
        }
        try manifest.encoded().write(to: folder.appendingPathComponent("manifest.json"))
        return manifest
    }
}
