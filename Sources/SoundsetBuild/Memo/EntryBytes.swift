import Foundation

/// The memo's own binary fields, little-endian: what an entry's summary is written in, because
/// a rebuild reads every clip's summary and decoding JSON was most of a one-take rebuild's time.
/// Numbers are 8 bytes (4 for `UInt32`), strings and byte arrays a 4-byte count and their bytes.
struct EntryBytesWriter {
    private(set) var data = Data()

    mutating func int(_ value: Int) { append(UInt64(bitPattern: Int64(value))) }
    mutating func double(_ value: Double) { append(value.bitPattern) }
    mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
    mutating func bool(_ value: Bool) { data.append(value ? 1 : 0) }
    mutating func string(_ value: String) { bytes(Data(value.utf8)) }
    mutating func int8s(_ values: [Int8]) {
        uint32(UInt32(values.count))
        values.withUnsafeBytes { data.append(contentsOf: $0) }
    }
    mutating func bytes(_ value: Data) {
        uint32(UInt32(value.count))
        data.append(value)
    }

    private mutating func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
}

/// Reads what `EntryBytesWriter` wrote, every count checked against the bytes left: a damaged or
/// foreign summary is nil (thrown as `Short`), never a crash or a huge allocation.
struct EntryBytesReader {
    struct Short: Error {}

    private let data: Data
    private var offset: Int

    init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    /// The bytes not read yet.
    var bytesLeft: Int { data.endIndex - offset }

    /// Whether every byte was read: a summary with bytes left over is not one this build wrote.
    var isAtEnd: Bool { offset == data.endIndex }

    mutating func int() throws(Short) -> Int { Int(Int64(bitPattern: try word(8))) }
    mutating func double() throws(Short) -> Double { Double(bitPattern: try word(8)) }
    mutating func uint32() throws(Short) -> UInt32 { UInt32(truncatingIfNeeded: try word(4)) }
    mutating func bool() throws(Short) -> Bool {
        switch try word(1) {
        case 0: false
        case 1: true
        default: throw Short()
        }
    }
    mutating func string() throws(Short) -> String {
        guard let text = String(validating: try bytes(), as: UTF8.self) else { throw Short() }
        return text
    }
    mutating func int8s() throws(Short) -> [Int8] {
        let raw = try bytes()
        return [Int8](unsafeUninitializedCapacity: raw.count) { buffer, count in count = raw.copyBytes(to: UnsafeMutableRawBufferPointer(buffer)) }
    }
    mutating func bytes() throws(Short) -> Data {
        let count = Int(try uint32())
        guard count <= data.endIndex - offset else { throw Short() }
        defer { offset += count }
        return data[offset..<(offset + count)]
    }

    /// The next `size` bytes as a little-endian number.
    private mutating func word(_ size: Int) throws(Short) -> UInt64 {
        guard size <= data.endIndex - offset else { throw Short() }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(data[offset + index]) << (8 * UInt64(index)) }
        offset += size
        return value
    }
}
