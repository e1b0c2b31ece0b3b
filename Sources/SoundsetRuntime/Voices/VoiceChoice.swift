import Foundation

/// The merchant's choice of voice, kept in the App Group (`soundset/voice.json`, replaced in one
/// rename, flushed) so that the extension reads what the app chose, and the set an announcement is
/// made with.
///
/// An announcement never mixes two voices: the extension resolves the voice once per push and makes
/// the `Announcer` with that one `SoundSet`; a push decided before a switch keeps the set it was
/// decided with (its queued entry names the set, whose installed clips stay while it is queued),
/// and only pushes decided after the switch use the new voice.
public enum VoiceChoice {
    static let fileName = "voice.json"

    /// Why a choice could not be kept.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The name is not a voice's name (`VoiceName`).
        case badName(String)
        /// The group's folder cannot be written.
        case group(reason: String)

        public var description: String {
            switch self {
            case .badName(let name):
                "'\(ClipNameRules.printable(name))' is not a voice name (1 to 64 letters, digits, '_' and '-', not starting with '-'): choose an installed voice"
            case .group(let reason): "cannot keep the chosen voice: \(reason)"
            }
        }
    }

    /// `soundset/voice.json`.
    struct Stored: Codable, Equatable {
        var schemaVersion = 1
        var voice: String
    }

    /// Keeps `voice` as the merchant's choice; nil goes back to the bundled voice. The voice need
    /// not be installed yet (`resolve` falls back, and says why, until it is).
    /// - Throws: `Failure`.
    public static func choose(_ voice: String?, in group: GroupFolder) throws(Failure) {
        if let voice, !VoiceName.isValid(voice) { throw .badName(voice) }
        do throws(GroupFailure) {
            let open = try group.open()
            guard let voice else {
                open.state.remove(fileName)
                open.state.sync()
                return
            }
            guard let data = try? JSONFormatting.encode(Stored(voice: voice)) else { throw GroupFailure(reason: "\(fileName) cannot be encoded") }
            try open.replace(fileName, in: open.state, with: data, durable: true)
        } catch {
            throw .group(reason: error.reason)
        }
    }

    /// The voice the merchant chose, or nil for the bundled one (or when the choice cannot be read).
    public static func chosen(in group: GroupFolder) -> String? { (try? stored(in: group).get()) ?? nil }

    /// The choice as stored: nil when none was made, or why it cannot be read.
    static func stored(in group: GroupFolder) -> Result<String?, VoiceProblem> {
        let data: Data
        do {
            data = try group.open().state.read(fileName, maxBytes: 4096)
        } catch let problem as FileProblem where problem == .missing {
            return .success(nil)
        } catch {
            return .failure(VoiceProblem(reason: "\(SoundSetLayout.stateName)/\(fileName) cannot be read"))
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data), stored.schemaVersion == 1, VoiceName.isValid(stored.voice) else {
            return .failure(VoiceProblem(reason: "\(SoundSetLayout.stateName)/\(fileName) is not a voice choice"))
        }
        return .success(stored.voice)
    }

    /// The set to announce with: the chosen voice (`bundledVoice` when none is chosen) when it is
    /// installed and whole, else the bundled set with the reason in `fallback`. A pack installed
    /// under the bundled voice's own name replaces the bundled set (an update over the air); the
    /// bundled voice itself, not installed, is no fallback.
    ///
    /// The check is cheap by default, for the extension's every push: `current.json` and the
    /// version's folder, its manifest read and valid and of the recorded set id, and every clip's
    /// file and copy a regular file of the size installed (a stat each). A clip changed in place at
    /// the same size passes it; the announcer still checks each clip's sha256 when it copies it
    /// into `Library/Sounds` (`SoundSetInstaller`), and falls back there. `thorough` also hashes every
    /// file here (the app may, at launch).
    /// - Parameter bundledVersion: the version of the pack the bundled set was made as (the
    ///   `--pack-version` the app's release was packed with): an installed pack of the bundled
    ///   voice's name plays only when newer, so a stale pack never shadows a newer app's set. Nil:
    ///   any installed pack of that name plays.
    public static func resolve(
        in group: GroupFolder, bundled: SoundSet, bundledVoice: String, bundledVersion: Int? = nil, thorough: Bool = false
    ) -> (set: SoundSet, voice: String, fallback: String?) {
        let wanted: String
        switch stored(in: group) {
        case .success(let voice): wanted = voice ?? bundledVoice
        case .failure(let problem): return (bundled, bundledVoice, "\(problem.reason): the bundled voice '\(bundledVoice)' plays")
        }
        switch VoiceFolders.load(wanted, in: group, thorough: thorough) {
        case .success(let (installed, _)) where wanted == bundledVoice && installed.version <= (bundledVersion ?? 0):
            return (bundled, bundledVoice, nil)
        case .success(let (_, set)): return (set, wanted, nil)
        case .failure(let problem) where problem.notInstalled && wanted == bundledVoice: return (bundled, bundledVoice, nil)
        case .failure(let problem):
            return (bundled, bundledVoice, "voice '\(ClipNameRules.printable(wanted))' \(problem.reason): the bundled voice '\(bundledVoice)' plays")
        }
    }
}
