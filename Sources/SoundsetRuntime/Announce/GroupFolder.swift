import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where soundset keeps things in the App Group's container (or `soundset announce --group DIR`):
///
/// ```
/// DIR/Library/Sounds/ss<set id>-<clip file>      installed clips (iOS finds sounds here by name)
/// DIR/Library/Sounds/soundset-<key>.<ext>         composed announcements, one name per announcement
/// DIR/soundset/queue.json, queue.lock             the announcement queue, under a file lock
/// DIR/soundset/sets/<set id>.json                 what an installed set's files are (for a cheap check)
/// ```
///
/// soundset deletes only regular files with those names (and its own temporary files, from a
/// process killed while it wrote one); anything else in `Library/Sounds` is the app's.
public struct GroupFolder: Sendable {
    /// The container's folder.
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// `Library/Sounds`: the second place iOS looks for a notification sound by name.
    public var sounds: URL { url.appendingPathComponent("Library/Sounds", isDirectory: true) }
    /// soundset's own state, outside `Library/Sounds`.
    public var state: URL { url.appendingPathComponent(SoundSetLayout.stateName, isDirectory: true) }
    var queueFile: URL { state.appendingPathComponent("queue.json") }
    var lockFile: URL { state.appendingPathComponent("queue.lock") }
    var setsFolder: URL { state.appendingPathComponent("sets", isDirectory: true) }

    func setRecord(_ id: String) -> URL { setsFolder.appendingPathComponent("\(id).json") }

    /// The installed name of a set's clip file.
    static func installedName(_ file: String, set id: String) -> String { "ss\(id)-\(file)" }

    /// The set id of an installed clip name, or nil when the name is not one soundset installs.
    static func setID(ofInstalled name: String) -> String? {
        let bytes = Array(name.utf8)
        guard bytes.count > 13, bytes[0] == UInt8(ascii: "s"), bytes[1] == UInt8(ascii: "s"), bytes[12] == UInt8(ascii: "-"),
            bytes[2..<12].allSatisfy(isHexDigit)
        else { return nil }
        return String(decoding: bytes[2..<12], as: UTF8.self)
    }

    /// A composed announcement's file name: a new key each time, so iOS never plays a stale file.
    static func composedName(_ key: String, container: Container) -> String { "soundset-\(key).\(container.fileExtension)" }

    /// Whether `name` is a composed announcement's name: `soundset-`, a key of lower-case letters,
    /// digits and `-`, and a container's extension.
    static func isComposedName(_ name: String) -> Bool {
        guard name.hasPrefix("soundset-"), let dot = name.lastIndex(of: ".") else { return false }
        let key = name[name.index(name.startIndex, offsetBy: 9)..<dot]
        return Container(rawValue: String(name[name.index(after: dot)...])) != nil && (1...64).contains(key.utf8.count)
            && key.utf8.allSatisfy { isHexDigit($0) || (103...122).contains($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }

    /// Creates the folders soundset writes in.
    func prepare() throws(RegularFile.Failure) {
        for (folder, shown) in [(sounds, "Library/Sounds"), (state, SoundSetLayout.stateName), (setsFolder, "\(SoundSetLayout.stateName)/sets")] {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
                guard isFolder.boolValue else { throw RegularFile.Failure(reason: "\(url.path)/\(shown) is a file, not a folder: remove it") }
                continue
            }
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw RegularFile.Failure(reason: "\(url.path)/\(shown) cannot be created (\(RegularFile.reason(error)))")
            }
        }
    }

    /// Deletes `name` in `folder` when it is a regular file (never a folder, never through a link).
    static func removeFile(_ name: String, in folder: URL) { RegularFile.remove(folder.appendingPathComponent(name)) }

    /// Removes what stands where soundset's own file belongs and is not a regular file: an empty
    /// folder, a FIFO, a socket or a link (a folder with files in it is left alone).
    func removeStray(_ url: URL) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR { rmdir(url.path) } else if info.st_mode & S_IFMT != S_IFREG { unlink(url.path) }
    }

    /// Deletes the temporary files a process killed while it wrote left behind. Called with the
    /// lock held: every write happens under it, so any such file is a dead process's.
    func removeLeftovers() {
        for folder in [sounds, state, setsFolder] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                guard let inner = RegularFile.replacedName(ofTemporary: name) else { continue }
                let ours =
                    folder != sounds || Self.setID(ofInstalled: inner) != nil || Self.isComposedName(inner)
                if ours { Self.removeFile(name, in: folder) }
            }
        }
    }
}
