import Foundation

/// Where soundset keeps things in the App Group's container (or `soundset announce --group DIR`):
///
/// ```
/// DIR/Library/Sounds/ss<set id>-<clip file>      installed clips (iOS finds sounds here by name)
/// DIR/Library/Sounds/soundset-<uuid>.<ext>        composed announcements, one name per announcement
/// DIR/soundset/queue.json, queue.lock             the announcement queue, under a file lock
/// DIR/soundset/sets/<set id>.json                 what an installed set's files are (for a cheap check)
/// ```
public struct GroupFolder: Sendable {
    /// The container's folder.
    public let url: URL

    public init(_ url: URL) { self.url = url }

    /// `Library/Sounds`: the second place iOS looks for a notification sound by name.
    public var sounds: URL { url.appendingPathComponent("Library/Sounds", isDirectory: true) }
    /// soundset's own state, outside `Library/Sounds`.
    public var state: URL { url.appendingPathComponent("soundset", isDirectory: true) }
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
            bytes[2..<12].allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        return String(decoding: bytes[2..<12], as: UTF8.self)
    }

    /// A composed announcement's file name: a new UUID each time, so iOS never plays a stale file.
    static func composedName(_ key: String, container: Container) -> String { "soundset-\(key).\(container.fileExtension)" }

    /// Whether `name` is a composed announcement's file name.
    static func isComposedName(_ name: String) -> Bool { name.hasPrefix("soundset-") && !name.hasPrefix(".") }

    /// Creates the folders soundset writes in.
    func prepare() throws(RegularFile.Failure) {
        do {
            for folder in [sounds, state, setsFolder] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        } catch {
            throw RegularFile.Failure(reason: "cannot create folders in \(url.path) (\(RegularFile.reason(error)))")
        }
    }
}
