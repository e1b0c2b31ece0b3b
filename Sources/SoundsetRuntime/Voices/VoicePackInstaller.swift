import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Installs voice packs into the App Group (`soundset/Voices/`, see `VoiceFolders`), so the app and
/// its extension find them; run it in the app, not the extension.
///
/// An install writes the whole version into a staging folder first (every file flushed), without
/// the group's lock; then, holding the lock for a few renames: checks the installed version again
/// (no downgrade), renames the staging folder to `<version>-<setId>`, replaces `current.json` (a
/// temporary file, `fsync`, a rename, the folder flushed), and removes what is no longer needed:
/// older versions no queued announcement uses, and what killed installs left (staging folders no
/// live install claims, version folders never switched to). A kill at any step leaves
/// `current.json` naming a whole version: the one before, or the new one.
public enum VoicePackInstaller {
    /// The steps of an install, in order: a test stops there, leaving what a kill at that moment leaves.
    package enum Step: Equatable, Sendable {
        /// The staging folder holds this many of the version's files (manifest, clips and copies).
        case wrote(Int)
        /// The staging folder is whole and flushed.
        case staged
        /// The staging folder is renamed to the version's folder; `current.json` still names the old one.
        case placed
        /// `current.json` names the new version; nothing old is removed yet.
        case switched
    }

    /// Verifies `data` (`VoicePack.open`) and installs it into `group`.
    /// - Parameter now: the time on the announcer's clock, to tell which queued announcements still
    ///   use an older version's set.
    /// - Returns: the voice installed now; the same pack again changes nothing and returns it.
    /// - Throws: `PackError`: the pack's refusal, `olderVersion`, `sameVersionOtherSet`, or `group`.
    /// - Parameters:
    ///   - expectedVoice: the voice the app asked its server for: a pack of another voice (a
    ///     signed pack replayed in answer to another request) is refused before anything is written.
    ///   - gate: closed when the process is about to be suspended (a background task's expiration
    ///     handler): the install then stops between two files, lets its claim go, and does not take
    ///     the group's lock (iOS kills a suspended process holding a lock in a shared container).
    public static func install(
        _ data: Data, into group: GroupFolder, verifier: any PackSignatureVerifier, maxBytes: Int = VoicePack.defaultMaxBytes,
        now: Double = Date().timeIntervalSince1970, expectedVoice: String? = nil, gate: SuspensionGate? = nil
    ) throws(PackError) -> InstalledVoice {
        let pack = try VoicePack.open(data, verifier: verifier, maxBytes: maxBytes)
        if let expectedVoice, pack.header.voice != expectedVoice { throw .otherVoice(expected: expectedVoice, pack: pack.header.voice) }
        return try install(pack, into: group, now: now, gate: gate)
    }

    /// Installs a pack `VoicePack.open` read.
    /// - Parameter stopAfter: a test's kill: when it returns true after a step, the install stops
    ///   there and leaves what it wrote, as a killed process would.
    package static func install(
        _ pack: VoicePack, into group: GroupFolder, now: Double, gate: SuspensionGate? = nil, stopAfter: ((Step) -> Bool)? = nil
    ) throws(PackError)
        -> InstalledVoice
    {
        let header = pack.header
        let open: OpenGroup
        let voiceFolder: FolderHandle
        do throws(GroupFailure) {
            open = try group.open()
            voiceFolder = try VoiceFolders.voice(header.voice, in: try VoiceFolders.voices(open, create: true), open, create: true)
        } catch {
            throw .group(reason: error.reason)
        }
        let name = VoiceFolders.folderName(version: header.version, setId: header.setId)
        let target = InstalledVoice(
            voice: header.voice, locale: header.locale, version: header.version, setId: header.setId,
            folder: voiceFolder.url.appendingPathComponent(name, isDirectory: true))
        // Refused, or already there, before anything is written.
        try refuseBelowTheFloor(header, in: voiceFolder)
        if let current = CurrentVoice.load(in: voiceFolder), try isInstalled(header, current: current, in: voiceFolder) {
            tidy(voiceFolder, current: name, open, now: now, gate: gate)
            return target
        }

        let staged: Staging?
        do { staged = try stage(pack, in: voiceFolder, open.protection, gate: gate, stopAfter: stopAfter) } catch { throw .group(reason: error.reason) }
        guard let staged else { return target }
        if stopAfter?(.staged) == true { return target }
        var placed = false
        defer { if !placed { removeWhole(staged.name, in: voiceFolder) } }
        let record = CurrentVoice(setId: header.setId, version: header.version, files: sizes(of: pack))
        let outcome: Result<Bool, PackError>
        do throws(GroupFailure) {
            outcome = try GroupLock.withLock(open, gate: gate) { () throws(GroupFailure) -> Result<Bool, PackError> in
                // Again under the lock: another install may have finished meanwhile.
                if let current = CurrentVoice.load(in: voiceFolder) {
                    do throws(PackError) { if try isInstalled(header, current: current, in: voiceFolder) { return .success(false) } } catch {
                        return .failure(error)
                    }
                }
                // A killed install's folder never switched to, or the current one found damaged (being
                // mended: for these milliseconds `VoiceChoice.resolve` falls back, with the reason).
                if voiceFolder.kind(of: name) != nil { removeWhole(name, in: voiceFolder) }
                try voiceFolder.rename(staged.name, to: name)
                placed = true
                if stopAfter?(.placed) == true { return .success(false) }
                let replaced = CurrentVoice.load(in: voiceFolder)?.folderName
                guard let data = try? JSONFormatting.encode(record) else { throw GroupFailure(reason: "\(VoiceFolders.currentName) cannot be encoded") }
                try open.replace(VoiceFolders.currentName, in: voiceFolder, with: data, durable: true)
                if stopAfter?(.switched) == true { return .success(false) }
                removeLeftovers(in: voiceFolder, current: name, keeping: replaced, open, now: now)
                return .success(true)
            }
        } catch {
            throw .group(reason: error.reason)
        }
        if case .failure(let refusal) = outcome { throw refusal }
        return target
    }

    /// The voices installed in `group` whose version is whole (a stat per file), sorted by name.
    public static func installed(in group: GroupFolder) -> [InstalledVoice] {
        guard let open = try? group.open(), open.state.kind(of: VoiceFolders.voicesName) != nil,
            let voices = try? VoiceFolders.voices(open, create: false), let names = voices.names()
        else { return [] }
        return names.filter(VoiceName.isValid).sorted().compactMap { name in
            guard let voiceFolder = try? VoiceFolders.voice(name, in: voices, open, create: false),
                let current = CurrentVoice.load(in: voiceFolder),
                case .success(let (installed, _)) = VoiceFolders.check(current, of: name, in: voiceFolder, thorough: false)
            else { return nil }
            return installed
        }
    }

    /// Whether `header`'s version is the one installed and whole (every file hashed).
    /// - Throws: `olderVersion` or `sameVersionOtherSet` against the installed version.
    /// No downgrade even when `current.json` is lost or unreadable: the newest version folder left
    /// is the floor then.
    private static func refuseBelowTheFloor(_ header: VoicePack.Header, in voiceFolder: FolderHandle) throws(PackError) {
        guard CurrentVoice.load(in: voiceFolder) == nil, let names = voiceFolder.names() else { return }
        guard let newest = names.compactMap(VoiceFolders.version(ofVersionFolder:)).max(), header.version < newest else { return }
        throw .olderVersion(voice: header.voice, version: header.version, installed: newest)
    }

    private static func isInstalled(_ header: VoicePack.Header, current: CurrentVoice, in voiceFolder: FolderHandle) throws(PackError) -> Bool {
        if header.version < current.version { throw .olderVersion(voice: header.voice, version: header.version, installed: current.version) }
        guard header.version == current.version else { return false }
        guard header.setId == current.setId else {
            throw .sameVersionOtherSet(voice: header.voice, version: header.version, installed: current.setId, pack: header.setId)
        }
        // Whole, to the last clip's sha256: the same pack again mends a clip changed in place.
        if case .success = VoiceFolders.check(current, of: header.voice, in: voiceFolder, thorough: true) { return true }
        return false
    }

    /// A staging folder, claimed while this lives (`FolderHandle.claim`: a `flock`'d file beside it,
    /// so that another install tells it from a killed one's).
    private struct Staging {
        let name: String
        let claim: FileClaim
    }

    /// Writes the version's files into a new staging folder, each flushed, then the folders.
    /// - Returns: nil when `stopAfter` stopped it.
    private static func stage(
        _ pack: VoicePack, in voiceFolder: FolderHandle, _ protection: GroupProtection, gate: SuspensionGate?, stopAfter: ((Step) -> Bool)?
    ) throws(GroupFailure) -> Staging? {
        let name = "\(VoiceFolders.stagingPrefix)\(UUID().uuidString)"
        let staging = Staging(name: name, claim: try voiceFolder.claim(name, protection: protection))
        var written = 0
        do throws(GroupFailure) {
            let folder = try voiceFolder.folder(name, display: "\(voiceFolder.display)/\(name)", create: true, protection: protection)
            let sounds = try folder.folder(SoundSetLayout.soundsName, display: "\(folder.display)/Sounds", create: true, protection: protection)
            try write(pack.contents[0], as: SoundSetLayout.manifestName, in: folder, protection)
            written += 1
            if stopAfter?(.wrote(written)) == true { return nil }
            for (clip, data) in zip(pack.manifest.clips, pack.contents.dropFirst()) {
                for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                    if gate?.isClosed == true { throw GroupFailure(reason: "the app is being suspended: install the pack again when it runs") }
                    try write(data, as: file, in: sounds, protection)
                    written += 1
                    if stopAfter?(.wrote(written)) == true { return nil }
                }
            }
            sounds.sync()
            folder.sync()
            voiceFolder.sync()
            return staging
        } catch {
            removeWhole(name, in: voiceFolder)
            throw error
        }
    }

    /// Writes `data` as `name` in `folder`, flushed, by a temporary file and a rename.
    private static func write(_ data: Data, as name: String, in folder: FolderHandle, _ protection: GroupProtection) throws(GroupFailure) {
        let temporary = try folder.writeTemporary(for: name, data, protection: protection, durable: true)
        do { try folder.rename(temporary, to: name) } catch {
            folder.remove(temporary)
            throw error
        }
    }

    /// Each file's size in the installed folder: the manifest, and every clip's file and copy.
    private static func sizes(of pack: VoicePack) -> [String: Int] {
        var sizes = [SoundSetLayout.manifestName: pack.contents[0].count]
        for (clip, data) in zip(pack.manifest.clips, pack.contents.dropFirst()) {
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) { sizes[VoicePack.packedName(file)] = data.count }
        }
        return sizes
    }

    /// Under the lock, after the switch: removes from the voice's folder the staging folders no live
    /// install claims (and their claims' files), `current.json`'s temporary files, and the version
    /// folders but `current` whose set no queued announcement uses (all of them kept when the queue
    /// cannot be read as it is).
    /// What an install killed after its switch left (older versions, its staging claim), removed
    /// when the same pack is installed again: the lock is taken only when there is more than the
    /// current version, the one it replaced and its pointer.
    private static func tidy(_ voiceFolder: FolderHandle, current: String, _ open: OpenGroup, now: Double, gate: SuspensionGate?) {
        guard let names = voiceFolder.names() else { return }
        // The version replaced by the switch, when a kill came after it: the newest below the current.
        let currentVersion = VoiceFolders.version(ofVersionFolder: current) ?? 0
        let keeping = names.filter { (VoiceFolders.version(ofVersionFolder: $0) ?? .max) < currentVersion }
            .max { (VoiceFolders.version(ofVersionFolder: $0) ?? 0) < (VoiceFolders.version(ofVersionFolder: $1) ?? 0) }
        guard names.contains(where: { $0 != current && $0 != keeping && $0 != VoiceFolders.currentName }) else { return }
        _ = try? GroupLock.withLock(open, gate: gate) { () throws(GroupFailure) in
            removeLeftovers(in: voiceFolder, current: current, keeping: keeping, open, now: now)
        }
    }

    /// - Parameter keeping: the version just replaced, which stays until the next install: an
    ///   extension may have resolved it a moment before the switch and not yet queued the
    ///   announcement whose clips it is copying.
    private static func removeLeftovers(in voiceFolder: FolderHandle, current: String, keeping: String?, _ open: OpenGroup, now: Double) {
        guard let names = voiceFolder.names() else { return }
        let staging = Set(names.filter { $0.hasPrefix(VoiceFolders.stagingPrefix) })
        let claimed = voiceFolder.claimed(among: staging.union(names.compactMap(RegularFile.replacedName(ofTemporary:))))
        let queue = try? AnnouncementQueue.load(open, at: now)
        let inUse = queue.flatMap { $0.note == nil ? $0.queue.setsInUse(at: now) : nil }
        for name in names where name != current && name != keeping {
            if staging.contains(name), !claimed.contains(name) {
                removeWhole(name, in: voiceFolder)
            } else if let target = RegularFile.replacedName(ofTemporary: name) {
                if target == VoiceFolders.currentName || (target.hasPrefix(VoiceFolders.stagingPrefix) && !claimed.contains(target)) {
                    voiceFolder.remove(name)
                }
            } else if let setId = VoiceFolders.setId(ofVersionFolder: name), let inUse, !inUse.contains(setId) {
                removeWhole(name, in: voiceFolder)
            }
        }
    }

    /// Deletes `name` in `folder` and all in it, never following a link.
    private static func removeWhole(_ name: String, in folder: FolderHandle) {
        var budget = 1 << 20
        _ = folder.removeWhole(name, budget: &budget)
    }
}
