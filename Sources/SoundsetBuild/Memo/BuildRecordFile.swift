import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

/// The record on disk, `build-<output>.record`: binary, because every rebuild reads it whole and
/// every build writes it (a 1,150-clip set's record as JSON was 1.2 MB, and coding it a quarter of
/// a rebuild after one changed take).
///
/// ```
/// "SSREC001"  u64 length  fields (EntryBytesWriter)  u64 checksum (of all before it)
/// ```
///
/// Maps are written sorted by key, so the same record gives the same bytes. A file that is not
/// one, damaged or cut short, is no record: the build does the work and writes a new one.
enum BuildRecordFile {
    static let magic = Data("SSREC001".utf8)
    static let fileExtension = "record"

    static func encode(_ record: BuildRecord) -> Data {
        var out = EntryBytesWriter()
        out.int(record.schemaVersion)
        out.string(record.toolVersion)
        out.string(record.configurationHash)
        write(record.recordings, into: &out) { out, fact in
            stamp(fact.stamp, into: &out)
            out.string(fact.sha256)
            header(fact.header, into: &out)
        }
        write(record.outputs, into: &out) { out, fact in
            stamp(fact.stamp, into: &out)
            out.string(fact.sha256)
        }
        write(record.finished, into: &out) { out, fact in
            out.string(fact.key)
            let figures = fact.figures
            out.int(Int(bitPattern: UInt(figures.levelBits)))
            for value in [figures.gainDb, figures.limitingDb, figures.loudness, figures.truePeak] { out.double(value) }
            out.int(figures.frames)
            out.string(figures.sha256)
        }
        write(record.probes, into: &out) { out, value in out.double(value) }
        for time in [record.recordingsStampedAt, record.outputsStampedAt] {
            out.int(Int(time.seconds))
            out.int(Int(time.nanoseconds))
        }
        var data = magic
        withUnsafeBytes(of: UInt64(out.data.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(out.data)
        withUnsafeBytes(of: ClipEntry.checksum(data).littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// The record in `data`, or nil when it is not one whole.
    static func decode(_ data: Data) -> BuildRecord? {
        guard data.count >= 24, data.prefix(8) == magic else { return nil }
        let length = Int(clamping: ClipEntry.integer(data.dropFirst(8)))
        guard length == data.count - 24, ClipEntry.checksum(data.prefix(16 + length)) == ClipEntry.integer(data.suffix(8)) else { return nil }
        var input = EntryBytesReader(data.dropFirst(16).prefix(length))
        do throws(EntryBytesReader.Short) {
            let schemaVersion = try input.int()
            let toolVersion = try input.string()
            let configurationHash = try input.string()
            let recordings = try read(&input) { input throws(EntryBytesReader.Short) in
                BuildRecord.RecordingFact(stamp: try stamp(&input), sha256: try input.string(), header: try header(&input))
            }
            let outputs = try read(&input) { input throws(EntryBytesReader.Short) in
                BuildRecord.OutputFact(stamp: try stamp(&input), sha256: try input.string())
            }
            let finished = try read(&input) { input throws(EntryBytesReader.Short) in
                let key = try input.string()
                let levelBits = UInt64(UInt(bitPattern: try input.int()))
                let gainDb = try input.double(), limitingDb = try input.double(), loudness = try input.double(), truePeak = try input.double()
                let figures = ClipFigures(
                    levelBits: levelBits, gainDb: gainDb, limitingDb: limitingDb, frames: try input.int(), loudness: loudness, truePeak: truePeak,
                    sha256: try input.string())
                return BuildRecord.FinishedFact(key: key, figures: figures)
            }
            let probes = try read(&input) { input throws(EntryBytesReader.Short) in try input.double() }
            let recordingsStampedAt = FileTime(seconds: Int64(try input.int()), nanoseconds: Int64(try input.int()))
            let outputsStampedAt = FileTime(seconds: Int64(try input.int()), nanoseconds: Int64(try input.int()))
            guard input.isAtEnd else { return nil }
            return BuildRecord(
                schemaVersion: schemaVersion, toolVersion: toolVersion, configurationHash: configurationHash, recordings: recordings, outputs: outputs,
                finished: finished,
                probes: probes, recordingsStampedAt: recordingsStampedAt, outputsStampedAt: outputsStampedAt)
        } catch {
            return nil
        }
    }

    private static func write<Value>(_ map: [String: Value], into out: inout EntryBytesWriter, _ value: (inout EntryBytesWriter, Value) -> Void) {
        out.uint32(UInt32(map.count))
        for key in map.keys.sorted() {
            out.string(key)
            value(&out, map[key]!)
        }
    }

    private static func read<Value>(
        _ input: inout EntryBytesReader, _ value: (inout EntryBytesReader) throws(EntryBytesReader.Short) -> Value
    ) throws(EntryBytesReader.Short) -> [String: Value] {
        let count = Int(try input.uint32())
        // Each entry takes at least 4 bytes: a count past the bytes left is no record.
        guard count <= input.bytesLeft / 4 else { throw EntryBytesReader.Short() }
        var map: [String: Value] = [:]
        map.reserveCapacity(count)
        for _ in 0..<count {
            let key = try input.string()
            map[key] = try value(&input)
        }
        return map
    }

    private static func header(_ header: SoundFileInfo?, into out: inout EntryBytesWriter) {
        out.bool(header != nil)
        guard let header else { return }
        for value in [header.frames, header.sampleRate, header.channels] { out.int(value) }
        for text in [header.containerName, header.encodingName, header.container?.rawValue ?? "", header.encoding?.rawValue ?? ""] { out.string(text) }
        out.bool(header.truncation != nil)
        if let truncation = header.truncation { out.string(truncation) }
        out.bool(header.lengthUnknown)
    }

    private static func header(_ input: inout EntryBytesReader) throws(EntryBytesReader.Short) -> SoundFileInfo? {
        guard try input.bool() else { return nil }
        let frames = try input.int(), sampleRate = try input.int(), channels = try input.int()
        let containerName = try input.string(), encodingName = try input.string()
        let container = try input.string(), encoding = try input.string()
        return SoundFileInfo(
            frames: frames, sampleRate: sampleRate, channels: channels, containerName: containerName, encodingName: encodingName,
            container: Container(rawValue: container), encoding: Encoding(rawValue: encoding), truncation: try input.bool() ? try input.string() : nil,
            lengthUnknown: try input.bool())
    }

    private static func stamp(_ stamp: FileStamp, into out: inout EntryBytesWriter) {
        for value in [
            stamp.size, stamp.modifiedSeconds, stamp.modifiedNanoseconds, Int64(bitPattern: stamp.inode), stamp.changedSeconds, stamp.changedNanoseconds,
        ] {
            out.int(Int(value))
        }
    }

    private static func stamp(_ input: inout EntryBytesReader) throws(EntryBytesReader.Short) -> FileStamp {
        FileStamp(
            size: Int64(try input.int()), modifiedSeconds: Int64(try input.int()), modifiedNanoseconds: Int64(try input.int()),
            inode: UInt64(bitPattern: Int64(try input.int())), changedSeconds: Int64(try input.int()), changedNanoseconds: Int64(try input.int()))
    }
}
