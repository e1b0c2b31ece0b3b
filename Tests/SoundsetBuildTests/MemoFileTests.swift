import Foundation
import SoundsetAudio
import SoundsetRuntime
import Testing

@testable import SoundsetBuild
@testable import SoundsetFindings
@testable import SoundsetSetFolder

/// The memo's binary files (#28: a rebuild reads every clip's summary and the record, and decoding
/// them as JSON was most of a one-take rebuild): each reads back as written, and anything cut,
/// flipped or foreign reads as nothing (the build then does the work), never as something else.
@Suite struct MemoFileTests {
    static func stamp(_ seed: Int64) -> FileStamp {
        FileStamp(
            size: 1000 + seed, modifiedSeconds: 1_700_000_000 + seed, modifiedNanoseconds: 123, inode: UInt64.max - UInt64(seed), changedSeconds: 5,
            changedNanoseconds: 999_999_999)
    }

    static let record = BuildRecord(
        toolVersion: "0.10.2", configurationHash: "c0ffee",
        recordings: [
            "7.wav": .init(
                stamp: stamp(1), sha256: String(repeating: "a", count: 64),
                header: SoundFileInfo(
                    frames: 12_345, sampleRate: 44100, channels: 2, containerName: "WAV", encodingName: "PCM_24", container: .wav, encoding: nil)),
            "点.flac": .init(
                stamp: stamp(2), sha256: String(repeating: "b", count: 64),
                header: SoundFileInfo(
                    frames: 9, sampleRate: 8000, channels: 1, containerName: "FLAC", encodingName: "PCM_16", truncation: "data : 32000 (should be 16000)",
                    lengthUnknown: true)),
            "old.wav": .init(stamp: stamp(3), sha256: String(repeating: "c", count: 64), header: nil),
        ],
        outputs: ["manifest.json": .init(stamp: stamp(4), sha256: "d"), "Sounds/7.caf": .init(stamp: stamp(5), sha256: "e")],
        finished: [
            "7.caf": .init(
                key: "k7",
                figures: ClipFigures(levelBits: (-16.5).bitPattern, gainDb: -3.25, limitingDb: 0, frames: 4410, loudness: -16.5, truePeak: -1.0, sha256: "e"))
        ],
        probes: ["k7@c030": -0.5, "k8@c031": -.infinity],
        recordingsStampedAt: FileTime(seconds: 1_700_000_100, nanoseconds: 7), outputsStampedAt: FileTime(seconds: 1_700_000_200, nanoseconds: 8))

    static func expectSame(_ a: BuildRecord, _ b: BuildRecord) {
        #expect(a.schemaVersion == b.schemaVersion)
        #expect(a.toolVersion == b.toolVersion)
        #expect(a.configurationHash == b.configurationHash)
        #expect(a.recordings == b.recordings)
        #expect(a.outputs == b.outputs)
        #expect(a.finished == b.finished)
        #expect(a.probes == b.probes)
        #expect(a.recordingsStampedAt == b.recordingsStampedAt)
        #expect(a.outputsStampedAt == b.outputsStampedAt)
    }

    @Test func aRecordReadsBackAsWrittenAndTheSameRecordGivesTheSameBytes() throws {
        let bytes = BuildRecordFile.encode(Self.record)
        let decoded = try #require(BuildRecordFile.decode(bytes))
        Self.expectSame(decoded, Self.record)
        #expect(BuildRecordFile.encode(decoded) == bytes)
        #expect(decoded.recordings["点.flac"]?.header?.truncation == "data : 32000 (should be 16000)")
        #expect(decoded.recordings["7.wav"]?.header?.container == .wav)
    }

    @Test func aRecordCutFlippedOrForeignIsNoRecord() {
        let bytes = BuildRecordFile.encode(Self.record)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(BuildRecordFile.decode(bytes.prefix(length)) == nil, "cut to \(length)")
        }
        for index in [0, 9, 20, bytes.count / 2, bytes.count - 1] {
            var flipped = bytes
            flipped[index] ^= 0x01
            #expect(BuildRecordFile.decode(flipped) == nil, "byte \(index) flipped")
        }
        #expect(BuildRecordFile.decode(Data(#"{"schemaVersion": 2}"#.utf8)) == nil)
        #expect(BuildRecordFile.decode(bytes + Data([0])) == nil)
    }

    static let stored = ClipEntry.Stored(
        key: "key", sourceSHA256: String(repeating: "f", count: 64),
        region: TrimRegion(soundStart: 441, soundEnd: 8820, keepStart: 0, keepEnd: 9261, noiseFloorDb: -.infinity, peakDb: -12.5, thresholdDb: -50),
        measurement: LoudnessMeasurement(loudness: -.infinity, truePeak: -.infinity),
        analysis: ClipAnalysis(
            sourceRate: 44100, sourceFrames: 9261,
            notes: [.clipped(samples: 3), .removedClick(at: 0.125), .noisyFloor(db: -41), .speechAtStart, .upsampled(from: 8000, to: 44100)],
            envelope: ClipEnvelope(values: [-127, 127, 0, 5]), fingerprint: TakeFingerprint(rate: 4009, values: [1, -2, 3, -127, 127])),
        sampleCount: 8000, blockCount: 16, envelopeExactAbove: Float(0.5).bitPattern)

    @Test func anEntrySummaryReadsBackAsWritten() throws {
        for stored in [
            Self.stored,
            {
                var plain = Self.stored; plain.analysis.notes = []; plain.analysis.fingerprint = nil; return plain
            }(),
        ] {
            let decoded = try ClipEntry.Stored(decoding: try stored.encoded())
            #expect(decoded.key == stored.key)
            #expect(decoded.sourceSHA256 == stored.sourceSHA256)
            #expect(decoded.region == stored.region)
            #expect(decoded.measurement == stored.measurement)
            #expect(decoded.analysis == stored.analysis)
            #expect(decoded.sampleCount == stored.sampleCount)
            #expect(decoded.blockCount == stored.blockCount)
            #expect(decoded.envelopeExactAbove == stored.envelopeExactAbove)
        }
    }

    @Test func anEntrySummaryCutOrWithBytesLeftOverIsNone() throws {
        let bytes = try Self.stored.encoded()
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self, "cut to \(length)") { try ClipEntry.Stored(decoding: bytes.prefix(length)) }
        }
        #expect(throws: (any Error).self) { try ClipEntry.Stored(decoding: bytes + Data([0])) }
        // A count that says more than there is: refused before anything is allocated.
        var huge = bytes
        huge.replaceSubrange(0..<4, with: [0xff, 0xff, 0xff, 0x7f])
        #expect(throws: (any Error).self) { try ClipEntry.Stored(decoding: huge) }
    }

    /// A fingerprint's rate sizes the same-recording search (`maxLag` is rate * 30 / 1000): an entry
    /// whose rate is not a rate a take can have is no entry, whatever its checksum says.
    @Test func anEntryWhoseFingerprintRateIsNoRateIsNone() throws {
        for rate in [0, -1, TakeFingerprint.maxRate + 1, Int.max] {
            var stored = Self.stored
            stored.analysis.fingerprint = TakeFingerprint(rate: rate, values: [1, 2, 3])
            #expect(throws: (any Error).self, "rate \(rate)") { try ClipEntry.Stored(decoding: try stored.encoded()) }
        }
        var highest = Self.stored
        highest.analysis.fingerprint = TakeFingerprint(rate: TakeFingerprint.maxRate, values: [1])
        #expect(try ClipEntry.Stored(decoding: try highest.encoded()).analysis.fingerprint?.rate == TakeFingerprint.maxRate)
    }
}
