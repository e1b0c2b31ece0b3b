import Foundation

/// A fresh folder under the system's temporary folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init(_ label: String = "soundset-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// `url/name`, with any missing folders created.
    public func folder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `parent/name`, created.
    public static func folder(_ parent: URL, _ name: String) throws -> URL {
        let folder = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Every file below `folder` with its bytes, for comparing a folder before and after.
public func snapshot(of folder: URL) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return files }
    for case let url as URL in walker {
        if let data = try? Data(contentsOf: url) {
            files[String(url.path.dropFirst(folder.path.count))] = data
        }
    }
    return files
}

/// The set's files in `folder` without its report, which also tells the folder's history (what
/// changed since the build before) and so differs between two folders holding the same set.
public func setSnapshot(of folder: URL) -> [String: Data] { withoutReport(snapshot(of: folder)) }

/// A snapshot without the report.
public func withoutReport(_ files: [String: Data]) -> [String: Data] { files.filter { $0.key != "/report.html" } }
