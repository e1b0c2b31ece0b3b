import Foundation
import SoundsetRuntime

/// The output folder, replaced whole: the new set is built in a staging folder beside it and swapped
/// in, so a failed or interrupted build leaves the previous set exactly as it was.
public struct OutputFolder: Sendable {
    public let url: URL

    /// The clip files in a set's `Sounds` folder (hidden files such as `.DS_Store` left out).
    static func clipFiles(in sounds: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sounds.path)) ?? []).filter { !$0.hasPrefix(".") }
    }
    let displayName: String

    private var parent: URL { url.deletingLastPathComponent() }
    private var stagingPrefix: String { ".soundset-staging-\(url.lastPathComponent)-" }
    private var retiredPrefix: String { ".soundset-retired-\(url.lastPathComponent)-" }

    /// Checks that `url` may be replaced: it does not exist, is empty, or holds a soundset manifest;
    /// and it is not the assets folder or one that contains it.
    /// - Throws: `BuildProblem` saying why the folder is refused.
    public init(url: URL, displayName: String, assets: URL) throws {
        self.url = url.standardizedFileURL
        self.displayName = displayName
        let fileManager = FileManager.default
        let outputPath = self.url.resolvingSymlinksInPath().path
        let assetsPath = assets.standardizedFileURL.resolvingSymlinksInPath().path
        if assetsPath == outputPath || assetsPath.hasPrefix(outputPath.hasSuffix("/") ? outputPath : outputPath + "/") {
            throw BuildProblem(displayName, "is the assets folder or contains it; refusing to replace it (choose another --output)")
        }
        try recoverInterruptedSwap()
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: self.url.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw BuildProblem(displayName, "is a file, not a folder; refusing to replace it (choose another --output)")
        }
        let entries = (try? fileManager.contentsOfDirectory(atPath: self.url.path)) ?? []
        if entries.filter({ $0 != ".DS_Store" }).isEmpty { return }
        guard (try? Manifest.load(from: self.url.appendingPathComponent(SoundSetLayout.manifestName))) != nil else {
            throw BuildProblem(displayName, "holds files but no soundset manifest; refusing to replace it (empty it or choose another --output)")
        }
    }

    /// A kill between the two renames of a swap leaves the old set retired and no output folder:
    /// put it back. Then remove what killed builds left behind.
    private func recoverInterruptedSwap() throws {
        let fileManager = FileManager.default
        let leftovers = ((try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? []).sorted()
        if !fileManager.fileExists(atPath: url.path),
            let retired = leftovers.first(where: { $0.hasPrefix(retiredPrefix) })
        {
            try? fileManager.moveItem(at: parent.appendingPathComponent(retired), to: url)
        }
        for name in leftovers where name.hasPrefix(stagingPrefix) || name.hasPrefix(retiredPrefix) {
            try? fileManager.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Creates an empty staging folder with its `Sounds` folder, beside the output folder.
    /// - Throws: `BuildProblem` when the parent folder cannot be written.
    public func makeStaging() throws -> URL {
        let staging = parent.appendingPathComponent(stagingPrefix + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(
                at: staging.appendingPathComponent(SoundSetLayout.soundsName), withIntermediateDirectories: true)
        } catch {
            throw BuildProblem(displayName, "cannot create a staging folder in \(parent.path) (\(Self.reason(error))); check that the folder is writable")
        }
        return staging
    }

    /// Replaces the output folder with `staging` in one atomic exchange where the system offers one
    /// (then the old set is removed); otherwise the old set is retired, the new one renamed in, and
    /// a kill between the two renames is undone by the next build.
    public func swap(in staging: URL) throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: url.path), AtomicExchange.exchange(staging.path, url.path) {
            try? fileManager.removeItem(at: staging)
            return
        }
        let retired = parent.appendingPathComponent(retiredPrefix + UUID().uuidString)
        do {
            if fileManager.fileExists(atPath: url.path) { try fileManager.moveItem(at: url, to: retired) }
            try fileManager.moveItem(at: staging, to: url)
        } catch {
            if !fileManager.fileExists(atPath: url.path) { try? fileManager.moveItem(at: retired, to: url) }
            try? fileManager.removeItem(at: staging)
            throw BuildProblem(displayName, "cannot replace the folder (\(Self.reason(error))); check that it is writable")
        }
        try? fileManager.removeItem(at: retired)
    }

    /// Removes a staging folder after a failed build.
    public func discard(_ staging: URL) { try? FileManager.default.removeItem(at: staging) }

    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code))).lowercasedFirst
        }
        return nsError.localizedDescription.lowercasedFirst
    }
}
