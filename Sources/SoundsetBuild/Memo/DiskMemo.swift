import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// The memo on disk: `.soundset-cache` beside the output folder (with its own `.gitignore`).
///
/// - `<key>.clip`: one prepared clip per recording (`ClipEntry`), keyed by `ClipKey`, with its key
///   inside.
/// - `build-<output>.record`: the last build's `BuildRecord` (`BuildRecordFile`), written once its set was in place.
///
/// Every answer is checked against what it claims to be about: an entry against its key and
/// recording, a stamp against the time the stamps were taken, a finished file against its stamp.
/// A missing, damaged or foreign file is no answer: the stage does the work, and the set is the same.
public final class DiskMemo: BuildMemo, @unchecked Sendable {
    // @unchecked: `loaded` and `stampedSounds` are read and written under `lock`; entries are files,
    // each written whole by one task.
    /// The memo folder's name, beside the output folder.
    public static let folderName = MemoFolder.name

    let folder: URL
    private let output: URL
    private let recordURL: URL
    private let lock = NSLock()
    private var loaded: BuildRecord??
    private var stampedSounds: [String: FileStamp]?

    /// The memo of the output folder `output`.
    public init(output: URL) {
        self.output = output
        sounds = output.appendingPathComponent(SoundSetLayout.soundsName, isDirectory: true)
        folder = Self.folder(for: output)
        recordURL = folder.appendingPathComponent("build-\(output.lastPathComponent).\(BuildRecordFile.fileExtension)")
    }

    static func folder(for output: URL) -> URL { MemoFolder.folder(for: output) }

    /// The last build's record, read once, when there is a sound one for this tool.
    var record: BuildRecord? {
        lock.withLock {
            if let loaded { return loaded }
            let record = (try? RegularFile.read(recordURL, maxBytes: 64 << 20)).flatMap(BuildRecordFile.decode)
            let current = record.flatMap { $0.schemaVersion == BuildRecord.currentSchemaVersion && $0.toolVersion == ToolVersion.current ? $0 : nil }
            loaded = .some(current)
            return current
        }
    }

    /// (Joined once, as a folder: a URL joined without saying asks the disk, a stat a clip.)
    private let sounds: URL
    private func entryURL(_ key: String) -> URL { folder.appendingPathComponent("\(key).\(ClipEntry.fileExtension)", isDirectory: false) }

    // MARK: The check of the set

    /// One file per output folder, `check-<output>.json`: the key and what the check said.
    private struct RememberedCheck: Codable {
        var key: String
        var report: CheckReport
    }

    private var checkURL: URL { folder.appendingPathComponent("check-\(output.lastPathComponent).json") }

    public func setCheck(under key: String) -> CheckReport? {
        guard let data = try? RegularFile.read(checkURL, maxBytes: 16 << 20), let remembered = try? JSONDecoder().decode(RememberedCheck.self, from: data),
            remembered.key == key
        else { return nil }
        return remembered.report
    }

    public func remember(_ check: CheckReport, under key: String) {
        guard prepareFolder(), let data = try? JSONFormatting.encode(RememberedCheck(key: key, report: check)) else { return }
        try? RegularFile.replace(checkURL, with: data)
    }

    // MARK: The findings and the report's drawings

    /// One file per output folder, `findings-<output>.json`: the manifest's sha256 and the findings.
    private struct RememberedFindings: Codable {
        var toolVersion: String
        var manifestSHA256: String
        var findings: SetFindings
    }

    private var findingsURL: URL { folder.appendingPathComponent("findings-\(output.lastPathComponent).json") }

    public func findings(ofManifest manifestSHA256: String) -> SetFindings? {
        guard let data = try? RegularFile.read(findingsURL, maxBytes: 64 << 20),
            let remembered = try? ClipEntry.decoder.decode(RememberedFindings.self, from: data),
            remembered.toolVersion == ToolVersion.current, remembered.manifestSHA256 == manifestSHA256
        else { return nil }
        return remembered.findings
    }

    public func remember(_ findings: SetFindings, ofManifest manifestSHA256: String) {
        let remembered = RememberedFindings(toolVersion: ToolVersion.current, manifestSHA256: manifestSHA256, findings: findings)
        guard prepareFolder(), let data = try? ClipEntry.encoder.encode(remembered) else { return }
        try? RegularFile.replace(findingsURL, with: data)
    }

    /// One file per output folder, `same-<output>.json`: the same-recording check's verdicts, with
    /// the tool that decided them.
    private struct RememberedVerdicts: Codable {
        var toolVersion: String
        var rule: Int
        var verdicts: SameRecordings.Verdicts
    }

    private var verdictsURL: URL { folder.appendingPathComponent("same-\(output.lastPathComponent).json") }

    func sameRecordingVerdicts() -> SameRecordings.Verdicts? {
        guard let data = try? RegularFile.read(verdictsURL, maxBytes: 64 << 20),
            let remembered = try? JSONDecoder().decode(RememberedVerdicts.self, from: data), remembered.toolVersion == ToolVersion.current,
            remembered.rule == SameRecordings.ruleVersion
        else { return nil }
        return remembered.verdicts
    }

    func remember(_ verdicts: SameRecordings.Verdicts) {
        guard prepareFolder(),
            let data = try? JSONFormatting.encode(RememberedVerdicts(toolVersion: ToolVersion.current, rule: SameRecordings.ruleVersion, verdicts: verdicts))
        else { return }
        try? RegularFile.replace(verdictsURL, with: data)
    }

    /// One file per output folder, `drawings-<output>.bin` (`DrawingsFile`).
    private var drawingsURL: URL { folder.appendingPathComponent("drawings-\(output.lastPathComponent).bin") }

    func drawings() -> [String: ClipDrawing] {
        (try? RegularFile.read(drawingsURL, maxBytes: 1 << 30, followingLinks: false)).flatMap(DrawingsFile.decode) ?? [:]
    }

    func remember(drawings: [String: ClipDrawing]) {
        guard prepareFolder() else { return }
        try? RegularFile.replace(drawingsURL, with: DrawingsFile.encode(drawings))
    }

    // MARK: The whole set

    /// By stamps alone: the record's recordings and output files, each proven unchanged, and the
    /// set in the output folder fresh against them (`Freshness`). The record, decoded here, is the
    /// one every later question of this build is answered from (a rebuild decodes it once).
    public func unchangedSet(assets: URL, output: URL, settingsHash: String) -> Manifest? {
        guard let head = record, !head.outputs.isEmpty,
            let recordings = Stamps.recordings(in: assets), recordings.count == head.recordings.count,
            recordings.allSatisfy({ name, stamp in
                guard let recorded = head.recordings[name]?.stamp else { return false }
                return unchanged(stamp, recorded, head.recordingsStampedAt, isTake: true) {
                    ($0.recordings[name]?.sha256, assets.appendingPathComponent(name))
                }
            }),
            let outputs = Stamps.outputs(of: output), outputs.count == head.outputs.count,
            outputs.allSatisfy({ path, stamp in
                guard let recorded = head.outputs[path]?.stamp else { return false }
                return unchanged(stamp, recorded, head.outputsStampedAt, isTake: false) {
                    ($0.outputs[path]?.sha256, output.appendingPathComponent(path))
                }
            }),
            let manifest = try? ManifestFiles.load(from: output.appendingPathComponent(SoundSetLayout.manifestName)),
            Freshness.isFresh(manifest, settingsHash: settingsHash, recordings: head.recordings.mapValues(\.sha256))
        else { return nil }
        return manifest
    }

    /// Whether a file stamped `stamp` now is as recorded: its stamp proves it, or, when it was
    /// modified in the tick the stamps were taken (racily clean), its bytes hash to the sha256 the
    /// whole record holds for it (`file` gives both, asked only then: the no-op check decodes stamps).
    /// `isTake`: a recording, whose hashing is counted as work (`BuildWork.takesHashed`); an output
    /// file's is not (a clip written in the tick its stamp was taken is racily clean, and hashed).
    private func unchanged(
        _ stamp: FileStamp, _ recorded: FileStamp, _ stampedAt: FileTime, isTake: Bool, file: (BuildRecord) -> (sha256: String?, url: URL)
    ) -> Bool {
        guard stamp == recorded else { return false }
        if stamp.proves(recorded, stampedAt: stampedAt) { return true }
        guard let record, case let (expected?, url) = file(record) else { return false }
        if isTake { BuildWork.count(\.takesHashed) }
        return (try? SHA256.hex(fileAt: url)) == expected
    }

    /// By the files' bytes: the set is fresh (`Freshness`) against these recordings and output
    /// settings, with these copies, and every file it lists hashes to what it says.
    public func currentSet(in output: URL, for recordings: HashedRecordings, configurationHash: String, copies: Set<String>) -> Manifest? {
        // A recording the record knows with another sha256 answers it without reading the manifest.
        if let record, record.configurationHash == configurationHash,
            recordings.items.contains(where: { item in record.recordings[item.recording.fileName].map { $0.sha256 != item.sha256 } ?? false })
        {
            return nil
        }
        let hashes = Dictionary(recordings.items.map { ($0.recording.fileName, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        // A set with a link for its manifest, its Sounds folder or a clip is not the set, whatever the link points to.
        let manifestURL = output.appendingPathComponent(SoundSetLayout.manifestName)
        guard SetLink.links(in: output).isEmpty, let manifest = try? ManifestFiles.load(from: manifestURL),
            Freshness.isFresh(manifest, settingsHash: configurationHash, recordings: hashes)
        else { return nil }
        // A file grown past what an app's extension reads (padded, say) while the build writes it
        // smaller is written again: the app would refuse it.
        if let size = try? RegularFile.head(manifestURL, count: 0).size, size > Manifest.maxBytes, size != (try? ManifestFiles.bytes(of: manifest))?.count {
            return nil
        }
        let recorded = Dictionary(manifest.clips.map { ($0.source.file, $0) }, uniquingKeysWith: { a, _ in a })
        var expected = Set<String>()
        for item in recordings.items {
            guard let clip = recorded[item.recording.fileName], clip.name == item.recording.name,
                (clip.copy != nil) == copies.contains(item.recording.name)
            else { return nil }
            expected.insert(clip.file)
            if let copy = clip.copy { expected.insert(copy) }
        }
        guard Set(OutputFolder.clipFiles(in: sounds)) == expected else { return nil }
        for clip in manifest.clips {
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                guard (try? SHA256.hex(fileAt: sounds.appendingPathComponent(file, isDirectory: false))) == clip.sha256 else { return nil }
            }
        }
        return manifest
    }

    // MARK: Recordings and prepared clips

    func header(of fileName: String, stamp: FileStamp) -> SoundFileInfo? {
        guard let record, let fact = record.recordings[fileName], stamp.proves(fact.stamp, stampedAt: record.recordingsStampedAt) else { return nil }
        return fact.header
    }

    public func sha256(of recording: Recording, stamp: FileStamp) -> String? {
        guard let record, let fact = record.recordings[recording.fileName], stamp.proves(fact.stamp, stampedAt: record.recordingsStampedAt) else {
            return nil
        }
        return fact.sha256
    }

    public func summary(of recording: Recording, sha256: String, key: String) -> ClipSummary? {
        guard let (stored, _) = ClipEntry.summary(at: entryURL(key), key: key, sourceSHA256: sha256) else { return nil }
        return ClipSummary(
            recording: recording, sourceSHA256: sha256, key: key, region: stored.region, measurement: stored.measurement,
            analysis: stored.analysis, sampleCount: stored.sampleCount)
    }

    public func preparedClip(_ summary: ClipSummary) -> PreparedClip? {
        ClipEntry.clip(at: entryURL(summary.key), summary: summary, key: summary.key)
    }

    /// Writes the entry in place: a build killed mid-write leaves an entry whose checksum fails, which
    /// is then made again (writing aside and renaming would cost a second file per entry).
    @discardableResult public func remember(_ clip: PreparedClip) -> Bool {
        guard prepareFolder(), let data = ClipEntry.encode(clip, key: clip.summary.key) else { return false }
        let url = entryURL(clip.summary.key)
        do { try RegularFile.write(data, to: url) } catch {
            RegularFile.remove(url)
            return false
        }
        return true
    }

    // MARK: Finishing

    public func limiting(of clip: ClipSummary, at level: Double) -> Double? {
        record?.probes[BuildRecord.probeKey(clip.key, level: level)]
    }

    public func finishedFile(of clip: ClipSummary, named fileName: String, at level: Double) -> ReusedFile? {
        guard let record, let fact = record.finished[fileName], fact.key == clip.key, fact.figures.levelBits == level.bitPattern,
            let output = record.outputs["\(SoundSetLayout.soundsName)/\(fileName)"]
        else { return nil }
        let url = sounds.appendingPathComponent(fileName, isDirectory: false)
        // Never a link, nor a file through a linked Sounds folder: the file placed is the set's own.
        guard let stamp = soundsStamps[fileName], stamp == output.stamp else { return nil }
        // Stamped in the tick it was written: its bytes are checked instead.
        if !stamp.proves(output.stamp, stampedAt: record.outputsStampedAt) {
            guard (try? SHA256.hex(fileAt: url)) == fact.figures.sha256 else { return nil }
        }
        return ReusedFile(summary: clip, figures: fact.figures, url: url)
    }

    /// The stamps of the regular files in the output folder's `Sounds` (a link has none), by file
    /// name, taken once, when a build first asks of a finished file: the folder does not change
    /// under the build's lock until its commit, and each stamp is still checked against the
    /// record's. Empty when `Sounds` is a link.
    private var soundsStamps: [String: FileStamp] {
        lock.withLock {
            if let stamped = stampedSounds { return stamped }
            var stamped: [String: FileStamp] = [:]
            if !SetLink.isLink(sounds) {
                // Paths joined as strings: a URL per file costs more than its stat.
                let folder = sounds.path
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                    stamped[name] = FileStamp(path: folder + "/" + name, followingLinks: false)
                }
            }
            stampedSounds = stamped
            return stamped
        }
    }

    // MARK: After a build

    /// Keeps the build's findings: the record (stamps of the recordings and of the output folder as
    /// it is now, with the times they were taken; what each clip file holds; the level search's
    /// tries, the last record's included, which stay true), then drops entries of clips no longer in
    /// the set.
    public func remember(_ build: BuildFacts) {
        guard prepareFolder(), let outputs = Stamps.outputs(of: output), let stampedAt = FileTime.now(in: folder) else { return }
        let finished = build.finished ?? finishedFacts()
        var hashes: [String: String] = [:]
        for (name, fact) in finished {
            hashes["\(SoundSetLayout.soundsName)/\(name)"] = fact.figures.sha256
        }
        // Copies hold their original's bytes.
        for clip in build.manifest.clips {
            if let copy = clip.copy { hashes["\(SoundSetLayout.soundsName)/\(copy)"] = clip.sha256 }
            hashes["\(SoundSetLayout.soundsName)/\(clip.file)"] = clip.sha256
        }
        let manifestPath = SoundSetLayout.manifestName
        hashes[manifestPath] = try? SHA256.hex(fileAt: output.appendingPathComponent(manifestPath))
        var facts: [String: BuildRecord.OutputFact] = [:]
        for (path, stamp) in outputs {
            guard let sha = hashes[path] else { return }  // a file the set does not describe: record nothing
            facts[path] = BuildRecord.OutputFact(stamp: stamp, sha256: sha)
        }
        let record = BuildRecord(
            toolVersion: ToolVersion.current, configurationHash: build.configurationHash,
            recordings: build.recordings, outputs: facts, finished: finished, probes: probes.merging(build.probes) { _, new in new },
            recordingsStampedAt: build.recordingsStampedAt, outputsStampedAt: stampedAt)
        try? RegularFile.replace(recordURL, with: BuildRecordFile.encode(record))
        // soundset 0.10.1 and before kept the record as JSON: it answers nothing now.
        RegularFile.remove(folder.appendingPathComponent("build-\(output.lastPathComponent).json"))
        lock.withLock {
            loaded = .some(record)
            stampedSounds = nil  // the set was swapped: its files are others
        }
        prune(keeping: build.keys)
    }

    /// The last record's tries of the level search: facts about a clip at a level, still true.
    var probes: [String: Double] { record?.probes ?? [:] }

    /// The last record's facts about clip files in the output folder that are still there as recorded.
    func finishedFacts() -> [String: BuildRecord.FinishedFact] {
        guard let record, let outputs = Stamps.outputs(of: output) else { return [:] }
        return record.finished.filter { name, _ in
            let path = "\(SoundSetLayout.soundsName)/\(name)"
            return record.outputs[path].map { outputs[path] == $0.stamp } ?? false
        }
    }

    /// Removes every entry whose key is not in `keep`: only regular files that the memo wrote,
    /// recognised by name and header, never through a link.
    /// Keeps this build's entries and those the records of other output folders beside it name
    /// (`Output` and `Output-en` share the folder): a build of one never drops another's.
    func prune(keeping keys: Set<String>) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var kept = keys
        for name in names where name.hasPrefix("build-") && name.hasSuffix(".\(BuildRecordFile.fileExtension)") && name != recordURL.lastPathComponent {
            guard let data = try? RegularFile.read(folder.appendingPathComponent(name), maxBytes: 64 << 20, followingLinks: false),
                let other = BuildRecordFile.decode(data)
            else { continue }
            kept.formUnion(other.finished.values.map(\.key))
        }
        for name in names {
            guard name.hasSuffix(".\(ClipEntry.fileExtension)"), !kept.contains(String(name.dropLast(ClipEntry.fileExtension.count + 1))) else { continue }
            let url = folder.appendingPathComponent(name)
            if ClipEntry.isEntry(url) { RegularFile.remove(url) }
        }
    }

    private func prepareFolder() -> Bool { MemoFolder.prepare(folder) }
}
