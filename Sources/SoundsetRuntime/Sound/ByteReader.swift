import Foundation

/// Reads big- and little-endian fields from file bytes, never past the end.
struct ByteReader {
    let data: Data
    let name: String
    private(set) var offset: Int

    init(data: Data, name: String) {
        self.data = data
        self.name = name
        self.offset = data.startIndex
    }

    var remaining: Int { data.endIndex - offset }
    var atEnd: Bool { remaining <= 0 }

    func failure(_ reason: String) -> ComposeError { .unreadable(name, reason) }

    mutating func bytes(_ count: Int) throws(ComposeError) -> Data {
        guard count >= 0, count <= remaining else { throw failure("the file ends early (truncated)") }
        defer { offset += count }
        return data.subdata(in: offset..<offset + count)
    }

    mutating func skip(_ count: Int) throws(ComposeError) {
        guard count >= 0, count <= remaining else { throw failure("the file ends early (truncated)") }
        offset += count
    }

    mutating func fourCC() throws(ComposeError) -> String {
        String(decoding: try bytes(4), as: UTF8.self)
    }

    mutating func uint16(bigEndian: Bool) throws(ComposeError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(2, bigEndian: bigEndian))
    }

    mutating func uint32(bigEndian: Bool) throws(ComposeError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(4, bigEndian: bigEndian))
    }

    mutating func uint64(bigEndian: Bool) throws(ComposeError) -> UInt64 {
        try integer(8, bigEndian: bigEndian)
    }

    private mutating func integer(_ count: Int, bigEndian: Bool) throws(ComposeError) -> UInt64 {
        guard count <= remaining else { throw failure("the file ends early (truncated)") }
        var value: UInt64 = 0
        for index in 0..<count {
            let byte = UInt64(data[offset + (bigEndian ? index : count - 1 - index)])
            value = value << 8 | byte
        }
        offset += count
        return value
    }
}

extension Data {
    mutating func append(fourCC: String) { append(contentsOf: Array(fourCC.utf8.prefix(4))) }

    mutating func append(uint16 value: UInt16, bigEndian: Bool) {
        append(contentsOf: Swift.withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init))
    }

    mutating func append(uint32 value: UInt32, bigEndian: Bool) {
        append(contentsOf: Swift.withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init))
    }

    mutating func append(uint64 value: UInt64, bigEndian: Bool) {
        append(contentsOf: Swift.withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init))
    }
}
