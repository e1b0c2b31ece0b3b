import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says about a file: size, modification time to the nanosecond, inode, and the time its
/// inode last changed. When all are unchanged the file's bytes are taken to be unchanged too (as
/// make and git's index do), so a rebuild need not read them again; unless the file was modified at
/// or after the stamps were taken (see `BuildRecord.stampedAt`). The change time is the one no
/// program can set: a file edited in place and given its old modification time back (`touch -r`)
/// still has a new one.
public struct FileStamp: Codable, Sendable, Equatable {
    package var size: Int64
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64
    package var inode: UInt64
    package var changedSeconds: Int64
    package var changedNanoseconds: Int64

    /// The stamp of the file at `path`, or nil when it cannot be stat'ed or is not a regular file
    /// (without `followingLinks`, a symbolic link is not one).
    package init?(path: String, followingLinks: Bool = true) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        self.init(info)
    }

    /// The stamp of a file `stat` described, or nil when it is not a regular file.
    package init?(_ info: stat) {
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
            changedSeconds = Int64(info.st_ctimespec.tv_sec)
            changedNanoseconds = Int64(info.st_ctimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
            changedSeconds = Int64(info.st_ctim.tv_sec)
            changedNanoseconds = Int64(info.st_ctim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }

    package init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, inode: UInt64, changedSeconds: Int64, changedNanoseconds: Int64) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }

    /// When the file was last modified.
    package var modified: FileTime { FileTime(seconds: modifiedSeconds, nanoseconds: modifiedNanoseconds) }

    /// Whether this stamp, found now, proves the file unchanged since `recorded` was taken at
    /// `stampedAt`: the same stamp, of a file last modified before the stamps were taken. A file
    /// modified in the same tick of the file system's clock as the stamping could have changed again
    /// within that tick without its stamp changing.
    package func proves(_ recorded: FileStamp, stampedAt: FileTime) -> Bool { self == recorded && recorded.modified < stampedAt }

    // Stored as [size, seconds, nanoseconds, inode, change seconds, change nanoseconds]: the record
    // holds one per recording and output file, and an array of numbers decodes in a fraction of a
    // keyed object's time.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        size = try container.decode(Int64.self)
        modifiedSeconds = try container.decode(Int64.self)
        modifiedNanoseconds = try container.decode(Int64.self)
        inode = try container.decode(UInt64.self)
        changedSeconds = try container.decode(Int64.self)
        changedNanoseconds = try container.decode(Int64.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(size)
        try container.encode(modifiedSeconds)
        try container.encode(modifiedNanoseconds)
        try container.encode(inode)
        try container.encode(changedSeconds)
        try container.encode(changedNanoseconds)
    }
}
