import Foundation

/// A time as a file system records it: seconds and nanoseconds.
public struct FileTime: Codable, Sendable, Comparable, Hashable {
    public var seconds: Int64
    public var nanoseconds: Int64

    package init(seconds: Int64, nanoseconds: Int64) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static func < (a: FileTime, b: FileTime) -> Bool { (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds) }

    /// The file system's clock now, read as the modification time of a file written in `folder`
    /// (the system clock can disagree with the file system's, and its granularity is the file
    /// system's): nil when the folder cannot be written.
    /// The marker is made by one `open(2)` (no temporary file of its own, as Foundation's
    /// `createFile` writes) and kept for an interruption to remove, so a build stopped meanwhile
    /// leaves nothing beside its output.
    package static func now(in folder: URL) -> FileTime? {
        let marker = folder.appendingPathComponent(".clock-\(UUID().uuidString)")
        var made = false
        Interruption.shared.writing(marker) {
            let descriptor = open(marker.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
                made = true
            }
        }
        defer {
            unlink(marker.path)
            Interruption.shared.done(marker)
        }
        return made ? FileStamp(path: marker.path)?.modified : nil
    }
}
