import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A voice installed from a pack in the App Group: the version `current.json` names.
public struct InstalledVoice: Sendable, Equatable {
    public let voice: String
    public let locale: String
    public let version: Int
    public let setId: String
    /// A sound set's folder (`manifest.json` and `Sounds/`, every clip's file and copy):
    /// `soundset/Voices/<voice>/<version>-<setId>/`. `SoundSet(folder:)` loads it.
    public let folder: URL

    public init(voice: String, locale: String, version: Int, setId: String, folder: URL) {
        self.voice = voice
        self.locale = locale
        self.version = version
        self.setId = setId
        self.folder = folder
    }
}

/// `soundset/Voices/<voice>/current.json`: the version of the voice in use, and the size of each of
/// its files (for a check by a stat per file). Written under the group's lock, by a temporary file,
/// `fsync` and a rename, only once the version's folder is whole and in place.
struct CurrentVoice: Codable, Equatable {
    var setId: String
    var version: Int
    /// Each file's size, by its name in the version's folder (`manifest.json`, `Sounds/<file>`, the
    /// copies too).
    var files: [String: Int]?

    /// The version's folder's name: `<version>-<setId>`.
    var folderName: String { VoiceFolders.folderName(version: version, setId: setId) }

    static func load(in voiceFolder: FolderHandle) -> CurrentVoice? {
        guard let data = try? voiceFolder.read(VoiceFolders.currentName, maxBytes: 1 << 20),
            let record = try? JSONDecoder().decode(CurrentVoice.self, from: data), record.version >= 1, VoiceFolders.isSetId(record.setId)
        else { return nil }
        return record
    }
}

/// Why an installed voice cannot be used, in words (`is not installed`, `is damaged: ...`).
struct VoiceProblem: Error, Equatable {
    var reason: String
    /// The voice has never been installed (no folder, or no `current.json`), as against damaged.
    var notInstalled = false

    static let missing = VoiceProblem(reason: "is not installed", notInstalled: true)
    static func damaged(_ what: String) -> VoiceProblem { VoiceProblem(reason: "is damaged (\(what)): install its pack again") }
}

/// The voices' folders in the group's state folder:
///
/// ```
/// soundset/Voices/<voice>/current.json                 {"files":{...},"setId":..,"version":..}
/// soundset/Voices/<voice>/<version>-<setId>/           manifest.json, Sounds/ (files and copies)
/// soundset/Voices/<voice>/.staging-<UUID>/             an install under way (claimed by a flock'd
///                                                      temporary file beside it while it is written)
/// ```
enum VoiceFolders {
    static let voicesName = "Voices"
    static let currentName = "current.json"
    static let stagingPrefix = ".staging-"
    static let shownVoices = "\(SoundSetLayout.stateName)/\(voicesName)"

    static func folderName(version: Int, setId: String) -> String { "\(version)-\(setId)" }

    /// Whether `text` can be a set's id (10 lower-case hex digits, `SoundSet.id`).
    static func isSetId(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The set id in a version folder's name (`<version>-<setId>`), or nil when it is not one.
    static func setId(ofVersionFolder name: String) -> String? {
        let parts = name.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, let version = Int(parts[0]), version >= 1, String(version) == parts[0], isSetId(String(parts[1])) else { return nil }
        return String(parts[1])
    }

    /// The version in a version folder's name (`<version>-<setId>`), or nil when it is not one.
    static func version(ofVersionFolder name: String) -> Int? {
        guard setId(ofVersionFolder: name) != nil else { return nil }
        return Int(name.split(separator: "-", maxSplits: 1)[0])
    }

    /// `soundset/Voices`, opened (created when `create`).
    static func voices(_ open: OpenGroup, create: Bool) throws(GroupFailure) -> FolderHandle {
        try open.state.folder(voicesName, display: shownVoices, create: create, protection: open.protection)
    }

    /// `soundset/Voices/<voice>`, opened (created when `create`); `voice` is a valid name.
    static func voice(_ voice: String, in voices: FolderHandle, _ open: OpenGroup, create: Bool) throws(GroupFailure) -> FolderHandle {
        try voices.folder(voice, display: "\(shownVoices)/\(voice)", create: create, protection: open.protection)
    }

    /// The installed voice `voice` and its set, checked: its `current.json`, its folder, its manifest
    /// (read and valid, of the set id recorded) and every clip's file and copy, a regular file of the
    /// recorded size (a stat each); with `thorough`, each one's sha256 against the manifest too.
    static func load(_ voice: String, in group: GroupFolder, thorough: Bool) -> Result<(InstalledVoice, SoundSet), VoiceProblem> {
        guard VoiceName.isValid(voice) else { return .failure(VoiceProblem(reason: "is not a voice name")) }
        let voiceFolder: FolderHandle
        do throws(GroupFailure) {
            let open = try group.open()
            guard open.state.kind(of: voicesName) != nil else { return .failure(.missing) }
            let voices = try voices(open, create: false)
            guard voices.kind(of: voice) != nil else { return .failure(.missing) }
            voiceFolder = try Self.voice(voice, in: voices, open, create: false)
        } catch {
            return .failure(VoiceProblem(reason: "cannot be read (\(error.reason))"))
        }
        guard voiceFolder.kind(of: currentName) != nil else { return .failure(.missing) }
        guard let current = CurrentVoice.load(in: voiceFolder) else { return .failure(.damaged("\(currentName) cannot be read")) }
        return check(current, of: voice, in: voiceFolder, thorough: thorough)
    }

    /// `load`'s checks of the version `current` names.
    static func check(_ current: CurrentVoice, of voice: String, in voiceFolder: FolderHandle, thorough: Bool) -> Result<
        (InstalledVoice, SoundSet), VoiceProblem
    > {
        let name = current.folderName
        guard let folder = try? voiceFolder.folder(name, display: "\(voiceFolder.display)/\(name)", create: false, protection: GroupProtection(level: .none)),
            let sounds = try? folder.folder(
                SoundSetLayout.soundsName, display: "\(folder.display)/Sounds", create: false, protection: GroupProtection(level: .none))
        else { return .failure(.damaged("its folder \(name) is missing")) }
        let manifestData: Data
        do { manifestData = try folder.read(SoundSetLayout.manifestName, maxBytes: Manifest.maxBytes) } catch {
            return .failure(.damaged("\(SoundSetLayout.manifestName) \(error.reason)"))
        }
        let manifest: Manifest
        do { manifest = try Manifest.decode(manifestData) } catch { return .failure(.damaged(error.description)) }
        guard SoundSet.id(of: manifest) == current.setId else { return .failure(.damaged("its manifest is not set \(current.setId)")) }
        if let size = current.files?[SoundSetLayout.manifestName], size != manifestData.count {
            return .failure(.damaged("\(SoundSetLayout.manifestName) is not the size installed"))
        }
        for clip in manifest.clips {
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                if let problem = problem(of: file, clip: clip, in: sounds, size: current.files?[VoicePack.packedName(file)], thorough: thorough) {
                    return .failure(.damaged(problem))
                }
            }
        }
        let installed = InstalledVoice(
            voice: voice, locale: manifest.locale.rawValue, version: current.version, setId: current.setId, folder: folder.url)
        return .success((installed, SoundSet(manifest: manifest, folder: folder.url)))
    }

    /// What is wrong with the clip's file `file` in `sounds`, or nil.
    private static func problem(of file: String, clip: Manifest.Clip, in sounds: FolderHandle, size: Int?, thorough: Bool) -> String? {
        let shown = VoicePack.packedName(file)
        guard let info = sounds.info(file), info.st_mode & S_IFMT == S_IFREG else { return "\(shown) is missing" }
        if let size, Int(info.st_size) != size { return "\(shown) is not the size installed" }
        guard thorough else { return nil }
        guard let data = try? sounds.read(file, maxBytes: Composer.maxClipBytes), SHA256Digest.hex(data) == clip.sha256 else {
            return "\(shown) differs from the manifest's sha256"
        }
        return nil
    }
}
