import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
///
/// The clips are copied and checked under temporary names without the group's lock; the lock is
/// taken only to rename them into place, record the set, and remove the files of earlier sets that
/// no queued announcement uses: a few milliseconds, so a process suspended meanwhile is not killed
/// for holding it.
public enum SoundSetInstaller {
    /// Installs `set` into `group`, removes the files of earlier sets that no queued announcement
    /// uses, and gives every file and folder of soundset's in the group its protection class again.
    /// When the set is already installed this costs a stat per file.
    /// - Parameters:
    ///   - now: the time on the announcer's clock, to tell which announcements still play.
    ///   - gate: closed when the process is about to be suspended (a background task's expiration
    ///     handler): the lock is then not taken, and the install fails with that reason.
    /// - Throws: `InstallError`.
    @discardableResult
    public static func install(
        _ set: SoundSet, into group: GroupFolder, now: Double = Date().timeIntervalSince1970, gate: SuspensionGate? = nil
    ) throws(InstallError) -> InstalledSet {
        let open: OpenGroup
        do { open = try group.open() } catch { throw .group(reason: error.reason) }
        let installed = try ensure(set, in: open, gate: gate, now: now).installed
        // The first open in this process gave the class again already (`GroupFolder.open`).
        if !open.renewedProtection { open.protectAll() }
        return installed
    }

    /// The set installed in `open`: checked against its record (a stat per file), and otherwise
    /// copied under temporary names, then renamed into place under the lock.
    /// - Parameter now: when given, the files of earlier sets that no queued announcement uses are
    ///   removed too, under the same lock.
    /// - Returns: the installed set, and notes of what was moved out of the way.
    static func ensure(
        _ set: SoundSet, in open: OpenGroup, gate: SuspensionGate?, wait: Double = GroupLock.defaultWait, now: Double? = nil
    ) throws(InstallError) -> (installed: InstalledSet, notes: [String]) {
        let renamed = renamedManifest(set)
        let installed = InstalledSet(id: set.id, manifest: renamed, soundsFolder: open.sounds.url)
        if let record = SetRecord.load(set.id, in: open), record.matches(renamed, in: open.sounds) {
            if let now {
                let names = open.sounds.names() ?? []
                _ = try? GroupLock.withLock(open, gate: gate, wait: wait) { () throws(GroupFailure) in
                    removeUnusedSets(in: open, names: names, keeping: set.id, at: now)
                }
            }
            return (installed, [])
        }

        var temporaries: [(temporary: String, name: String)] = []
        do throws(InstallError) {
            var sizes: [String: Int] = [:]
            for (original, clip) in zip(set.manifest.clips, renamed.clips) {
                let data = try source(original, of: set)
                for name in [clip.file] + [clip.copy].compactMap({ $0 }) {
                    do { temporaries.append((try open.sounds.writeTemporary(for: name, data, protection: open.protection), name)) } catch {
                        throw InstallError.group(reason: error.reason)
                    }
                    sizes[name] = data.count
                }
            }
            guard let record = try? JSONFormatting.encode(SetRecord(files: sizes)) else {
                throw InstallError.group(reason: "\(SoundSetLayout.stateName)/sets/\(set.id).json cannot be encoded")
            }
            let names = now == nil ? [] : (open.sounds.names() ?? [])
            let notes: [String]
            do throws(GroupFailure) {
                notes = try GroupLock.withLock(open, gate: gate, wait: wait) { () throws(GroupFailure) -> [String] in
                    var notes = open.takeNotes()
                    for (temporary, name) in temporaries {
                        if let note = try open.clearWay(for: name, in: open.sounds) { notes.append(note) }
                        try open.sounds.rename(temporary, to: name)
                    }
                    if let note = try open.replace("\(set.id).json", in: open.sets, with: record) { notes.append(note) }
                    if let now { removeUnusedSets(in: open, names: names, keeping: set.id, at: now) }
                    return notes
                }
            } catch {
                throw InstallError.group(reason: error.reason)
            }
            return (installed, notes)
        } catch {
            // A set half copied is of no use, and takes space a full disk needs.
            for (temporary, _) in temporaries { open.sounds.remove(temporary) }
            throw error
        }
    }

    /// The bytes of a clip of the app's set, checked against its sha256.
    private static func source(_ original: Manifest.Clip, of set: SoundSet) throws(InstallError) -> Data {
        let source = "\(SoundSetLayout.soundsName)/\(original.file)"
        let data: Data
        do { data = try RegularFile.read(set.soundsFolder.appendingPathComponent(original.file), maxBytes: Composer.maxClipBytes) } catch {
            throw .source(file: source, reason: "the clip file \(error.reason)")
        }
        guard SHA256Digest.hex(data) == original.sha256 else { throw .stale(clip: original.name, file: source) }
        return data
    }

    /// Checks the installed files `names` of `installed` against the manifest's sha256 and copies
    /// again, from the app's set, any that is missing or differs: a file damaged after the set was
    /// installed (same size, other bytes) is mended instead of failing every push. What stands in a
    /// file's place is moved aside. The renames need no lock: the bytes are the same.
    /// - Throws: `InstallError` when the app's own file is missing or differs too.
    static func mend(_ names: Set<String>, of installed: InstalledSet, from set: SoundSet, in open: OpenGroup) throws(InstallError) {
        for (original, clip) in zip(set.manifest.clips, installed.manifest.clips) {
            let files = [clip.file] + [clip.copy].compactMap { $0 }
            guard files.contains(where: names.contains) else { continue }
            let intact = files.allSatisfy { name in
                (try? open.sounds.read(name, maxBytes: Composer.maxClipBytes)).map(SHA256Digest.hex) == clip.sha256
            }
            guard !intact else { continue }
            let data = try source(original, of: set)
            for name in files {
                do { try open.replace(name, in: open.sounds, with: data) } catch { throw .group(reason: error.reason) }
            }
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

    /// Under the lock: removes the files (of `names`, a listing of `Library/Sounds`) and records of
    /// every set but `keeping` that no queued announcement uses, when the queue can be read as it is.
    private static func removeUnusedSets(in open: OpenGroup, names: [String], keeping: String, at now: Double) {
        guard let (queue, note) = try? AnnouncementQueue.load(open, at: now), note == nil else { return }
        removeSets(in: open, names: names, keeping: queue.setsInUse(at: now).union([keeping]))
    }

    /// Removes the installed files (of `names`, a listing of `Library/Sounds`) and records of every
    /// set not in `keeping`. Only regular files with the names soundset installs are touched;
    /// anything else in `Library/Sounds` is the app's. Called holding the lock.
    static func removeSets(in open: OpenGroup, names: [String], keeping: Set<String>) {
        for name in names {
            if let id = GroupFolder.setID(ofInstalled: name), !keeping.contains(id) { open.sounds.remove(name) }
        }
        for name in open.sets.names() ?? [] where name.hasSuffix(".json") {
            if !keeping.contains(String(name.dropLast(5))) { open.sets.remove(name) }
        }
    }
}

/// What an installed set's files are: their names and sizes, written after every file was checked.
struct SetRecord: Codable, Equatable {
    var schemaVersion = 1
    var files: [String: Int]

    init(files: [String: Int]) { self.files = files }

    static func load(_ id: String, in open: OpenGroup) -> SetRecord? {
        guard let data = try? open.sets.read("\(id).json", maxBytes: 1 << 20), let record = try? JSONDecoder().decode(SetRecord.self, from: data),
            record.schemaVersion == 1
        else { return nil }
        return record
    }

    /// Whether every file of `manifest` is in `folder` with its recorded size (a stat each).
    func matches(_ manifest: Manifest, in folder: FolderHandle) -> Bool {
        let names = manifest.clips.flatMap { [$0.file] + [$0.copy].compactMap { $0 } }
        guard Set(names) == Set(files.keys) else { return false }
        return names.allSatisfy { name in
            guard let info = folder.info(name), info.st_mode & S_IFMT == S_IFREG else { return false }
            return Int(info.st_size) == files[name]
        }
    }
}
