import Foundation
import SoundsetAudio
import SoundsetRuntime
import SoundsetSetFolder

/// What the findings know of one clip beyond its manifest entry: its recording, as the prepare
/// stage analysed it, and what a designer should know of it.
public struct ClipFacts: Codable, Sendable, Equatable {
    public var name: String
    /// The recording's file name in the assets folder.
    public var sourceFile: String
    public var sourceRate: Int
    public var sourceFrames: Int
    /// Where the trimmer found the word, in the recording's frames, and its noise floor.
    public var region: TrimRegion
    /// The clip's loudness as prepared, before any gain, LUFS.
    public var loudness: Double
    /// What the prepare stage noted of the take alone.
    public var notes: [ClipNote]
    /// The trimmed take, small: what tells two names of one recording (`TakeFingerprint`). Not
    /// kept with the findings (a set found up to date keeps its notes; the memo keeps the verdicts).
    public var fingerprint: TakeFingerprint?

    private enum CodingKeys: String, CodingKey { case name, sourceFile, sourceRate, sourceFrames, region, loudness, notes }

    public var sourceSeconds: Double { sourceRate > 0 ? Double(sourceFrames) / Double(sourceRate) : 0 }

    package init(
        name: String, sourceFile: String, sourceRate: Int, sourceFrames: Int, region: TrimRegion, loudness: Double, notes: [ClipNote],
        fingerprint: TakeFingerprint? = nil
    ) {
        self.fingerprint = fingerprint
        self.name = name
        self.sourceFile = sourceFile
        self.sourceRate = sourceRate
        self.sourceFrames = sourceFrames
        self.region = region
        self.loudness = loudness
        self.notes = notes
    }
}

/// Everything the build found out about the set, made by one stage (`FindingsStage`) whether the
/// set was built now or found up to date: each clip's facts and notes, what the check's file-free
/// parts say, and what changed since the set before. The build prints its warnings, the report
/// draws it, the memo keeps it.
public struct SetFindings: Codable, Sendable, Equatable {
    /// One clip's facts, and everything noted of it.
    public struct Clip: Codable, Sendable, Equatable {
        public var facts: ClipFacts
        /// The take's own notes, then the set's, then its file's.
        public var notes: [ClipNote]

        package init(facts: ClipFacts, notes: [ClipNote]) {
            self.facts = facts
            self.notes = notes
        }

        public var name: String { facts.name }
    }

    /// Each clip's facts and notes, in the manifest's order.
    public var clips: [Clip]
    /// What the check's file-free parts say of the set (`Checker.setCheck`).
    public var check: CheckReport
    /// What changed against the set the building replaced, or nil when there was none to compare.
    public var changes: BuildChanges?

    package init(clips: [Clip], check: CheckReport, changes: BuildChanges?) {
        self.clips = clips
        self.check = check
        self.changes = changes
    }

    /// What the build prints, in this order: each clip's notes (about its recording in the assets
    /// folder, or about its file), then what the check will say, in the check's words.
    public func warnings(manifest: Manifest, assetsDisplay: String, outputDisplay: String) -> [BuildProblem] {
        let files = Dictionary(manifest.clips.map { ($0.name, $0.file) }, uniquingKeysWith: { a, _ in a })
        var warnings: [BuildProblem] = []
        for clip in clips {
            for note in clip.notes {
                if case .sameRecording(let names) = note {
                    // One sentence that names every file, not one of them.
                    warnings.append(.sentence(ClipNote.sameRecording(names.map { "\(assetsDisplay)/\(ClipName.printable($0))" })))
                    continue
                }
                let subject =
                    note.isAboutTheFile
                    ? "\(outputDisplay)/\(SoundSetLayout.soundsName)/\(ClipName.printable(files[clip.name] ?? clip.name))"
                    : "\(assetsDisplay)/\(ClipName.printable(clip.facts.sourceFile))"
                warnings.append(BuildProblem(subject, note.message))
            }
        }
        return warnings + check.problems.map { BuildProblem($0.subject, $0.message) }
    }
}
