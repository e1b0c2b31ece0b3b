import Foundation
import SoundsetRuntime

/// Several voices in one assets folder, and their sets in one output folder: the one place that
/// says where a voice's takes and its built set are, which voices there are and which is the
/// default.
///
/// One voice (the assets folder holds takes and `soundset.json`): the output folder is the set.
/// Several voices (the assets folder holds `voices/<voice>/`, each a complete assets folder, and
/// at most a `soundset.json` of `{"defaultVoice": "<voice>", "sameLevel": <LUFS>}`): the output folder holds
/// `voices/<voice>/`, each a set as a one-voice build writes it, and `voices.json`, the index.
package enum VoiceFolders {
    /// `voices`: the folder of voices, in the assets folder and in the output folder.
    package static let folderName = "voices"
    /// `voices.json`: the output folder's index of its voices.
    package static let indexName = "voices.json"
    /// `defaultVoice`: a key of the assets folder's `soundset.json` beside `voices/`.
    package static let defaultKey = "defaultVoice"
    /// `sameLevel`: the other key of that file, the one level (LUFS) every voice is brought to.
    package static let sameLevelKey = "sameLevel"
    /// The levels `sameLevel` may name, LUFS: those of a voice's `loudness.target`.
    package static let sameLevelRange: ClosedRange<Double> = -40...(-6)
    /// The assets folder's configuration file (the build's `ConfigurationLoader.fileName`).
    static let configurationName = "soundset.json"
    /// The longest voice name, in characters.
    package static let maxNameLength = 64

    /// Why `name` cannot name a voice (1-64 characters of A-Z, a-z, 0-9, `_` and `-`, not starting
    /// with `-`), or nil when it can.
    /// The rule is the runtime's (`VoiceName`: a pack's voice is named as a build's); this says
    /// which part of it a name breaks.
    package static func nameProblem(_ name: String) -> String? {
        if VoiceName.isValid(name) { return nil }
        if name.isEmpty { return "a voice's name cannot be empty" }
        if name.count > maxNameLength { return "a voice's name is at most \(maxNameLength) characters, not \(name.count)" }
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
        if !allowed { return "a voice's name holds only the letters A-Z and a-z, digits, '_' and '-'" }
        if name.hasPrefix("-") { return "a voice's name cannot start with '-'" }
        return "a voice's name holds only the letters A-Z and a-z, digits, '_' and '-'"
    }

    /// Whether the assets folder holds several voices: a `voices` folder in it.
    package static func isSeveral(assets: URL) -> Bool { isFolder(assets.appendingPathComponent(folderName)) }

    /// Whether the output folder holds several voices' sets: `voices.json` or `voices/` in it.
    package static func isSeveral(output: URL) -> Bool {
        isFolder(output.appendingPathComponent(folderName)) || FileManager.default.fileExists(atPath: output.appendingPathComponent(indexName).path)
    }

    /// The assets folder of `voice`: `<assets>/voices/<voice>`.
    package static func assetsFolder(assets: URL, voice: String) -> URL {
        assets.appendingPathComponent(folderName).appendingPathComponent(voice)
    }

    /// The set folder of `voice` in a several-voice output folder: `<output>/voices/<voice>`.
    package static func setFolder(output: URL, voice: String) -> URL {
        output.appendingPathComponent(folderName).appendingPathComponent(voice)
    }

    /// `display`'s name for the folder of `voice` in it: `Output/voices/en-US`.
    package static func display(_ display: String, voice: String) -> String { "\(display)/\(folderName)/\(voice)" }

    static func isFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The default voice of `voices`: the one named, else the only one, else nil.
    package static func defaultVoice(named: String?, of voices: [String]) -> String? {
        named ?? (voices.count == 1 ? voices[0] : nil)
    }
}

// MARK: The assets folder

extension VoiceFolders {
    /// The voices of a several-voice assets folder, sorted, and the default its `soundset.json` names.
    package struct AssetsVoices: Sendable, Equatable {
        package var voices: [String]
        /// `defaultVoice` of the assets folder's `soundset.json`, when it names one.
        package var named: String?
        /// The default voice: the one named, else the only one.
        package var defaultVoice: String? { VoiceFolders.defaultVoice(named: named, of: voices) }
        /// `sameLevel` of the assets folder's `soundset.json`: the one level of every voice, LUFS.
        package var sameLevel: Double?
    }

    /// Reads the voices of the several-voice assets folder `assets` (named `display` in messages).
    /// - Throws: `BuildFailure` with every problem: a voice folder's name, a take beside `voices/`,
    ///   a key of `soundset.json` other than `defaultVoice` and `sameLevel`, a default that is not a
    ///   voice, a level out of range, no voice.
    package static func voices(assets: URL, display: String) throws(BuildFailure) -> AssetsVoices {
        var problems: [BuildProblem] = []
        let voicesURL = assets.appendingPathComponent(folderName)
        let voicesDisplay = "\(display)/\(folderName)"
        var voices: [String] = []
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: voicesURL.path)) ?? []).sorted() where !name.hasPrefix(".") {
            let shown = "\(voicesDisplay)/\(ClipName.printable(name))"
            if let reason = nameProblem(name) {
                problems.append(BuildProblem(shown, VoiceProblem.badFolderName(reason: reason)))
            } else if !isFolder(voicesURL.appendingPathComponent(name)) {
                problems.append(BuildProblem(shown, VoiceProblem.notAFolder(voices: voicesDisplay)))
            } else {
                voices.append(name)
            }
        }
        if voices.isEmpty && problems.isEmpty { problems.append(BuildProblem(voicesDisplay, VoiceProblem.noVoices(voices: voicesDisplay))) }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: assets.path)) ?? []).sorted()
        for name in entries where !name.hasPrefix(".") && name != folderName && name != configurationName && !isFolder(assets.appendingPathComponent(name)) {
            problems.append(BuildProblem("\(display)/\(ClipName.printable(name))", VoiceProblem.besideVoices(voices: voicesDisplay)))
        }
        var found = AssetsVoices(voices: voices)
        do { try readSettings(assets: assets, display: display, into: &found) } catch { problems += error.problems }
        guard problems.isEmpty else { throw BuildFailure(problems) }
        return found
    }

    /// The level `sameLevel` holds every voice to, for the voice whose assets folder is
    /// `voiceAssets` (`Assets/voices/<voice>`): nil for a one-voice assets folder, or when the
    /// assets folder's `soundset.json` names no level or cannot be read (its build and check say why).
    package static func sameLevel(forVoiceAssets voiceAssets: URL) -> Double? {
        // Where the folder is, however it is spelled (a link to it, `.`, a relative path).
        let voiceAssets = voiceAssets.standardizedFileURL.resolvingSymlinksInPath()
        let voices = voiceAssets.deletingLastPathComponent()
        guard voices.lastPathComponent == folderName, nameProblem(voiceAssets.lastPathComponent) == nil else { return nil }
        // The other voices are not listed: the default is not looked at (the build says what is wrong with it).
        var found = AssetsVoices(voices: [])
        do { try readSettings(assets: voices.deletingLastPathComponent(), display: "", into: &found, defaultToo: false) } catch { return nil }
        return found.sameLevel
    }

    /// Reads `defaultVoice` and `sameLevel` of the assets folder's `soundset.json` into `found`
    /// (nothing when there is no such file); `defaultVoice` only when `defaultToo`.
    private static func readSettings(assets: URL, display: String, into found: inout AssetsVoices, defaultToo: Bool = true) throws(BuildFailure) {
        let url = assets.appendingPathComponent(configurationName)
        let shown = "\(display)/\(configurationName)"
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let object: [String: Any]
        do {
            let data = try RegularFile.read(url, maxBytes: 1 << 16)
            guard let decoded = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw BuildFailure([BuildProblem(shown, VoiceProblem.configurationNotObject)])
            }
            object = decoded
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure([BuildProblem(shown, VoiceProblem.configurationUnreadable(reason: (error as? RegularFile.Failure)?.reason ?? "not JSON"))])
        }
        var problems = object.keys.sorted().filter { $0 != defaultKey && $0 != sameLevelKey }.map {
            BuildProblem("\(shown): \(ClipName.printable($0))", VoiceProblem.keyBesideVoices(voices: "\(display)/\(folderName)"))
        }
        if defaultToo, let value = object[defaultKey] {
            if let name = value as? String, found.voices.contains(name) {
                found.named = name
            } else {
                let text = (value as? String).map(ClipName.printable) ?? "\(value)"
                problems.append(BuildProblem("\(shown): \(defaultKey)", VoiceProblem.defaultNotAVoice(name: text, voices: found.voices)))
            }
        }
        if let value = object[sameLevelKey] {
            // JSONSerialization reads true and false as 1 and 0: out of the range, so refused too.
            if let number = value as? NSNumber, sameLevelRange.contains(number.doubleValue) {
                found.sameLevel = number.doubleValue
            } else {
                let text = value is NSNull ? "null" : value is String ? "\"\(value)\"" : (value as? NSNumber).map { "\($0)" } ?? "a JSON \(type(of: value))"
                problems.append(BuildProblem("\(shown): \(sameLevelKey)", VoiceProblem.badSameLevel(text: text, range: sameLevelRange)))
            }
        }
        guard problems.isEmpty else { throw BuildFailure(problems) }
    }
}

// MARK: The output folder

extension VoiceFolders {
    /// `voices.json`: the voices a several-voice build wrote, and the default.
    package struct Index: Codable, Sendable, Equatable {
        package struct Voice: Codable, Sendable, Equatable {
            package var voice: String
            package var locale: String
            package var setId: String
            package init(voice: String, locale: String, setId: String) {
                self.voice = voice
                self.locale = locale
                self.setId = setId
            }
        }
        /// The default voice, or nil (several voices and none named).
        package var defaultVoice: String?
        package var schemaVersion = 1
        package var voices: [Voice]

        package init(defaultVoice: String?, voices: [Voice]) {
            self.defaultVoice = defaultVoice
            self.voices = voices
        }

        enum CodingKeys: String, CodingKey { case defaultVoice, schemaVersion, voices }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(defaultVoice, forKey: .defaultVoice)  // null when there is none
            try container.encode(schemaVersion, forKey: .schemaVersion)
            try container.encode(voices, forKey: .voices)
        }

        /// The file's bytes: keys sorted, two-space indents, a newline at the end.
        package func encoded() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(self) + Data("\n".utf8)
        }
    }

    /// The index of the several-voice output folder `output`.
    /// - Throws: `BuildProblem` naming `voices.json` when it is missing or does not decode.
    package static func index(output: URL, display: String, rebuild: String) throws(BuildProblem) -> Index {
        let shown = "\(display)/\(indexName)"
        let data: Data
        do { data = try RegularFile.read(output.appendingPathComponent(indexName), maxBytes: 1 << 20) } catch {
            throw BuildProblem(shown, VoiceProblem.noIndex(reason: error.reason, rebuild: rebuild))
        }
        do { return try JSONDecoder().decode(Index.self, from: data) } catch {
            throw BuildProblem(shown, VoiceProblem.badIndex(rebuild: rebuild))
        }
    }

    /// The set a command reads: the output folder itself (one voice), or a voice's folder in it.
    package struct Choice: Sendable, Equatable {
        /// The set's folder.
        package var url: URL
        /// How it is named in messages (`Output`, `Output/voices/en-US`).
        package var display: String
        /// The voice, in a several-voice output folder; nil for one voice.
        package var voice: String?
    }

    /// The set folder that `voice` (or, when nil, the default voice) names in `output`: the output
    /// folder itself when it holds one voice and no voice is asked for; else `voices/<voice>`, the
    /// voice one of `voices.json`'s.
    /// - Throws: `BuildProblem` when a voice is asked of a one-voice output folder, the name is not a
    ///   voice's, the voice is not there, or there are several voices and no default.
    package static func setFolder(output: URL, display: String, voice: String?, rebuild: String) throws(BuildProblem) -> Choice {
        if let voice, let reason = nameProblem(voice) {
            throw BuildProblem("--voice \(ClipName.printable(voice))", VoiceProblem.badName(reason: reason))
        }
        guard isSeveral(output: output) else {
            guard let voice else { return Choice(url: output, display: display, voice: nil) }
            throw BuildProblem("--voice \(voice)", VoiceProblem.oneVoice(output: display))
        }
        let index = try index(output: output, display: display, rebuild: rebuild)
        let names = index.voices.map(\.voice)
        guard let chosen = voice ?? defaultVoice(named: index.defaultVoice, of: names) else {
            throw BuildProblem(display, VoiceProblem.noDefault(voices: names))
        }
        guard names.contains(chosen) else { throw BuildProblem("--voice \(chosen)", VoiceProblem.unknownVoice(output: display, voices: names)) }
        return Choice(url: setFolder(output: output, voice: chosen), display: self.display(display, voice: chosen), voice: chosen)
    }
}
