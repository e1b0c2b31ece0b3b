import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One recording in the assets folder, checked from its header.
public struct Recording: Sendable, Equatable {
    /// The clip name: the file name without its extension.
    public var name: String
    /// The file name inside the assets folder.
    public var fileName: String
    /// Where the file is.
    public var url: URL
    /// How the file is named in messages, e.g. `Assets/7.wav`.
    public var displayPath: String
    /// The header as libsndfile read it.
    public var info: SoundFileInfo
}

/// The recordings and configuration in an assets folder, every problem with them found in one pass.
public struct AssetCatalog: Sendable {
    /// Recordings longer than this are refused: iOS plays the default sound instead.
    public static let maxSeconds = 30.0

    /// The extensions of the sound files libsndfile reads (a file named otherwise that it cannot
    /// read is a stray document, not a damaged take).
    static let audioExtensions: Set<String> = [
        "wav", "wave", "aif", "aiff", "aifc", "flac", "caf", "ogg", "oga", "opus", "mp3", "au", "snd", "w64", "rf64", "wv", "voc", "sf", "mat",
        "pvf", "xi", "htk", "sds", "avr", "wve", "mpc", "paf", "iff", "svx", "nist", "sph", "ircam",
    ]
    /// Recordings in formats libsndfile does not read and ffmpeg does (AAC and the MPEG-4 family,
    /// what a phone's voice memo app writes, WMA, AMR, WebM): refused with the command that converts them.
    static let convertibleExtensions: Set<String> = ["m4a", "aac", "mp4", "m4b", "3gp", "3g2", "wma", "amr", "webm", "mka"]
    /// Recordings below this rate are refused: they cannot carry speech.
    public static let minSampleRate = 8000
    /// Recordings with more channels are refused: a multitrack export, not a voice take.
    public static let maxChannels = 2

    /// The recordings, sorted by clip name.
    public var recordings: [Recording]
    /// The configuration (defaults where `soundset.json` is silent).
    public var configuration: Configuration
    /// The clips that get a `<name>Copy`.
    public var copies: Set<String>
    /// Everything wrong with the folder's files and configuration; the recordings above are the good ones.
    public var problems: [BuildProblem]

    /// Whether a name in the assets folder stands for a recording: not hidden (`.DS_Store`), not the
    /// configuration. Folders and links are judged by whoever looks at the file itself.
    public static func isRecordingName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name != ConfigurationLoader.fileName
    }

    /// Why the assets folder itself cannot be looked into.
    public enum FolderProblem: Error {
        case missing, unlistable, unsearchable

        /// The message for the folder named `displayName`.
        public func message(_ displayName: String) -> String {
            switch self {
            case .missing: "no such folder (pass the folder of recordings with --assets DIR)"
            case .unlistable: "cannot be listed (permission denied): give it read permission, e.g. chmod u+r \(displayName)"
            case .unsearchable: "cannot be searched (permission denied): give it execute permission, e.g. chmod u+x \(displayName)"
            }
        }
    }

    /// The names in `assets`, or why there are none to look at. Without execute permission a folder
    /// lists its names but none can be opened, which would make every file look broken: that is the
    /// folder's problem, said once.
    public static func listing(_ assets: URL) -> Result<[String], FolderProblem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: assets.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(.missing)
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: assets.path) else { return .failure(.unlistable) }
        guard access(assets.path, X_OK) == 0 else { return .failure(.unsearchable) }
        return .success(names)
    }

    /// Scans `assets`, reads every header and the configuration.
    /// - Parameters:
    ///   - displayName: how the folder is named in messages (the path as the user gave it).
    ///   - jobs: headers read at once.
    ///   - knownHeader: the header of a file (by name, with its stamp now) that an earlier build
    ///     read, when its stamp proves it unchanged (the memo's): the file is not opened.
    /// - Throws: `BuildFailure` when the folder itself cannot be read or holds no recordings;
    ///   problems with single files are collected in `problems`.
    public static func load(
        assets: URL, displayName: String, jobs: Int = 1, knownHeader: @escaping @Sendable (String, FileStamp) -> SoundFileInfo? = { _, _ in nil }
    ) async throws -> AssetCatalog {
        var problems: [BuildProblem] = []
        let names: [String]
        switch listing(assets) {
        case .success(let listed): names = listed.sorted()
        case .failure(let problem): throw BuildFailure([BuildProblem(displayName, CatalogProblem.folder(problem, folder: displayName))])
        }
        var configuration = Configuration()
        do {
            configuration = try ConfigurationLoader.load(
                from: assets.appendingPathComponent(ConfigurationLoader.fileName),
                displayPath: "\(displayName)/\(ConfigurationLoader.fileName)")
        } catch {
            problems += error.problems
        }

        let realAssets = assets.resolvingSymlinksInPath().standardizedFileURL.path
        let candidates = names.filter(isRecordingName)
        let found = try await candidates.concurrentMap(maxConcurrency: jobs) { fileName in
            inspect(fileName, in: assets, displayName: displayName, realAssets: realAssets, knownHeader: knownHeader)
        }
        var recordings: [Recording] = []
        for result in found {
            switch result {
            case .recording(let recording): recordings.append(recording)
            case .problem(let problem): problems.append(problem)
            case .skipped: break
            }
        }

        let copies = nameProblems(&recordings, configuration: configuration, displayName: displayName, problems: &problems)

        guard !recordings.isEmpty || !problems.isEmpty else {
            throw BuildFailure([BuildProblem(displayName, CatalogProblem.noRecordings)])
        }
        return AssetCatalog(
            recordings: recordings.sorted { $0.name < $1.name }, configuration: configuration, copies: copies,
            problems: problems)
    }

    /// What the names give, across the recordings: the same clip twice (the later ones dropped),
    /// `copies` and the announcement's phrases naming no recording, a take named as another clip's
    /// copy. Returns the clips that get a copy.
    private static func nameProblems(
        _ recordings: inout [Recording], configuration: Configuration, displayName: String, problems: inout [BuildProblem]
    ) -> Set<String> {
        // The same clip name twice, compared case-insensitively: iOS bundles live on case-insensitive disks.
        let byName = Dictionary(grouping: recordings) { $0.name.lowercased() }
        for (key, group) in byName.sorted(by: { $0.key < $1.key }) where group.count > 1 {
            let paths = group.map(\.displayPath)
            problems.append(BuildProblem(paths[0], CatalogProblem.sameClip(others: Array(paths.dropFirst()), clip: group[0].name)))
            recordings.removeAll { $0.name.lowercased() == key }
        }

        let existing = Set(recordings.map(\.name))
        let copies: Set<String>
        if let listed = configuration.copies {
            for name in listed where !existing.contains(name) {
                problems.append(BuildProblem("\(displayName)/\(ConfigurationLoader.fileName): copies", CatalogProblem.copyWithoutRecording(clip: name)))
            }
            copies = Set(listed).intersection(existing)
        } else {
            copies = existing.intersection((0...9).map(String.init))
        }
        let phrases = [
            ("prefix", configuration.announcement.prefix), ("suffix", configuration.announcement.suffix), ("fallback", configuration.announcement.fallback),
            ("rushSound", configuration.announcement.rushSound),
        ]
        for (key, name) in phrases {
            if let name, !existing.contains(name) {
                problems.append(
                    BuildProblem(
                        "\(displayName)/\(ConfigurationLoader.fileName): announcement.\(key)", CatalogProblem.phraseWithoutRecording(key: key, clip: name)))
            }
        }
        // Every clip's copy name, whether or not "copies" lists it now: a take under that name would
        // be played as the copy of another word (2Copy.wav as the second 2 of 2.22), and listing the
        // clip later would make two files of one name.
        let lowercasedCopyNames = Dictionary(existing.map { (($0 + ClipName.copySuffix).lowercased(), $0) }, uniquingKeysWith: { a, b in min(a, b) })
        for recording in recordings {
            if let original = lowercasedCopyNames[recording.name.lowercased()] {
                problems.append(BuildProblem(recording.displayPath, CatalogProblem.namedAsCopy(original: original)))
            }
        }
        return copies
    }

    /// What a name in the assets folder turned out to be.
    private enum Found: Sendable {
        case recording(Recording)
        case problem(BuildProblem)
        /// A folder: not a recording, not a problem.
        case skipped
    }

    /// Checks one name in the assets folder and reads its header.
    private static func inspect(
        _ fileName: String, in assets: URL, displayName: String, realAssets: String, knownHeader: (String, FileStamp) -> SoundFileInfo?
    ) -> Found {
        let url = assets.appendingPathComponent(fileName, isDirectory: false)
        let display = "\(displayName)/\(ClipName.printable(fileName))"
        var entry = stat()
        // Only a link is resolved (resolving a path costs more than reading the file's header).
        guard lstat(url.path, &entry) == 0 else { return .problem(BuildProblem(display, CatalogProblem.unreadable(reason: RegularFile.systemReason(errno)))) }
        // A regular file's stamp (nil for a link): while it proves the file unchanged since an
        // earlier build read its header, that header stands and the file is not opened.
        let stamp = FileStamp(entry)
        if entry.st_mode & S_IFMT == S_IFLNK {
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL
            if resolved.path != url.standardizedFileURL.path,
                resolved.deletingLastPathComponent().path != realAssets
            {
                return .problem(BuildProblem(display, CatalogProblem.outsideLink))
            }
            guard stat(resolved.path, &entry) == 0 else {
                return .problem(BuildProblem(display, CatalogProblem.brokenLink))
            }
        }
        switch entry.st_mode & S_IFMT {
        case S_IFDIR: return .skipped
        case S_IFREG: break
        default: return .problem(BuildProblem(display, CatalogProblem.notRegularFile))
        }
        if fileName.lowercased() == ConfigurationLoader.fileName {
            return .problem(BuildProblem(display, CatalogProblem.configurationCase))
        }
        let name = (fileName as NSString).deletingPathExtension
        guard name != fileName, !name.isEmpty else {
            return .problem(BuildProblem(display, CatalogProblem.noExtension))
        }
        if let reason = ClipName.problem(with: name) {
            // A known clip's characters (两, 十, 萬) are named the way the reading names it.
            let ext = (fileName as NSString).pathExtension
            let known = SpeechLocale.allCases.lazy.compactMap { ClipGuide.of($0).clip(said: name) }.first
            // A take of that clip is there already: renaming would replace or duplicate it.
            let taken = known.flatMap { known in
                ((try? FileManager.default.contentsOfDirectory(atPath: assets.path)) ?? []).sorted()
                    .first(where: { ($0 as NSString).deletingPathExtension.lowercased() == known.lowercased() })
            }
            let takenPath = taken.map { "\(displayName)/\(ClipName.printable($0))" }
            return .problem(BuildProblem(display, CatalogProblem.invalidClipName(name: name, reason: reason, ext: ext, known: known, taken: takenPath)))
        }
        var info: SoundFileInfo
        if let stamp, let known = knownHeader(fileName, stamp), access(url.path, R_OK) == 0 {
            info = known
        } else {
            do {
                BuildWork.count(\.headersRead)
                let file = try SoundFile.open(reading: url.path)
                info = file.info
                // A header that does not give the length (a FLAC stream's, legal): it is measured by
                // decoding, without keeping the samples, and judged like any other.
                if info.lengthUnknown { info.frames = try file.countFrames() }
            } catch {
                return unreadable(url, fileName: fileName, name: name, display: display, displayName: displayName, error: error)
            }
        }
        if let problem = headerProblem(info) { return .problem(BuildProblem(display, problem)) }
        return .recording(Recording(name: name, fileName: fileName, url: url, displayPath: display, info: info))
    }

    /// A take libsndfile could not open, said as what it is: unreadable, a recording in a format
    /// only ffmpeg reads (with the command that converts it), a file that is no recording, or audio
    /// that does not decode.
    private static func unreadable(_ url: URL, fileName: String, name: String, display: String, displayName: String, error: any Error) -> Found {
        guard access(url.path, R_OK) == 0 else { return .problem(BuildProblem(display, CatalogProblem.unreadable(reason: RegularFile.systemReason(errno)))) }
        let reason = (error as? SoundFileError)?.reason ?? "\(error)"
        // Notes and documents left among the takes are named as what they are; a recording
        // in a format only ffmpeg reads, with the command that converts it.
        let ext = (fileName as NSString).pathExtension.lowercased()
        if Self.convertibleExtensions.contains(ext) {
            let wav = "\(displayName)/\(ClipName.printable(name)).wav"
            return .problem(BuildProblem(display, CatalogProblem.convertible(ext: ext, path: display, wav: wav, folder: displayName)))
        }
        if !Self.audioExtensions.contains(ext) {
            return .problem(BuildProblem(display, CatalogProblem.notARecording(ext: ext, folder: displayName)))
        }
        return .problem(BuildProblem(display, CatalogProblem.notAudio(clause: reason.asClause)))
    }

    /// What is wrong with a recording from its header alone, before anything is decoded.
    static func headerProblem(_ info: SoundFileInfo) -> CatalogProblem? {
        if let note = info.truncation { return .truncated(note: note) }
        if info.frames <= 0 { return .noFrames }
        if info.channels > maxChannels { return .tooManyChannels(info.channels) }
        if info.sampleRate < minSampleRate { return .lowSampleRate(info.sampleRate) }
        if info.seconds >= maxSeconds { return .tooLong(seconds: info.seconds, decoded: info.lengthUnknown) }
        return nil
    }
}

extension String {
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }

    /// A library's sentence as part of one of ours: lower-case first letter, no full stop.
    var asClause: String {
        var text = lowercasedFirst.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
