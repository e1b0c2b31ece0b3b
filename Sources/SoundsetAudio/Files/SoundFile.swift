internal import CSndFile
import Foundation
import SoundsetRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open libsndfile handle (`SNDFILE*`); one owner, closed on deinit.
///
/// Not `Sendable`: a handle belongs to the task that opened it. The values it produces are.
public final class SoundFile {
    private var handle: OpaquePointer?
    /// The path the file was opened with, used in every error.
    public let path: String
    /// The header as libsndfile reports it.
    public let info: SoundFileInfo
    /// The bytes a file opened from memory reads, kept alive as long as the handle.
    private let memory: MemoryStream?

    private init(handle: OpaquePointer, path: String, info: SoundFileInfo, memory: MemoryStream? = nil) {
        self.handle = handle
        self.path = path
        self.info = info
        self.memory = memory
    }

    deinit { if let handle { sf_close(handle) } }

    /// Closes the file (`sf_close`), which for a writer also writes what libsndfile still holds and
    /// its final header.
    /// - Throws: `SoundFileError` when libsndfile reports that the close failed.
    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        let status = sf_close(handle)
        guard status == 0 else { throw SoundFileError(path: path, code: Int(status), reason: String(cString: sf_error_number(status))) }
    }

    /// Opens `path` for reading and reads its header (`sf_open_fd` with `SFM_READ`). Only a regular
    /// file is opened, and without blocking: a FIFO would wait for a writer forever.
    /// - Throws: `SoundFileError` with the system's reason (`is not a regular file`, `cannot be read
    ///   (permission denied)`) or libsndfile's when the file cannot be opened or parsed.
    public static func open(reading path: String) throws -> SoundFile {
        let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw SoundFileError(path: path, reason: code == ENOENT ? "is missing" : "cannot be read (\(RegularFile.systemReason(code)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            systemClose(descriptor)
            throw SoundFileError(path: path, reason: "is not a regular file")
        }
        var raw = SF_INFO()
        // libsndfile closes the descriptor with the handle (close_desc), and on a failed open too.
        let handle = try locked(path) { sf_open_fd(descriptor, Int32(SFM_READ), &raw, Int32(SF_TRUE)) }
        return SoundFile(handle: handle, path: path, info: readInfo(raw, handle))
    }

    /// Opens a file's bytes already in memory for reading (`sf_open_virtual`): what is decoded is
    /// exactly what was read (and hashed), whatever happens to the file on disk meanwhile.
    /// - Parameter path: names the file in errors.
    /// - Throws: `SoundFileError` with libsndfile's reason when the bytes cannot be parsed.
    public static func open(bytes: Data, path: String) throws -> SoundFile {
        var raw = SF_INFO()
        let memory = MemoryStream(bytes)
        let handle = try locked(path) {
            var io = MemoryStream.callbacks
            return sf_open_virtual(&io, Int32(SFM_READ), &raw, Unmanaged.passUnretained(memory).toOpaque())
        }
        return SoundFile(handle: handle, path: path, info: readInfo(raw, handle), memory: memory)
    }

    /// Encodes mono 16-bit samples into a file's bytes in memory (`sf_open_virtual` with
    /// `SFM_WRITE`): the same bytes libsndfile writes to disk, without a file.
    /// - Parameter path: names the file in errors.
    /// - Throws: `SoundFileError` when libsndfile refuses the format or fails to write or close.
    public static func encode(
        _ samples: [Int16], container: Container, encoding: Encoding, sampleRate: Int, path: String
    ) throws -> Data {
        var raw = SF_INFO()
        raw.samplerate = Int32(sampleRate)
        raw.channels = 1
        raw.format = majorFormat(container) | subFormat(encoding)
        guard sf_format_check(&raw) == SF_TRUE else {
            throw SoundFileError(path: path, reason: "libsndfile cannot write \(encoding.rawValue) in \(container.rawValue)")
        }
        return try writeInMemory(
            samples, raw,
            info: SoundFileInfo(
                frames: 0, sampleRate: sampleRate, channels: 1, containerName: formatName(majorFormat(container), major: true),
                encodingName: formatName(subFormat(encoding), major: false), container: container, encoding: encoding),
            path: path)
    }

    /// `samples` written through libsndfile, in the format `raw` names, into memory
    /// (`sf_open_virtual` with `SFM_WRITE`), and the bytes it wrote.
    private static func writeInMemory(
        _ samples: [Int16], _ raw: SF_INFO, info: SoundFileInfo, path: String, configure: (OpaquePointer) throws -> Void = { _ in }
    ) throws -> Data {
        var raw = raw
        let memory = MemoryStream(Data())
        let handle = try locked(path) {
            var io = MemoryStream.callbacks
            return sf_open_virtual(&io, Int32(SFM_WRITE), &raw, Unmanaged.passUnretained(memory).toOpaque())
        }
        let file = SoundFile(handle: handle, path: path, info: info, memory: memory)
        try configure(handle)
        try file.write(samples)
        try file.close()
        return memory.bytes
    }

    private static func readInfo(_ raw: SF_INFO, _ handle: OpaquePointer) -> SoundFileInfo {
        // libsndfile's SF_COUNT_MAX: a length the header does not give.
        let unknown = raw.frames == sf_count_t.max
        return SoundFileInfo(
            frames: unknown ? 0 : Int(raw.frames), sampleRate: Int(raw.samplerate), channels: Int(raw.channels),
            containerName: formatName(raw.format & Int32(SF_FORMAT_TYPEMASK), major: true),
            encodingName: formatName(raw.format & Int32(SF_FORMAT_SUBMASK), major: false),
            container: container(fromMajor: raw.format & Int32(SF_FORMAT_TYPEMASK)),
            encoding: encoding(fromSub: raw.format & Int32(SF_FORMAT_SUBMASK)),
            truncation: dataTruncation(in: logInfo(handle)), lengthUnknown: unknown)
    }

    /// Creates (or truncates) `path` for writing mono or multichannel audio (`sf_open` with `SFM_WRITE`).
    /// - Throws: `SoundFileError` when libsndfile refuses the format or cannot create the file.
    public static func create(
        writing path: String, container: Container, encoding: Encoding, sampleRate: Int, channels: Int = 1
    ) throws -> SoundFile {
        var raw = SF_INFO()
        raw.samplerate = Int32(sampleRate)
        raw.channels = Int32(channels)
        raw.format = majorFormat(container) | subFormat(encoding)
        guard sf_format_check(&raw) == SF_TRUE else {
            throw SoundFileError(path: path, reason: "libsndfile cannot write \(encoding.rawValue) in \(container.rawValue)")
        }
        let handle = try open(path, mode: Int32(SFM_WRITE), &raw)
        let info = SoundFileInfo(
            frames: 0, sampleRate: sampleRate, channels: channels,
            containerName: formatName(majorFormat(container), major: true),
            encodingName: formatName(subFormat(encoding), major: false),
            container: container, encoding: encoding)
        return SoundFile(handle: handle, path: path, info: info)
    }

    /// libsndfile reports a failed open through a global (`sf_error(NULL)`, `sf_strerror(NULL)`)
    /// that an open on any other thread overwrites, so opens are made one at a time and a failure's
    /// message is read under the same lock. An open reads a header (tens of microseconds); reading
    /// and writing audio run unlocked.
    private static let openLock = NSLock()

    private static func open(_ path: String, mode: Int32, _ raw: inout SF_INFO) throws -> OpaquePointer {
        try locked(path) { sf_open(path, mode, &raw) }
    }

    /// Runs an open under the lock, and reads a failure's message under it too.
    private static func locked(_ path: String, _ open: () -> OpaquePointer?) throws -> OpaquePointer {
        openLock.lock()
        defer { openLock.unlock() }
        guard let handle = open() else {
            throw SoundFileError(path: path, code: Int(sf_error(nil)), reason: String(cString: sf_strerror(nil)))
        }
        return handle
    }

    /// Reads every frame as interleaved floats in [-1, 1] (`sf_readf_float`).
    /// - Throws: `SoundFileError` when libsndfile cannot read the frames it reported (a read error:
    ///   a file shorter than its header says is read as it is, and noted in `info.truncation`).
    ///   A file whose length the header does not give (`info.lengthUnknown`) is read to its end,
    ///   or until more than `maxFrames` frames are read.
    public func readAll(maxFrames: Int = .max) throws -> [Float] {
        if info.lengthUnknown { return try readToEnd(maxFrames: maxFrames) }
        let channels = info.channels
        var done = 0
        return try [Float](unsafeUninitializedCapacity: info.frames * channels) { buffer, initialized in
            while done < info.frames {
                let want = min(info.frames - done, 65536)
                let got = Int(sf_readf_float(handle!, buffer.baseAddress! + done * channels, sf_count_t(want)))
                if got <= 0 {
                    let code = Int(sf_error(handle))
                    let why = code != 0 ? String(cString: sf_strerror(handle)) : "unexpected end of data"
                    throw SoundFileError(
                        path: path, code: code,
                        reason: "truncated: the header declares \(info.frames) frames but only \(done) could be read (\(why))")
                }
                done += got
                initialized = done * channels
            }
        }
    }

    /// Reads chunks (`sf_readf_float`) until libsndfile says the stream has ended, or more than
    /// `maxFrames` frames have been read.
    private func readToEnd(maxFrames: Int) throws -> [Float] {
        var samples: [Float] = []
        try decodeToEnd(maxFrames: maxFrames) { samples.append(contentsOf: $0) }
        return samples
    }

    /// The frames of a file whose header does not give its length (`info.lengthUnknown`), counted
    /// by decoding it whole in chunks (the samples are not kept): its frames as the header's for
    /// any other file.
    /// - Throws: `SoundFileError` with libsndfile's reason when decoding fails.
    public func countFrames() throws -> Int {
        var frames = 0
        try decodeToEnd(maxFrames: .max) { frames += $0.count / max(1, info.channels) }
        return frames
    }

    /// Decodes chunk after chunk, handing each (interleaved) to `chunk`, until the end of the
    /// stream, or once more than `maxFrames` frames were decoded.
    private func decodeToEnd(maxFrames: Int, _ chunk: (ArraySlice<Float>) -> Void) throws {
        let channels = max(1, info.channels)
        let block = 65536
        var buffer = [Float](repeating: 0, count: block * channels)
        var done = 0
        while done <= maxFrames {
            let got = buffer.withUnsafeMutableBufferPointer { Int(sf_readf_float(handle!, $0.baseAddress!, sf_count_t(block))) }
            if got <= 0 {
                let code = Int(sf_error(handle))
                guard code == 0 else { throw SoundFileError(path: path, code: code, reason: String(cString: sf_strerror(handle))) }
                return
            }
            chunk(buffer[0..<(got * channels)])
            done += got
        }
    }

    /// Writes interleaved 16-bit samples (`sf_writef_short`); libsndfile encodes them as the file's encoding.
    /// - Throws: `SoundFileError` with libsndfile's reason when fewer frames were written than given.
    public func write(_ samples: [Int16]) throws {
        let frames = samples.count / info.channels
        let written = samples.withUnsafeBufferPointer { sf_writef_short(handle!, $0.baseAddress, sf_count_t(frames)) }
        guard Int(written) == frames else {
            throw SoundFileError(path: path, code: Int(sf_error(handle)), reason: String(cString: sf_strerror(handle)))
        }
    }
}

/// `open(2)` and `close(2)`, which `SoundFile`'s own `open` and `close` hide.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, flags)
    #else
        Darwin.open(path, flags)
    #endif
}

private func systemClose(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Darwin.close(descriptor)
    #endif
}

/// A file's bytes as libsndfile's virtual I/O reads and writes them: `Data` and a position in it.
private final class MemoryStream {
    var bytes: Data
    var position: Int64 = 0

    init(_ bytes: Data) { self.bytes = bytes }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> MemoryStream { Unmanaged<MemoryStream>.fromOpaque(pointer!).takeUnretainedValue() }

    /// The callbacks of `SF_VIRTUAL_IO`; C function pointers, so they capture nothing and find the
    /// stream through libsndfile's user data.
    static var callbacks: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { sf_count_t(MemoryStream.from($0).bytes.count) },
            seek: { offset, whence, user in
                let stream = MemoryStream.from(user)
                let base: Int64
                switch whence {
                case SEEK_CUR: base = stream.position
                case SEEK_END: base = Int64(stream.bytes.count)
                default: base = 0
                }
                let target = base + offset
                guard target >= 0 else { return -1 }
                stream.position = target
                return target
            },
            read: { destination, count, user in
                let stream = MemoryStream.from(user)
                let available = max(0, Int64(stream.bytes.count) - stream.position)
                let length = Int(min(count, available))
                guard length > 0, let destination else { return 0 }
                let start = stream.bytes.startIndex + Int(stream.position)
                stream.bytes.copyBytes(to: destination.assumingMemoryBound(to: UInt8.self), from: start..<start + length)
                stream.position += Int64(length)
                return sf_count_t(length)
            },
            write: { source, count, user in
                let stream = MemoryStream.from(user)
                guard let source, count > 0 else { return 0 }
                let start = Int(stream.position)
                let end = start + Int(count)
                if stream.bytes.count < end { stream.bytes.append(Data(count: end - stream.bytes.count)) }
                stream.bytes.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: source, byteCount: Int(count)) }
                stream.position = Int64(end)
                return count
            },
            tell: { MemoryStream.from($0).position })
    }
}

/// libsndfile's parse log for an open file (`SFC_GET_LOG_INFO`), as bytes.
private func logInfo(_ handle: OpaquePointer) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = sf_command(handle, Int32(SFC_GET_LOG_INFO), &buffer, Int32(buffer.count))
    guard count > 0 else { return [] }
    return buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }
}

/// The log line where libsndfile noted that the audio chunk (`data` in WAV and CAF, `SSND` in AIFF)
/// is shorter than its header says, e.g. `data : 32000 (should be 16000)`. Lines are looked at as
/// bytes; only one that notes a shortfall becomes a string.
private func dataTruncation(in log: [UInt8]) -> String? {
    let marker = Array("(should be".utf8)
    for line in log.split(separator: UInt8(ascii: "\n")) where line.count >= marker.count {
        let bytes = Array(line)
        guard (0...(bytes.count - marker.count)).contains(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) else { continue }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("data") || text.hasPrefix("SSND") { return text }
    }
    return nil
}

private func majorFormat(_ container: Container) -> Int32 {
    switch container {
    case .caf: Int32(SF_FORMAT_CAF)
    case .wav: Int32(SF_FORMAT_WAV)
    case .aiff: Int32(SF_FORMAT_AIFF)
    }
}

private func subFormat(_ encoding: Encoding) -> Int32 {
    switch encoding {
    case .pcm16: Int32(SF_FORMAT_PCM_16)
    case .ulaw: Int32(SF_FORMAT_ULAW)
    case .alaw: Int32(SF_FORMAT_ALAW)
    }
}

private func container(fromMajor major: Int32) -> Container? {
    Container.allCases.first { majorFormat($0) == major }
}

private func encoding(fromSub sub: Int32) -> Encoding? {
    Encoding.allCases.first { subFormat($0) == sub }
}

/// libsndfile's short name for a major or sub format (`SFC_GET_FORMAT_MAJOR` / `SFC_GET_FORMAT_SUBTYPE`).
private func formatName(_ format: Int32, major: Bool) -> String {
    let countCommand = major ? SFC_GET_FORMAT_MAJOR_COUNT : SFC_GET_FORMAT_SUBTYPE_COUNT
    let getCommand = major ? SFC_GET_FORMAT_MAJOR : SFC_GET_FORMAT_SUBTYPE
    var count: Int32 = 0
    sf_command(nil, Int32(countCommand), &count, Int32(MemoryLayout<Int32>.size))
    for index in 0..<count {
        var entry = SF_FORMAT_INFO()
        entry.format = index
        sf_command(nil, Int32(getCommand), &entry, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        if entry.format == format, let ext = major ? entry.extension : nil {
            return String(cString: ext).uppercased()
        }
        if entry.format == format, let name = entry.name {
            return String(cString: name)
        }
    }
    return String(format, radix: 16)
}
