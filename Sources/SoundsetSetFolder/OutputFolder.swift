import Foundation
import SoundsetRuntime

/// The output folder, replaced whole: the new set is written into a staging folder beside it and
/// swapped in, so a failed or interrupted build leaves the previous set exactly as it was.
public struct OutputFolder: Sendable {
    public let url: URL
    package let displayName: String
    /// The manifest of the set in the folder when the build began, or nil when there was none.
    public let previous: Manifest?

    private var parent: URL { url.deletingLastPathComponent() }
    private var stagingPrefix: String { ".soundset-staging-\(url.lastPathComponent)-" }
    private var retiredPrefix: String { ".soundset-retired-\(url.lastPathComponent)-" }

    /// Whether `name` is one of this folder's staging or retired folders: the prefix and then a
    /// UUID, nothing else (`Output-en`'s are not `Output`'s).
    private func isLeftover(_ name: String, of prefix: String) -> Bool {
        name.hasPrefix(prefix) && UUID(uuidString: String(name.dropFirst(prefix.count))) != nil
    }

    /// Runs `body` while no build swaps a new set into the folder at `url` (a shared lock on its
    /// swap lock): a reader of the manifest and the clips sees one set whole.
    public static func reading<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        try OutputLocks.reading(url, body)
    }

    /// `reading` for a body that awaits.
    public static func reading<T>(_ url: URL, _ body: () async throws -> T) async throws -> T {
        try await OutputLocks.reading(url, body)
    }

    /// The clip files in a set's `Sounds` folder (hidden files such as `.DS_Store` left out).
    package static func clipFiles(in sounds: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sounds.path)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// The folder a build of `url` replaces: `url` itself, or, when it is a symbolic link, the
    /// folder it points to (the link stays a link; the set is swapped in beside its target).
    /// - Throws: `BuildProblem` for a link that points nowhere.
    public static func resolve(_ url: URL, display: String) throws(BuildProblem) -> URL {
        let standardized = url.standardizedFileURL
        var info = stat()
        guard lstat(standardized.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return standardized }
        guard let target = realpath(standardized.path, nil) else {
            throw BuildProblem(display, OutputProblem.danglingLink)
        }
        defer { free(target) }
        return URL(fileURLWithPath: String(cString: target)).standardizedFileURL
    }

    /// Checks that `url` may be replaced: it does not exist, is empty, or holds a soundset manifest;
    /// it is not the assets folder or one that contains it, and not a mount point. Nothing is moved
    /// or written.
    /// - Throws: `BuildProblem` saying why the folder is refused.
    public init(url: URL, displayName: String, assets: URL) throws(BuildProblem) {
        self.url = url.standardizedFileURL
        self.displayName = displayName
        previous = try? ManifestFiles.load(from: self.url.appendingPathComponent(SoundSetLayout.manifestName))
        let outputPath = self.url.resolvingSymlinksInPath().path
        let assetsPath = assets.standardizedFileURL.resolvingSymlinksInPath().path
        if FolderPath.isWithin(assetsPath, folder: outputPath) {
            throw BuildProblem(displayName, OutputProblem.containsAssets)
        }
        // The staging and retired folders beside it are named after it, plus a UUID.
        let longest = retiredPrefix.utf8.count + 36
        if longest > 255 {
            let bytes = url.lastPathComponent.utf8.count
            throw BuildProblem(displayName, OutputProblem.nameTooLong(bytes: bytes, most: 255 - longest + bytes))
        }
        if let refusal { throw refusal }
    }

    /// Why the folder at `url` may not be replaced as it is now, or nil: asked when the build starts,
    /// and again under the swap lock just before the swap, for what was put there meanwhile.
    private var refusal: BuildProblem? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        func refused(_ reason: OutputProblem) -> BuildProblem { BuildProblem(displayName, reason) }
        if info.st_mode & S_IFMT == S_IFLNK { return refused(.symbolicLink) }
        guard info.st_mode & S_IFMT == S_IFDIR else { return refused(.notAFolder) }
        if MountPoints.isMountPoint(url) {
            return refused(.mountPoint(folder: displayName))
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        if entries.filter({ $0 != ".DS_Store" }).isEmpty { return nil }
        let manifestURL = url.appendingPathComponent(SoundSetLayout.manifestName)
        // A manifest over the runtime's cap (which check names, with the build as its fix) still makes the folder a set's.
        guard let manifest = try? ManifestFiles.load(from: manifestURL) else {
            switch Self.damagedSet(url, entries: entries) {
            case .damaged: return nil
            case .stranger(let stranger):
                return refused(.undecodableWithStranger(stranger: stranger))
            case .notASet: return refused(.notASet)
            }
        }
        if let stranger = Self.unwritten(in: url, entries: entries, manifest: manifest) {
            return BuildProblem("\(displayName)/\(ClipName.printable(stranger))", OutputProblem.notWritten(folder: displayName))
        }
        return nil
    }

    /// The first file in the folder soundset did not write, as a path inside it, or nil: what the
    /// set holds is its manifest, `Sounds/` with the files the manifest lists, and the system's
    /// `.DS_Store` files; and what soundset 0.8 also wrote there, its report (`report.html`, which
    /// the build moves out) and that report's temporary file.
    package static func unwritten(in url: URL, entries: [String], manifest: Manifest) -> String? {
        if let stranger = entries.sorted().first(where: { !isSetEntry($0, in: url) }) { return stranger }
        let listed = Set(manifest.clips.flatMap { [$0.file] + [$0.copy].compactMap { $0 } } + [".DS_Store"])
        let sounds = (try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(SoundSetLayout.soundsName).path)) ?? []
        return sounds.sorted().first { !listed.contains($0) }.map { "\(SoundSetLayout.soundsName)/\($0)" }
    }

    /// Whether `name`, in the folder at `url`, is what a set holds at its top: its manifest,
    /// `Sounds/`, the system's `.DS_Store`, and soundset 0.8's report and its temporary file.
    private static func isSetEntry(_ name: String, in url: URL) -> Bool {
        let known: Set<String> = [SoundSetLayout.manifestName, SoundSetLayout.soundsName, ".DS_Store"]
        let legacy = ReportFile.legacyFileName
        return known.contains(name) || RegularFile.replacedName(ofTemporary: name) == legacy
            || (name == legacy && ReportFile.head(of: url.appendingPathComponent(legacy)).map(ReportFile.isSoundsetReport) == true)
    }

    /// What a folder whose manifest cannot be loaded is.
    package enum DamagedSet: Equatable {
        /// A set whose manifest no longer decodes (a merge conflict, a cut file) or is a link: it
        /// holds nothing but what a set holds, its `Sounds/` clip files; the build replaces it.
        case damaged
        /// It would be one, but holds this (a path inside it), which soundset did not write.
        case stranger(String)
        /// No manifest, or one that a newer soundset wrote, or too large to read: no set to replace.
        case notASet
    }

    /// Whether the folder at `url` (holding `entries`), whose manifest cannot be loaded, is a set
    /// whose manifest is damaged: its `manifest.json` a regular file that reads but does not decode
    /// as a manifest, or a link; beside it only what a set holds (`isSetEntry`); and `Sounds` a
    /// link, or a folder of clip files only (a clip's name and a sound's extension, each a link or
    /// a file that begins as a CAF, WAV or AIFF file does). The marks of a build's own folder,
    /// which another tool's folder does not have.
    package static func damagedSet(_ url: URL, entries: [String]) -> DamagedSet {
        let manifestURL = url.appendingPathComponent(SoundSetLayout.manifestName)
        guard !SetLink.isLink(manifestURL) else { return whatElse(url, entries: entries) }
        do { _ = try Manifest.load(from: manifestURL, upTo: ManifestFiles.maxBytes) } catch {
            // A newer soundset's manifest is not damaged; nor one that cannot be read at all.
            guard case .invalid = error else { return .notASet }
            return whatElse(url, entries: entries)
        }
        return .notASet
    }

    /// `damagedSet` once the manifest is known damaged: what else the folder holds.
    private static func whatElse(_ url: URL, entries: [String]) -> DamagedSet {
        if let stranger = entries.sorted().first(where: { !isSetEntry($0, in: url) }) { return .stranger(ClipName.printable(stranger)) }
        let sounds = url.appendingPathComponent(SoundSetLayout.soundsName)
        if SetLink.isLink(sounds) { return .damaged }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: sounds.path, isDirectory: &isFolder), isFolder.boolValue else { return .notASet }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: sounds.path)) ?? []).filter { $0 != ".DS_Store" }
        let stranger = names.sorted().first { name in
            let base = (name as NSString).deletingPathExtension
            guard ClipName.problem(with: base) == nil, Container(fileExtension: (name as NSString).pathExtension) != nil else { return true }
            let file = sounds.appendingPathComponent(name, isDirectory: false)
            if SetLink.isLink(file) { return false }
            guard let head = try? RegularFile.head(file, count: 12, followingLinks: false).bytes, head.count == 12 else { return true }
            let tag = { (range: Range<Int>) in String(decoding: head[range], as: UTF8.self) }
            let (kind, form) = (tag(0..<4), tag(8..<12))
            return !(kind == "caff" || (kind == "RIFF" && form == "WAVE") || (kind == "FORM" && ["AIFF", "AIFC"].contains(form)))
        }
        return stranger.map { .stranger("\(SoundSetLayout.soundsName)/\(ClipName.printable($0))") } ?? .damaged
    }

    /// A file beside the output folder that goes with the set (its report): written, or removed
    /// (`data` nil), right after the set is swapped in, under the same lock.
    public struct Beside: Sendable {
        public var url: URL
        /// How it is named in messages.
        public var display: String
        public var data: Data?

        public init(url: URL, display: String, data: Data?) {
            self.url = url
            self.display = display
            self.data = data
        }
    }

    /// What a commit left to say once the set is in place.
    public struct Committed: Sendable {
        /// Files beside the set that could not be written or removed.
        public var unwritten: [BuildProblem] = []
        /// The old set, swapped out, that could not be removed: errors (the build exits 1), each
        /// naming the folder and how to remove it.
        public var leftovers: [BuildProblem] = []
    }

    /// Writes `set` into a staging folder beside the output folder and swaps it in.
    /// - Parameter beside: files made from the staged set once it is verified (the report, from
    ///   the staging folder given), written beside the folder right after the swap, holding the
    ///   swap lock: no reader sees the new set with the old report.
    /// - Returns: the files beside that could not be written or removed, and the old set when it
    ///   could not be removed (the new set is in place).
    /// - Throws: `BuildProblem` naming the file (as it will be in the output folder) that could not
    ///   be written, or a leftover of an earlier build that cannot be removed; the output folder is
    ///   then as it was.
    @discardableResult
    public func commit(_ set: SetFiles, beside: (URL) throws(BuildProblem) -> [Beside] = { _ in [] }) throws(BuildProblem) -> Committed {
        if let leftover = recoverInterruptedSwap().first { throw leftover }
        let staging = try makeStaging()
        defer { Interruption.shared.done(staging) }
        do throws(BuildProblem) {
            let manifest: Data
            do { manifest = try ManifestFiles.bytes(of: set.manifest) } catch {
                throw BuildProblem("\(displayName)/\(SoundSetLayout.manifestName)", OutputProblem.unencodable(reason: "\(error)"))
            }
            // A manifest over what an app's extension reads (`Manifest.maxBytes`) is written all the
            // same, with a warning the check's file-free parts give (`Checker.manifestSize`), and
            // the check fails it: the build makes sets of any size (a pack, a benchmark), the app's CI refuses them.
            let sounds = staging.appendingPathComponent(SoundSetLayout.soundsName)
            // One clip's bytes in memory at a time: the files wait in the build's scratch folder.
            for clip in set.clips {
                let target = sounds.appendingPathComponent(clip.name, isDirectory: false)
                try write(clip.content, to: target, shownAs: clip.name)
                if let copy = clip.copyName {
                    // The copy is a file of its own, with the original's bytes.
                    let bytes: Data
                    switch clip.content {
                    case .bytes(let data): bytes = data
                    case .reused, .written:
                        // The staged file: the last build's linked (or copied) in, or this build's moved in.
                        do { bytes = try RegularFile.read(target, maxBytes: Composer.maxClipBytes) } catch {
                            throw problem(clip.name, error.reason)
                        }
                    }
                    try write(.bytes(bytes), to: sounds.appendingPathComponent(copy, isDirectory: false), shownAs: copy)
                }
            }
            do { try RegularFile.write(manifest, to: staging.appendingPathComponent(SoundSetLayout.manifestName)) } catch {
                throw BuildProblem("\(displayName)/\(SoundSetLayout.manifestName)", OutputProblem.unwritable(reason: error.reason))
            }
            BuildWork.count(\.bytesWritten, manifest.count)
            try verify(staging, against: set, written: manifest)
            let files = try beside(staging)
            return try Interruption.shared.swapping { () throws(BuildProblem) in try swap(in: staging, then: files) }
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    /// The staged set as the check sees it: the manifest reads back as written (`written`, its
    /// bytes: that they decode to the manifest is the encoder's promise, which the tests hold), and
    /// the check's own integrity code finds every file it lists present, byte for byte, and nothing
    /// else. A build that exits 0 has written a whole set.
    private func verify(_ staging: URL, against set: SetFiles, written: Data) throws(BuildProblem) {
        let manifest = set.manifest
        let manifestPath = "\(displayName)/\(SoundSetLayout.manifestName)"
        guard (try? RegularFile.read(staging.appendingPathComponent(SoundSetLayout.manifestName), maxBytes: ManifestFiles.maxBytes)) == written else {
            throw BuildProblem(manifestPath, OutputProblem.notReadBack)
        }
        // What a reader refuses of a manifest it decoded (frames, digests, names, the clip count),
        // asked of the one written: a build never exits 0 with a set its own reader refuses.
        if let problem = manifest.problem {
            throw BuildProblem(manifestPath, OutputProblem.refusedByReaders(reason: "\(problem)"))
        }
        let sounds = staging.appendingPathComponent(SoundSetLayout.soundsName)
        // The last build's files, linked in, were proven intact by the memo: only their presence is checked.
        let placed = Set(set.clips.compactMap { clip -> String? in if case .reused = clip.content { clip.name } else { nil } })
        if let problem = SetIntegrity.problems(
            manifest, sounds: sounds, soundsDisplay: "\(displayName)/\(SoundSetLayout.soundsName)", manifestPath: manifestPath, placed: placed,
            rebuild: nil
        ).first {
            // No hint to run the build again: this is the build.
            throw BuildProblem(problem.subject, OutputProblem.notAsWritten(reason: problem.message))
        }
    }

    private func problem(_ name: String, _ reason: String) -> BuildProblem {
        BuildProblem("\(displayName)/\(SoundSetLayout.soundsName)/\(name)", OutputProblem.unwritable(reason: reason))
    }

    /// Writes bytes; moves a file this build wrote (a rename, else a copy of its bytes); or places
    /// the last build's file: a hard link where the file system allows one (no bytes written), else
    /// a copy of its bytes. The verification reads back every staged file but the last build's.
    private func write(_ content: SetFiles.ClipFile.Content, to target: URL, shownAs name: String) throws(BuildProblem) {
        do throws(RegularFile.Failure) {
            switch content {
            case .bytes(let data):
                try RegularFile.write(data, to: target)
                BuildWork.count(\.bytesWritten, data.count)
            case .written(let source):
                // Its bytes were counted where they were written, in the scratch folder.
                if rename(source.path, target.path) == 0 { return }
                try RegularFile.write(try RegularFile.read(source, maxBytes: Composer.maxClipBytes, followingLinks: false), to: target)
            case .reused(let source):
                if link(source.path, target.path) == 0 { return }
                let data = try RegularFile.read(source, maxBytes: Composer.maxClipBytes)
                try RegularFile.write(data, to: target)
                BuildWork.count(\.bytesWritten, data.count)
            }
        } catch {
            throw problem(name, error.reason)
        }
    }

    /// A kill between the two renames of a swap leaves the old set retired and no output folder:
    /// put it back. Then remove what killed builds left behind: the caller holds the folder's build
    /// lock, so no other build of it is running, and another folder's are never this one's.
    /// - Throws: `BuildProblem` for each leftover that cannot be removed, naming it and the fix.
    package static func recoverInterruptedSwap(of url: URL, displayName: String) throws(BuildFailure) {
        let problems = OutputFolder(leftoversOf: url, displayName: displayName).recoverInterruptedSwap()
        if !problems.isEmpty { throw BuildFailure(problems) }
    }

    /// The folder at `url` only to find what builds left beside it.
    private init(leftoversOf url: URL, displayName: String) {
        self.url = url
        self.displayName = displayName
        previous = nil
    }

    /// Returns the leftovers that cannot be removed, as problems that say how to remove them.
    private func recoverInterruptedSwap() -> [BuildProblem] {
        let fileManager = FileManager.default
        let leftovers = ((try? fileManager.contentsOfDirectory(atPath: parent.path)) ?? []).sorted()
        if !fileManager.fileExists(atPath: url.path), let retired = leftovers.first(where: { isLeftover($0, of: retiredPrefix) }) {
            try? fileManager.moveItem(at: parent.appendingPathComponent(retired), to: url)
        }
        return leftovers.filter { isLeftover($0, of: stagingPrefix) || isLeftover($0, of: retiredPrefix) }.compactMap { name in
            remove(parent.appendingPathComponent(name), saying: "is left from an earlier build of \(displayName)", then: "and build again")
        }
    }

    /// Removes a folder beside the output folder that a build left (the old set, swapped out, or
    /// what a killed build left): when it cannot be removed, what it is, why, and the commands that
    /// remove it (nothing is left beside the set without a word).
    private func remove(_ folder: URL, saying what: String, then: String) -> BuildProblem? {
        let fileManager = FileManager.default
        do { try fileManager.removeItem(at: folder) } catch {
            var info = stat()
            guard lstat(folder.path, &info) == 0 else { return nil }
            let shown = leftoverDisplay(folder.lastPathComponent)
            let word = CommandSpelling.shellWord(shown)
            #if canImport(Darwin)
                let unlock = "chflags -R nouchg \(word)"
            #else
                let unlock = "chattr -R -i \(word)"
            #endif
            return BuildProblem(shown, OutputProblem.leftover(what: what, reason: RegularFile.reason(error), unlock: unlock, word: word, then: then))
        }
        return nil
    }

    /// How a folder beside the output folder is named in messages: beside the output folder as the
    /// user named it, or by its full path when the name given was a link's.
    private func leftoverDisplay(_ name: String) -> String {
        guard (displayName as NSString).lastPathComponent == url.lastPathComponent else { return parent.appendingPathComponent(name).path }
        let folder = (displayName as NSString).deletingLastPathComponent
        return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    }

    /// Creates an empty staging folder with its `Sounds` folder, beside the output folder.
    private func makeStaging() throws(BuildProblem) -> URL {
        let staging = parent.appendingPathComponent(stagingPrefix + UUID().uuidString)
        do {
            try Interruption.shared.writing(staging) {
                try FileManager.default.createDirectory(at: staging.appendingPathComponent(SoundSetLayout.soundsName), withIntermediateDirectories: true)
            }
        } catch {
            throw BuildProblem(displayName, OutputProblem.noStaging(parent: parent.path, reason: RegularFile.reason(error)))
        }
        return staging
    }

    /// Replaces the output folder with `staging` in one atomic exchange where the system offers one
    /// (then the old set is removed); otherwise the old set is retired, the new one renamed in, and
    /// a kill between the two renames is undone by the next build.
    private func swap(in staging: URL, then beside: [Beside]) throws(BuildProblem) -> Committed {
        // Readers hold the swap lock shared while they read: none sees half of each set.
        let lock = try OutputLocks.swap(url)
        defer { lock.unlock() }
        if let refusal { throw BuildProblem(refusal.subject, OutputProblem.putThereMeanwhile(refusal: refusal.message)) }
        let fileManager = FileManager.default
        let oldSet = "holds the set \(displayName) held before this build (\(displayName) now holds the new one)"
        if fileManager.fileExists(atPath: url.path), AtomicExchange.exchange(staging.path, url.path) {
            let leftover = remove(staging, saying: oldSet, then: "")
            return Committed(unwritten: Self.place(beside), leftovers: leftover.map { [$0] } ?? [])
        }
        let retired = parent.appendingPathComponent(retiredPrefix + UUID().uuidString)
        do {
            if fileManager.fileExists(atPath: url.path) { try fileManager.moveItem(at: url, to: retired) }
            try fileManager.moveItem(at: staging, to: url)
        } catch {
            if !fileManager.fileExists(atPath: url.path) { try? fileManager.moveItem(at: retired, to: url) }
            throw BuildProblem(displayName, OutputProblem.cannotReplace(reason: RegularFile.reason(error)))
        }
        let leftover = fileManager.fileExists(atPath: retired.path) ? remove(retired, saying: oldSet, then: "") : nil
        return Committed(unwritten: Self.place(beside), leftovers: leftover.map { [$0] } ?? [])
    }

    /// Writes or removes the files beside the set; what could not be done, as problems.
    package static func place(_ beside: [Beside]) -> [BuildProblem] {
        beside.compactMap { file -> BuildProblem? in
            guard let data = file.data else {
                RegularFile.remove(file.url)
                return nil
            }
            do throws(RegularFile.Failure) { try RegularFile.replace(file.url, with: data) } catch {
                // A report of the set before is worse than none.
                RegularFile.remove(file.url)
                return BuildProblem(file.display, OutputProblem.besideUnwritable(reason: error.reason))
            }
            return nil
        }
    }

    /// Writes or removes files beside the set in the folder at `url` holding its swap lock, so that
    /// a reader (the check) sees them with the set they belong to.
    package static func placeBeside(_ url: URL, _ beside: [Beside]) throws(BuildProblem) -> [BuildProblem] {
        try Interruption.shared.uninterrupted { () throws(BuildProblem) in
            let lock = try OutputLocks.swap(url)
            defer { lock.unlock() }
            return place(beside)
        }
    }

    /// Moves soundset 0.8's report out of the set in the folder at `url` (the app would bundle it)
    /// to `destination`, or removes it when there is none or a report is already there, holding
    /// the swap lock. Returns the line that says so, or nil when there was none to move.
    package static func moveLegacyReport(
        of url: URL, displayName: String, to destination: (url: URL, display: String)?
    ) throws(BuildProblem) -> String? {
        let legacy = url.appendingPathComponent(ReportFile.legacyFileName)
        guard let head = ReportFile.head(of: legacy), ReportFile.isSoundsetReport(head) else { return nil }
        let lock = try OutputLocks.swap(url)
        defer { lock.unlock() }
        let shown = "\(displayName)/\(ReportFile.legacyFileName)"
        if let destination, !FileManager.default.fileExists(atPath: destination.url.path), rename(legacy.path, destination.url.path) == 0 {
            return "moved \(shown) out of the set to \(destination.display): \(displayName) holds only what the app bundles"
        }
        RegularFile.remove(legacy)
        return "removed \(shown): \(displayName) holds only what the app bundles\(destination.map { ", and the report is \($0.display)" } ?? "")"
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
