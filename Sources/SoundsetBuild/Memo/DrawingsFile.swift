import Foundation

/// The report's drawings of an output folder's clips in the memo, `drawings-<output>.bin`: read
/// whole when a report is made (every clip's drawing, a few kilobytes each), so one file of plain
/// bytes, not JSON.
///
/// ```
/// "SSDRAW01"  u32 count
/// count × ( key (64 ASCII bytes)  u32 source columns  u32 output columns  u32 preview rate
///           u32 length + source path  u32 length + output path  u32 length + preview )
/// u64 checksum (of all before it)
/// ```
enum DrawingsFile {
    static let magic = Data("SSDRAW01".utf8)

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
            append(drawing.previewRate)
            append(drawing.sourcePath)
            append(drawing.outputPath)
            append(drawing.preview)
        }
        withUnsafeBytes(of: ClipEntry.checksum(data).littleEndian) { data.append(contentsOf: $0) }
        return data
    }

    /// The drawings in `data`, or nil when it is not a whole, intact drawings file.
    static func decode(_ data: Data) -> [String: ClipDrawing]? {
        guard data.count >= magic.count + 12, data.prefix(magic.count) == magic else { return nil }
        let body = data.prefix(data.count - 8)
        let stored = data.suffix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        guard ClipEntry.checksum(Data(body)) == stored else { return nil }
        var offset = body.startIndex + magic.count
        func integer() -> Int? {
            guard offset + 4 <= body.endIndex else { return nil }
            let value = body[offset..<offset + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
            offset += 4
            return Int(value)
        }
        func text(_ count: Int?) -> String? {
            guard let count, count >= 0, offset + count <= body.endIndex else { return nil }
            defer { offset += count }
            return String(decoding: body[offset..<offset + count], as: UTF8.self)
        }
        guard let count = integer(), count <= body.count / 64 else { return nil }
        var drawings: [String: ClipDrawing] = [:]
        for _ in 0..<count {
            guard let key = text(64), let sourceColumns = integer(), let outputColumns = integer(), let previewRate = integer(),
                let sourcePath = text(integer()), let outputPath = text(integer()), let preview = text(integer()),
                // What goes into the page as it is holds only what a path or base64 holds: a damaged
                // or planted file puts no markup into a report.
                [sourcePath, outputPath].allSatisfy({ $0.utf8.allSatisfy(isPathByte) }), preview.utf8.allSatisfy(isBase64Byte)
            else { return nil }
            drawings[key] = ClipDrawing(
                sourceColumns: sourceColumns, sourcePath: sourcePath, outputColumns: outputColumns, outputPath: outputPath, preview: preview,
                previewRate: previewRate)
        }
        return offset == body.endIndex ? drawings : nil
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "M") || byte == UInt8(ascii: "L") || byte == UInt8(ascii: "Z")
    }

    private static func isBase64Byte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "=")
    }
}
