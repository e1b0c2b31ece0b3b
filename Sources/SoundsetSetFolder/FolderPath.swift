import Foundation

/// Whether one absolute path lies in a folder: the one comparison the build's refusals (an output
/// that holds the assets, a report inside the set) and `render --out` share. Callers resolve links
/// and standardise first, as each needs.
public enum FolderPath {
    /// Whether `path` is `folder` or lies below it (`/a/bc` is not below `/a/b`).
    public static func isWithin(_ path: String, folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
