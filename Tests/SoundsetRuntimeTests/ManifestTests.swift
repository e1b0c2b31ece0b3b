import Foundation
import SoundsetRuntime
import Testing

@Suite struct ManifestTests {
    static let sample = Manifest(
        toolVersion: "0.1.0", configurationHash: "abc", locale: "zh-CN", sampleRate: 44100, channels: 1,
        container: "caf", encoding: "pcm16",
        loudness: .init(target: -16, truePeakCeiling: -1, maxLimiterReductionDb: 6, setLevel: -16, reason: "the target"),
        clips: [
            .init(
                name: "yuan", file: "yuan.caf", copy: nil, frames: 441, seconds: 0.01, loudness: -16, truePeak: -1.5,
                gain: 3, limiting: 0, sha256: "00", source: .init(file: "yuan.wav", sha256: "11")),
            .init(
                name: "2", file: "2.caf", copy: "2Copy.caf", frames: 882, seconds: 0.02, loudness: -16, truePeak: -1.2,
                gain: 1, limiting: 0.5, sha256: "22", source: .init(file: "2.flac", sha256: "33")),
        ])

    @Test func roundTripsWithSortedClipsAndKeys() throws {
        let data = try Self.sample.encoded()
        let text = String(decoding: data, as: UTF8.self)
        #expect(try Manifest.decode(data) == Self.sample)
        #expect(Self.sample.clips.map(\.name) == ["2", "yuan"])
        #expect(text.hasPrefix("{\n  \"channels\" : 1,\n  \"clips\" : [\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(try Self.sample.encoded() == data)
    }

    @Test func refusesANewerSchema() throws {
        var newer = Self.sample
        newer.schemaVersion = 2
        #expect(throws: ManifestError.newerSchema(path: "m.json", found: 2, supported: 1)) {
            try Manifest.decode(try newer.encoded(), path: "m.json")
        }
        #expect(
            ManifestError.newerSchema(path: "m.json", found: 2, supported: 1).description
                == "m.json: schema version 2 is newer than this soundset reads (1); update soundset")
    }

    @Test func namesTheMissingKey() throws {
        let error = #expect(throws: ManifestError.self) {
            try Manifest.decode(Data(#"{"schemaVersion": 1, "clips": []}"#.utf8), path: "m.json")
        }
        #expect(error?.description.hasPrefix("m.json: not a soundset manifest: missing key") == true)
    }
}
