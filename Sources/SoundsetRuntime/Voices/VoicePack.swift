import Foundation

/// A voice pack: one built set (its manifest and clips) in one signed file, so an app can take a new
/// voice over the air and know it is the publisher's. Format 1, every integer big-endian:
///
/// ```
/// magic      8 bytes   "SSPACK01"
/// headerLen  UInt32    1 ... 1 MiB
/// header     JSON: {"files":[{"bytes":N,"name":"manifest.json"},{"bytes":N,"name":"Sounds/0.caf"},...],
///                   "format":1,"locale":"zh-CN","setId":"<SoundSet.id>","version":N,"voice":"<name>"}
/// payload    the files' bytes, in the header's order: manifest.json, then each clip's file in the
///            manifest's order (no copies: the installer writes each clip's copy from its file)
/// sigLen     UInt32    1 ... 1024 (64: Ed25519)
/// signature  over every byte before sigLen
/// ```
public struct VoicePack: Sendable {
    /// The header of a pack.
    public struct Header: Codable, Sendable, Equatable {
        public var format: Int
        public var voice: String
        public var locale: String
        public var version: Int
        public var setId: String
        public var files: [File]

        public init(format: Int = VoicePack.format, voice: String, locale: String, version: Int, setId: String, files: [File]) {
            self.format = format
            self.voice = voice
            self.locale = locale
            self.version = version
            self.setId = setId
            self.files = files
        }
    }

    /// A file of a pack: its name (`manifest.json` or `Sounds/<clip file>`) and length.
    public struct File: Codable, Sendable, Equatable {
        public var name: String
        public var bytes: Int

        public init(name: String, bytes: Int) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// The header, checked.
    public let header: Header
    /// The set's manifest, checked against the header and every clip.
    public let manifest: Manifest
    /// The files' bytes, in the header's order (`contents[0]` is `manifest.json`).
    public let contents: [Data]

    /// The format this runtime writes and reads.
    public static let format = 1
    /// The pack's first bytes.
    public static let magic = Data("SSPACK01".utf8)
    /// The longest header read.
    public static let maxHeaderBytes = 1 << 20
    /// The signature lengths the format carries.
    public static let signatureSizes = 1...1024
    /// The largest pack `open` reads unless told otherwise: 32 MiB (a set of 60 clips at 48 kHz is
    /// about 6 MB).
    public static let defaultMaxBytes = 32 << 20
    /// The name a clip's file has in a pack.
    public static func packedName(_ file: String) -> String { "\(SoundSetLayout.soundsName)/\(file)" }

    /// The unsigned part (magic, header, payload) of `set` as voice `voice`, signed by `sign`, which
    /// returns the signature of the bytes it is given.
    /// - Throws: `PackError` when the name or version is not valid, a clip cannot be read or is not
    ///   its manifest's, or the signature's length cannot be carried; what `sign` throws.
    public static func encode(_ set: SoundSet, voice: String, version: Int, sign: (Data) throws -> Data) throws -> Data {
        guard VoiceName.isValid(voice) else { throw PackError.badVoiceName(voice) }
        guard version >= 1 else { throw PackError.badVersion(version) }
        let manifestData: Data
        do { manifestData = try set.manifest.encoded() } catch {
            throw PackError.source(file: SoundSetLayout.manifestName, reason: "cannot be encoded (\(error))")
        }
        var contents = [manifestData]
        var files = [File(name: SoundSetLayout.manifestName, bytes: manifestData.count)]
        for clip in set.manifest.clips {
            let name = packedName(clip.file)
            let data: Data
            do { data = try RegularFile.read(set.soundsFolder.appendingPathComponent(clip.file), maxBytes: Composer.maxClipBytes) } catch {
                throw PackError.source(file: name, reason: "the clip file \(error.reason)")
            }
            guard SHA256Digest.hex(data) == clip.sha256 else { throw PackError.source(file: name, reason: "differs from the manifest's sha256") }
            contents.append(data)
            files.append(File(name: name, bytes: data.count))
        }
        let header = Header(voice: voice, locale: set.manifest.locale.rawValue, version: version, setId: set.id, files: files)
        return try assemble(header, contents, sign: sign)
    }

    /// Magic, `header` (sorted keys, no whitespace), `contents` and the signature `sign` gives: any
    /// header, checked or not (the tests make packs the format refuses with it).
    package static func assemble(_ header: Header, _ contents: [Data], sign: (Data) throws -> Data) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let headerData = try encoder.encode(header)
        guard (1...maxHeaderBytes).contains(headerData.count) else { throw PackError.headerLength(headerData.count) }
        var data = magic
        data.append(bigEndian: UInt32(headerData.count))
        data.append(headerData)
        for content in contents { data.append(content) }
        let signature = try sign(data)
        guard signatureSizes.contains(signature.count) else { throw PackError.signatureSize(signature.count) }
        data.append(bigEndian: UInt32(signature.count))
        data.append(signature)
        return data
    }

    /// Reads a pack: its size, magic and header length; then its signature, before any byte of the
    /// header is parsed; then the header (format, voice, version, file names and lengths) and every
    /// file against the manifest (the list, the locale, the set id, each clip's sha256).
    ///
    /// The signature is found from the end: the last `sigLen` bytes are the signature when the four
    /// bytes before them say `sigLen` (64 tried first, then 1 to 1024, at most 4 tries), and the
    /// signed bytes are all those before. Nothing the header says is read before one verifies. When
    /// none does, the header is parsed only to word the refusal: the pack is cut short (its files or
    /// signature go past its end), has bytes after a good signature, or is `badSignature`.
    /// Untrusted lengths are bounded before use, never allocated: a slice of `data` is all a file is.
    /// - Parameter maxBytes: the largest pack read; a larger one is refused before anything else.
    /// - Throws: `PackError`, the first thing wrong.
    public static func open(_ data: Data, verifier: any PackSignatureVerifier, maxBytes: Int = VoicePack.defaultMaxBytes) throws(PackError)
        -> VoicePack
    {
        let bytes = PackBytes(data)
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        let headerRange = try bytes.headerRange()
        guard let signatureAt = bytes.signedLength(after: headerRange.upperBound, verifier: verifier) else {
            throw bytes.refusalOfUnsigned(headerRange, verifier: verifier)
        }
        let header = try decodeHeader(bytes.slice(headerRange))
        try header.checkNames()
        let contents = try bytes.files(header.files, from: headerRange.upperBound, to: signatureAt)
        let manifest = try checkFiles(header, contents)
        return VoicePack(header: header, manifest: manifest, contents: contents)
    }

    /// The header of the pack `data`, checked as `open` checks it (format, voice, version, file
    /// names), and that the file is framed as it says (every file inside it, then one signature of
    /// a length the format carries ending it), WITHOUT the signature checked: for a server or tool
    /// that lists or serves packs. Nothing here may be trusted: a phone installs only what `open`
    /// verifies.
    /// - Throws: `PackError`, the first thing wrong.
    public static func unverifiedHeader(of data: Data, maxBytes: Int = VoicePack.defaultMaxBytes) throws(PackError) -> Header {
        let bytes = PackBytes(data)
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        let headerRange = try bytes.headerRange()
        let header = try decodeHeader(bytes.slice(headerRange))
        try header.checkNames()
        var end = headerRange.upperBound
        for file in header.files {
            guard file.bytes >= 0 else { throw .fileLength(name: file.name, bytes: file.bytes) }
            guard file.bytes <= bytes.count - end else { throw .truncated(bytes: bytes.count) }
            end += file.bytes
        }
        guard let size = bytes.uint32(at: end) else { throw .truncated(bytes: bytes.count) }
        guard signatureSizes.contains(size) else { throw .badSignature }
        guard size <= bytes.count - end - 4 else { throw .truncated(bytes: bytes.count) }
        guard end + 4 + size == bytes.count else { throw .trailingBytes(bytes.count - end - 4 - size) }
        return header
    }

    /// The header, decoded: `badHeader` when it is not the format's JSON, `unknownFormat` when its
    /// `format` is another.
    static func decodeHeader(_ data: Data) throws(PackError) -> Header {
        struct Format: Decodable { var format: Int }
        do {
            let header = try JSONDecoder().decode(Header.self, from: data)
            guard header.format == format else { throw PackError.unknownFormat(header.format) }
            return header
        } catch let error as PackError {
            throw error
        } catch {
            if let other = try? JSONDecoder().decode(Format.self, from: data), other.format != format { throw .unknownFormat(other.format) }
            throw .badHeader(reason: Manifest.describe(error))
        }
    }

    /// Checks the files' list against the manifest (it comes first), the header against the
    /// manifest, and every clip against its sha256.
    /// - Returns: the manifest.
    static func checkFiles(_ header: Header, _ contents: [Data]) throws(PackError) -> Manifest {
        var seen = Set<String>()
        for file in header.files where !seen.insert(file.name).inserted { throw .duplicateFile(file.name) }
        guard header.files.first?.name == SoundSetLayout.manifestName else {
            throw seen.contains(SoundSetLayout.manifestName) ? .fileOutOfOrder(SoundSetLayout.manifestName) : .missingFile(SoundSetLayout.manifestName)
        }
        guard contents[0].count <= Manifest.maxBytes else {
            throw .fileTooLarge(name: SoundSetLayout.manifestName, bytes: contents[0].count, limit: Manifest.maxBytes)
        }
        let manifest: Manifest
        do { manifest = try Manifest.decode(contents[0]) } catch {
            if case .invalid(_, let reason) = error { throw .badManifest(reason: reason) }
            throw .badManifest(reason: error.description)
        }
        let expected = [SoundSetLayout.manifestName] + manifest.clips.map { packedName($0.file) }
        let known = Set(expected)
        if let extra = header.files.first(where: { !known.contains($0.name) }) { throw .extraFile(extra.name) }
        if let missing = expected.first(where: { !seen.contains($0) }) { throw .missingFile(missing) }
        if let index = header.files.indices.first(where: { header.files[$0].name != expected[$0] }) { throw .fileOutOfOrder(header.files[index].name) }
        guard header.locale == manifest.locale.rawValue else { throw .localeMismatch(header: header.locale, manifest: manifest.locale.rawValue) }
        let id = SoundSet.id(of: manifest)
        guard header.setId == id else { throw .setIdMismatch(header: header.setId, manifest: id) }
        for (clip, data) in zip(manifest.clips, contents.dropFirst()) {
            let name = packedName(clip.file)
            guard data.count <= Composer.maxClipBytes else { throw .fileTooLarge(name: name, bytes: data.count, limit: Composer.maxClipBytes) }
            guard SHA256Digest.hex(data) == clip.sha256 else { throw .clipMismatch(clip: clip.name, file: name) }
        }
        return manifest
    }
}

extension VoicePack.Header {
    /// Checks the voice's name, the version, and that every file is `manifest.json` or
    /// `Sounds/<a plain file name>`.
    func checkNames() throws(PackError) {
        guard VoiceName.isValid(voice) else { throw .badVoiceName(voice) }
        guard version >= 1 else { throw .badVersion(version) }
        let prefix = "\(SoundSetLayout.soundsName)/"
        for file in files where file.name != SoundSetLayout.manifestName {
            guard file.name.hasPrefix(prefix), ClipNameRules.isPlainFileName(String(file.name.dropFirst(prefix.count))) else {
                throw .badFileName(file.name)
            }
        }
    }
}

extension Data {
    /// Appends `value`, big-endian.
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
