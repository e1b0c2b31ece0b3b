import Foundation
import SoundsetReport

/// The report's drawings of an output folder's clips in the memo, `drawings-<output>.bin`: read
/// whole when a report is made (every clip's drawing, a few kilobytes each), so one file of plain
/// bytes, not JSON. (The clips' players play the set's own files, read when the page is made.)
///
/// ```
/// "SSDRAW02"  u32 count
/// count × ( key (64 ASCII bytes)  u32 source columns  u32 output columns
///           u32 length + source path  u32 length + output path )
/// u64 checksum (of all before it)
/// ```
enum DrawingsFile {
    static let magic = Data("SSDRAW02".utf8)

    static func encode(_ drawings: [String: ClipDrawing]) -> Data {
        var data = magic
        func append(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func append(_ text: String) {
            let bytes = Data(text.utf8)
            append(bytes.count)
            data.append(bytes)
        }
        let keyed = drawings.filter { $0.key.utf8.count == 64 }.sorted { $0.key < $1.key }
        append(keyed.count)
        for (key, drawing) in keyed {
            data.append(Data(key.utf8))
            append(drawing.sourceColumns)
            append(drawing.outputColumns)
            append(drawing.sourcePath)
            append(drawing.outputPath)
        }
        withUnsafeBytes(of: ClipEntry.checksum(data).littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// The drawings in `data`, or nil when it is not a whole, intact drawings file.
    static func decode(_ data: Data) -> [String: ClipDrawing]? {
        guard data.count >= magic.count + 12, data.prefix(magic.count) == magic else { return nil }
        let body = data.prefix(data.count - 8)
        let stored = data.suffix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        guard ClipEntry.checksum(body) == stored else { return nil }
        var offset = body.startIndex + magic.count
        func integer() -> Int? {
            guard offset + 4 <= body.endIndex else { return nil }
            let value = body[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
            offset += 4
            return Int(value)
        }
        /// The next `count` bytes as text, when each is one `allowed` holds.
        func text(_ count: Int?, _ allowed: [Bool]) -> String? {
            guard let count, count >= 0, offset + count <= body.endIndex else { return nil }
            let bytes = body[offset..<offset + count]
            guard bytes.withUnsafeBytes({ $0.allSatisfy { allowed[Int($0)] } }) else { return nil }
            offset += count
            return String(decoding: bytes, as: UTF8.self)
        }
        guard let count = integer(), count <= body.count / 64 else { return nil }
        var drawings: [String: ClipDrawing] = [:]
        for _ in 0..<count {
            // What goes into the page as it is holds only what a key or a path holds: a damaged or
            // planted file puts no markup into a report.
            guard let key = text(64, hexBytes), let sourceColumns = integer(), let outputColumns = integer(),
                let sourcePath = text(integer(), pathBytes), let outputPath = text(integer(), pathBytes)
            else { return nil }
            drawings[key] = ClipDrawing(sourceColumns: sourceColumns, sourcePath: sourcePath, outputColumns: outputColumns, outputPath: outputPath)
        }
        return offset == body.endIndex ? drawings : nil
    }

    /// The bytes each part may hold, by byte value.
    private static let hexBytes = table("0123456789abcdef")
    private static let pathBytes = table("0123456789 -MLZ")

    private static func table(_ allowed: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for byte in allowed.utf8 { table[Int(byte)] = true }
        return table
    }
}
