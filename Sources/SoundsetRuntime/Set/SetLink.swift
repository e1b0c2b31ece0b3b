import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A symbolic link where a built set holds its manifest, its `Sounds` folder or a clip file. A link
/// is not the set: a commit or an app bundle (an Xcode folder reference) carries the link, which
/// points nowhere on another machine or phone, not the file. `soundset check` refuses a set with
/// one, the build replaces it with the file, and announce, plan, render and serve refuse to read it.
public struct SetLink: Sendable, Equatable {
    /// Where in the set the link is, as a path inside the set's folder (`Sounds/0.caf`).
    public var path: String
    /// What the link points to, as the link says it (`readlink`), printable.
    public var target: String
    /// What a commit would carry instead: `the manifest`, `the sounds` or `the sound`.
    public var carried: String
    /// The file's name in `Sounds` as it is on disk, for a clip file's link; else the manifest's or
    /// the folder's name.
    public var name: String

    /// Whether it is a file in the `Sounds` folder (not the manifest or the folder itself).
    public var isInSounds: Bool { path.hasPrefix(SoundSetLayout.soundsName + "/") }

    /// `is a link to <target>: a commit or an app bundle carries the link, not the sound`: what is
    /// wrong, said after the link's path.
    public var problem: String { "is a link to \(target): a commit or an app bundle carries the link, not \(carried)" }

    /// The links in the set in `folder`: its manifest, its `Sounds` folder, and each file in
    /// `Sounds` (when the folder itself is not a link), in that order, files by name. The folder
    /// itself may be a link (the user chose it); nothing is followed, read or opened.
    public static func links(in folder: URL) -> [SetLink] {
        var links: [SetLink] = []
        let manifest = folder.appendingPathComponent(SoundSetLayout.manifestName)
        if let target = linkTarget(manifest.path) {
            links.append(SetLink(path: SoundSetLayout.manifestName, target: target, carried: "the manifest", name: SoundSetLayout.manifestName))
        }
        let sounds = folder.appendingPathComponent(SoundSetLayout.soundsName)
        if let target = linkTarget(sounds.path) {
            links.append(SetLink(path: SoundSetLayout.soundsName, target: target, carried: "the sounds", name: SoundSetLayout.soundsName))
            return links
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sounds.path)) ?? []
        for name in names.sorted() {
            if let target = linkTarget(sounds.path + "/" + name) {
                links.append(
                    SetLink(path: "\(SoundSetLayout.soundsName)/\(ClipNameRules.printable(name))", target: target, carried: "the sound", name: name))
            }
        }
        return links
    }

    /// Why the set in `folder` (named `display` in messages) is not read, or nil: its first link,
    /// as `Output/Sounds/0.caf is a link to …: a commit or an app bundle carries the link, not the
    /// sound`. The caller adds the fix (the build replaces the links).
    public static func refusal(in folder: URL, display: String) -> String? {
        links(in: folder).first.map { "\(display)/\($0.path) \($0.problem)" }
    }

    /// Whether `url` names a symbolic link (not followed).
    public static func isLink(_ url: URL) -> Bool { isLink(path: url.path) }

    static func isLink(path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// What the symbolic link at `path` points to, printable, or nil when `path` is not a link.
    static func linkTarget(_ path: String) -> String? {
        guard isLink(path: path) else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "(a target that cannot be read)" }
        let bytes = buffer.prefix(count).map { UInt8(bitPattern: $0) }
        return ClipNameRules.printable(String(decoding: bytes, as: UTF8.self))
    }
}
