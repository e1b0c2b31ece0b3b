import Foundation

/// A pack's bytes, read by offsets from its start with every bound checked before a read: nothing a
/// pack says is used as a length before it is held within the pack, and nothing is allocated from it
/// (a file is a slice of the pack's own bytes).
struct PackBytes {
    let data: Data
    var count: Int { data.count }

    init(_ data: Data) { self.data = data }

    /// The bytes at `range` (offsets from the pack's start, inside it).
    func slice(_ range: Range<Int>) -> Data { data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)] }

    /// The big-endian UInt32 at `offset`, or nil when it does not fit.
    func uint32(at offset: Int) -> Int? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        let start = data.startIndex + offset
        return (0..<4).reduce(0) { ($0 << 8) | Int(data[start + $1]) }
    }

    /// Where the header lies, after the magic and its length.
    /// - Throws: `truncated` for a pack that ends first (a prefix of the magic included),
    ///   `notAPack` for other first bytes, `headerLength` outside 1 byte to 1 MiB.
    func headerRange() throws(PackError) -> Range<Int> {
        let magic = VoicePack.magic
        let head = slice(0..<Swift.min(count, magic.count))
        guard head.elementsEqual(magic.prefix(head.count)) else { throw .notAPack }
        guard let length = uint32(at: magic.count) else { throw .truncated(bytes: count) }
        guard (1...VoicePack.maxHeaderBytes).contains(length) else { throw .headerLength(length) }
        let start = magic.count + 4
        guard length <= count - start else { throw .truncated(bytes: count) }
        return start..<(start + length)
    }

    /// How many bytes the signature covers (the offset of `sigLen`), when the pack ends in a
    /// signature of a length the format carries, over every byte before its length, that `verifier`
    /// accepts: 64 (Ed25519) is tried first, then every other length whose four bytes before the
    /// signature say it, at most `maxTries` in all (each try hashes the whole pack).
    func signedLength(after payloadStart: Int, verifier: any PackSignatureVerifier) -> Int? {
        let maxTries = 4
        var tries = 0
        for size in [64] + VoicePack.signatureSizes.filter({ $0 != 64 }) where tries < maxTries {
            let at = count - size - 4
            guard at >= payloadStart, uint32(at: at) == size else { continue }
            tries += 1
            if verifies(at: at, size: size, verifier) { return at }
        }
        return nil
    }

    /// Whether the `size` bytes after `sigLen` at `at` are a good signature of every byte before `at`.
    private func verifies(at: Int, size: Int, _ verifier: any PackSignatureVerifier) -> Bool {
        verifier.isValidSignature(slice((at + 4)..<(at + 4 + size)), for: slice(0..<at))
    }

    /// The refusal of a pack whose end holds no signature the verifier accepts. The header, not
    /// trusted, only words it: its files or the signature after them go past the pack's end
    /// (`truncated`); a good signature ends before it (`trailingBytes`); else `badSignature`.
    func refusalOfUnsigned(_ headerRange: Range<Int>, verifier: any PackSignatureVerifier) -> PackError {
        guard let header = try? JSONDecoder().decode(VoicePack.Header.self, from: slice(headerRange)) else { return .badSignature }
        var end = headerRange.upperBound
        for file in header.files {
            let (sum, overflow) = end.addingReportingOverflow(file.bytes)
            guard file.bytes >= 0, !overflow else { return .badSignature }
            end = sum
        }
        guard end <= count - 4 else { return .truncated(bytes: count) }
        guard let size = uint32(at: end), VoicePack.signatureSizes.contains(size) else { return .badSignature }
        guard size <= count - end - 4 else { return .truncated(bytes: count) }
        let signatureEnd = end + 4 + size
        if signatureEnd < count, verifies(at: end, size: size, verifier) { return .trailingBytes(count - signatureEnd) }
        return .badSignature
    }

    /// The files the (signed) header lists, as slices of the payload from `start` to `end`.
    /// - Throws: `fileLength` for a length below 0 or past the payload, `payloadSize` when the
    ///   lengths do not add up to the payload.
    func files(_ files: [VoicePack.File], from start: Int, to end: Int) throws(PackError) -> [Data] {
        let payload = end - start
        var offset = start
        var contents: [Data] = []
        contents.reserveCapacity(Swift.min(files.count, 1 << 14))
        for file in files {
            guard (0...payload).contains(file.bytes) else { throw .fileLength(name: file.name, bytes: file.bytes) }
            guard file.bytes <= end - offset else {
                let declared = files.reduce(0) { $0.addingReportingOverflow($1.bytes).overflow ? Int.max : $0 + $1.bytes }
                throw .payloadSize(declared: declared, actual: payload)
            }
            contents.append(slice(offset..<(offset + file.bytes)))
            offset += file.bytes
        }
        guard offset == end else { throw .payloadSize(declared: offset - start, actual: payload) }
        return contents
    }
}
