import Foundation

/// A sound set installed in the App Group's `Library/Sounds`, where iOS finds a notification sound
/// by name: every clip under a name that begins with the set's id, so a file left by another set
/// can never shadow it.
public struct InstalledSet: Sendable {
    /// The set's id (`SoundSet.id`).
    public let id: String
    /// The set's manifest with every clip's `file` and `copy` renamed to its installed name: plans,
    /// schedules and composed files made with it name the installed files.
    public let manifest: Manifest
    /// The folder the installed files are in (the group's `Library/Sounds`).
    public let soundsFolder: URL
}

/// Why a set could not be installed.
public enum InstallError: Error, Equatable, CustomStringConvertible {
    /// A clip file of the app's set is missing or unreadable.
    case source(file: String, reason: String)
    /// A clip file of the app's set is not the one its manifest describes.
    case stale(clip: String, file: String)
    /// The group folder cannot be written.
    case group(reason: String)

    public var description: String {
        switch self {
        case .source(let file, let reason): "\(file): \(reason) (ship the build's whole Output folder in the app)"
        case .stale(let clip, let file): "\(file): clip '\(clip)' differs from the manifest's sha256 (ship the build's whole Output folder in the app)"
        case .group(let reason): "cannot install the sound set: \(reason)"
        }
    }
}

/// Copies a set's clips into the group's `Library/Sounds`: at the app's launch, and from the
/// extension when the set is missing there.
public enum SoundSetInstaller {
    /// Installs `set` into `group` under the group's lock, then removes the files of earlier sets
    /// that no pending announcement uses. When the set is already installed this costs a stat per
    /// file.
    /// - Parameter now: the time on the announcer's clock, to tell which announcements still play.
    /// - Throws: `InstallError`.
    @discardableResult
    public static func install(_ set: SoundSet, into group: GroupFolder, now: Double = Date().timeIntervalSince1970) throws(InstallError) -> InstalledSet {
        do { try group.prepare() } catch { throw .group(reason: error.reason) }
        let result: Result<InstalledSet, InstallError>
        do {
            result = try LockFile.withLock(group.lockFile) {
                Result { () throws(InstallError) -> InstalledSet in
                    group.removeLeftovers()
                    let installed = try installHoldingLock(set, into: group)
                    let queue = AnnouncementQueue.load(group, at: now, horizon: .infinity).queue
                    removeSets(in: group, keeping: queue.setsInUse(at: now).union([installed.id]))
                    return installed
                }
            }
        } catch {
            throw .group(reason: error.reason)
        }
        return try result.get()
    }

    /// `install` for a caller that holds the group's lock.
    static func installHoldingLock(_ set: SoundSet, into group: GroupFolder) throws(InstallError) -> InstalledSet {
        let renamed = renamedManifest(set)
        let installed = InstalledSet(id: set.id, manifest: renamed, soundsFolder: group.sounds)
        if let record = SetRecord.load(group.setRecord(set.id)), record.matches(renamed, in: group.sounds) { return installed }

        do { try group.prepare() } catch { throw .group(reason: error.reason) }
        var sizes: [String: Int] = [:]
        do {
            for (original, clip) in zip(set.manifest.clips, renamed.clips) {
                for (name, size) in try copy(original, as: clip, of: set, into: group) { sizes[name] = size }
            }
            try SetRecord(files: sizes).save(group.setRecord(set.id), id: set.id)
        } catch {
            // A set half copied is of no use, and takes space a full disk needs.
            for name in sizes.keys { GroupFolder.removeFile(name, in: group.sounds) }
            throw error
        }
        return installed
    }

    /// Copies one clip of the app's set (checked against its sha256) to its installed name, and its copy.
    /// - Returns: the names written and their sizes.
    private static func copy(_ original: Manifest.Clip, as clip: Manifest.Clip, of set: SoundSet, into group: GroupFolder) throws(InstallError)
        -> [(String, Int)]
    {
        let source = "\(SoundSetLayout.soundsName)/\(original.file)"
        let data: Data
        do { data = try RegularFile.read(set.soundsFolder.appendingPathComponent(original.file), maxBytes: Composer.maxClipBytes) } catch {
            throw .source(file: source, reason: "the clip file \(error.reason)")
        }
        guard SHA256Digest.hex(data) == original.sha256 else { throw .stale(clip: original.name, file: source) }
        // The copy is the same bytes under its own name: iOS needs two names, not two sources.
        var written: [(String, Int)] = []
        for name in [clip.file] + [clip.copy].compactMap({ $0 }) {
            do { try RegularFile.replace(group.sounds.appendingPathComponent(name), with: data) } catch {
                throw .group(reason: "Library/Sounds/\(name) cannot be written (\(error.reason))")
            }
            written.append((name, data.count))
        }
        return written
    }

    /// Checks the installed files `names` of `installed` against the manifest's sha256 and copies
    /// again, from the app's set, any that is missing or differs: a file damaged after the set was
    /// installed (same size, other bytes) is mended instead of failing every push.
    /// - Throws: `InstallError` when the app's own file is missing or differs too.
    static func mend(_ names: Set<String>, of installed: InstalledSet, from set: SoundSet, into group: GroupFolder) throws(InstallError) {
        for (original, clip) in zip(set.manifest.clips, installed.manifest.clips) {
            let files = [clip.file] + [clip.copy].compactMap { $0 }
            guard files.contains(where: names.contains) else { continue }
            let intact = files.allSatisfy { name in
                (try? RegularFile.read(group.sounds.appendingPathComponent(name), maxBytes: Composer.maxClipBytes)).map(SHA256Digest.hex) == clip.sha256
            }
            if !intact { _ = try copy(original, as: clip, of: set, into: group) }
        }
    }

    /// The manifest with each file and copy under its installed name.
    static func renamedManifest(_ set: SoundSet) -> Manifest {
        var manifest = set.manifest
        for index in manifest.clips.indices {
            manifest.clips[index].file = GroupFolder.installedName(manifest.clips[index].file, set: set.id)
            manifest.clips[index].copy = manifest.clips[index].copy.map { GroupFolder.installedName($0, set: set.id) }
        }
        return manifest
    }

    /// Removes the installed files and records of every set not in `keeping`. Only regular files
    /// with the names soundset installs are touched; anything else in `Library/Sounds` is the app's.
    static func removeSets(in group: GroupFolder, keeping: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: group.sounds.path)) ?? [] {
            if let id = GroupFolder.setID(ofInstalled: name), !keeping.contains(id) { GroupFolder.removeFile(name, in: group.sounds) }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: group.setsFolder.path)) ?? [] where name.hasSuffix(".json") {
            if !keeping.contains(String(name.dropLast(5))) { GroupFolder.removeFile(name, in: group.setsFolder) }
        }
    }
}

/// What an installed set's files are: their names and sizes, written after every file was checked.
struct SetRecord: Codable, Equatable {
    var schemaVersion = 1
    var files: [String: Int]

    init(files: [String: Int]) { self.files = files }

    static func load(_ url: URL) -> SetRecord? {
        guard let data = try? RegularFile.read(url, maxBytes: 1 << 20), let record = try? JSONDecoder().decode(SetRecord.self, from: data),
            record.schemaVersion == 1
        else { return nil }
        return record
    }

    func save(_ url: URL, id: String) throws(InstallError) {
        let failure = { (reason: String) in InstallError.group(reason: "\(SoundSetLayout.stateName)/sets/\(id).json cannot be written (\(reason))") }
        guard let data = try? JSONFormatting.encode(self) else { throw failure("it cannot be encoded") }
        do { try RegularFile.replace(url, with: data) } catch { throw failure(error.reason) }
    }

    /// Whether every file of `manifest` is in `folder` with its recorded size (a stat each).
    func matches(_ manifest: Manifest, in folder: URL) -> Bool {
        let names = manifest.clips.flatMap { [$0.file] + [$0.copy].compactMap { $0 } }
        guard Set(names) == Set(files.keys) else { return false }
        return names.allSatisfy { name in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path),
                attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? Int
            else { return false }
            return size == files[name]
        }
    }
}
