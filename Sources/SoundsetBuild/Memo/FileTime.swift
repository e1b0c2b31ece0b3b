import Foundation

/// A time as a file system records it: seconds and nanoseconds.
public struct FileTime: Codable, Sendable, Comparable, Hashable {
    public var seconds: Int64
    public var nanoseconds: Int64

    public static func < (a: FileTime, b: FileTime) -> Bool { (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) }

    /// The file system's clock now, read as the modification time of a file written in `folder`
    /// (the system clock can disagree with the file system's, and its granularity is the file
    /// system's): nil when the folder cannot be written.
    static func now(in folder: URL) -> FileTime? {
        let marker = folder.appendingPathComponent(".clock-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: marker.path, contents: Data()) else { return nil }
        defer { unlink(marker.path) }
        return FileStamp(path: marker.path)?.modified
    }
}
