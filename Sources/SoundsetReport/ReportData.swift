import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// What the report is drawn from, and nothing else: the set (its manifest and the folder of its
/// clip files), the build's findings, the settings, and the clips' drawings the build kept. The
/// report never reads the recordings, the memo or the preparer: what it needs of a recording is in
/// the findings and its envelope.
package struct ReportInput: Sendable {
    package var manifest: Manifest
    /// The set's clip files (a staging folder's, when the build writes the report).
    package var sounds: URL
    /// How the set's folder is named in messages, e.g. `Output`.
    package var outputDisplay: String
    package var findings: SetFindings
    package var configuration: Configuration
    /// Drawings the build kept, by `ClipDrawing.key`.
    package var drawings: [String: ClipDrawing]
    /// The recordings' envelopes, by clip name, for the clips whose drawing is not kept.
    package var envelopes: [String: ClipEnvelope]
    /// When set, the page reloads itself that often (a build that watches).
    package var refreshSeconds: Int?
    /// Clips drawn at once.
    package var jobs: Int

    package init(
        manifest: Manifest, sounds: URL, outputDisplay: String, findings: SetFindings, configuration: Configuration, drawings: [String: ClipDrawing],
        envelopes: [String: ClipEnvelope], refreshSeconds: Int?, jobs: Int
    ) {
        self.manifest = manifest
        self.sounds = sounds
        self.outputDisplay = outputDisplay
        self.findings = findings
        self.configuration = configuration
        self.drawings = drawings
        self.envelopes = envelopes
        self.refreshSeconds = refreshSeconds
        self.jobs = jobs
    }
}

/// Everything the report shows about one clip.
struct ClipReport: Sendable {
    var facts: ClipFacts
    /// Everything noted of the clip (`SetFindings.Clip.notes`).
    var notes: [ClipNote]
    var clip: Manifest.Clip
    var drawing: ClipDrawing
    /// Where the clip's player gets its sound: the clip's file, put into the page as a WAV when
    /// the page is written (`ClipAudio`), one clip at a time.
    var audio: ClipAudio

    var name: String { clip.name }
    var sourceFile: String { facts.sourceFile }
    var sourceRate: Int { facts.sourceRate }
    var sourceSeconds: Double { facts.sourceSeconds }
    /// The kept region and the sound inside it, as fractions of the recording's length.
    var keep: ClosedRange<Double> {
        let frames = Double(max(1, facts.sourceFrames))
        return Double(facts.region.keepStart) / frames...Double(facts.region.keepEnd) / frames
    }
    var sound: ClosedRange<Double> {
        let frames = Double(max(1, facts.sourceFrames))
        return Double(facts.region.soundStart) / frames...Double(facts.region.soundEnd) / frames
    }
    var outputSeconds: Double { clip.seconds }
    var loudnessBefore: Double { facts.loudness }
    var noiseFloorDb: Double { facts.region.noiseFloorDb }
    var warnings: [String] { notes.map(\.message) }
}

/// A sample announcement as the phone plays it (`PlayedAnnouncement`), and its preview.
struct AnnouncementSample: Sendable {
    var plan: AnnouncementPlan
    /// A preview WAV (`Preview`), in base64.
    var preview: String
    var previewRate: Int
    /// How what plays differs from the whole announcement, in one line, or nil.
    var note: String?
}

/// The report's content, made from a `ReportInput`.
struct ReportData: Sendable {
    var manifest: Manifest
    var setID: String
    var configuration: Configuration
    var clips: [ClipReport]
    var announcements: [AnnouncementSample]
    var announcementProblems: [String]
    var check: CheckReport
    /// What changed since the set before, when the build compared it: its clips that changed get a badge.
    var changes: BuildChanges?

    /// The page's content from `input`: each clip with its drawing (kept, or drawn now from its
    /// envelope and its file), and the sample announcements composed from the set's files. Returns
    /// the drawings made now, for the build to keep.
    /// - Throws: `BuildProblem` naming a clip file that cannot be read, or a clip without a
    ///   drawing or an envelope.
    static func make(_ input: ReportInput) throws -> (data: ReportData, drawn: [String: ClipDrawing]) {
        let manifest = input.manifest
        let found = Dictionary(input.findings.clips.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let soundsDisplay = "\(input.outputDisplay)/\(SoundSetLayout.soundsName)"
        /// A clip's file in the set, as the page plays it and as messages name it.
        @Sendable func audio(_ clip: Manifest.Clip) -> ClipAudio {
            ClipAudio(file: input.sounds.appendingPathComponent(clip.file), display: "\(soundsDisplay)/\(ClipName.printable(clip.file))")
        }
        let drawn = try manifest.clips.parallelMap(maxConcurrency: input.jobs) { clip throws -> (key: String, drawing: ClipDrawing, new: Bool) in
            let key = ClipDrawing.key(clip)
            if let known = input.drawings[key] { return (key, known, false) }
            let audio = audio(clip)
            guard let envelope = input.envelopes[clip.name] else {
                throw BuildProblem(audio.display, ReportProblem.noDrawing)
            }
            return (key, try ClipDrawing.draw(try audio.bytes(), source: envelope, displayPath: audio.display), true)
        }
        var clips: [ClipReport] = []
        for (clip, drawing) in zip(manifest.clips, drawn) {
            let audio = audio(clip)
            guard let known = found[clip.name] else { throw BuildProblem(audio.display, ReportProblem.noFindings) }
            clips.append(ClipReport(facts: known.facts, notes: known.notes, clip: clip, drawing: drawing.drawing, audio: audio))
        }

        var announcements: [AnnouncementSample] = []
        var problems: [String] = []
        for amount in ReportSamples.amounts(configuration: input.configuration, manifest: manifest) {
            do {
                let sample = try ReportSamples.compose(amount, manifest: manifest, sounds: input.sounds)
                let preview = Preview.wav(sample.samples, rate: manifest.sampleRate, toward: Preview.announcementRate)
                announcements.append(
                    AnnouncementSample(plan: sample.plan, preview: preview.bytes.base64EncodedString(), previewRate: preview.rate, note: sample.note))
            } catch {
                problems.append("\(amount): \(error)")
            }
        }
        let data = ReportData(
            manifest: manifest, setID: SoundSet(manifest: manifest, folder: input.sounds.deletingLastPathComponent()).id,
            configuration: input.configuration, clips: clips, announcements: announcements, announcementProblems: problems,
            check: input.findings.check, changes: input.findings.changes)
        return (data, Dictionary(drawn.filter(\.new).map { ($0.key, $0.drawing) }, uniquingKeysWith: { a, _ in a }))
    }
}

/// A clip's sound in the page: its file in the set, read when the page is written and put in as a
/// WAV of the same samples (`Preview.clipWAV`), in base64. The page's text holds a mark where each
/// goes (`ReportPage.audioMark`), so a set's clips are never all in memory at once, as text.
struct ClipAudio: Sendable {
    var file: URL
    /// How the file is named in messages, e.g. `Output/Sounds/7.caf`.
    var display: String

    /// The clip file's bytes.
    /// - Throws: `BuildProblem` naming the file when it cannot be read.
    func bytes() throws(BuildProblem) -> Data {
        do { return try RegularFile.read(file, maxBytes: Composer.maxClipBytes) } catch {
            throw BuildProblem(display, ReportProblem.unreadable(reason: error.reason))
        }
    }

    /// The clip as its player plays it: a WAV of its samples, in base64.
    /// - Throws: `BuildProblem` naming the file when it cannot be read or is no sound file.
    func base64WAV() throws(BuildProblem) -> Data {
        let bytes = try bytes()
        do { return try Preview.clipWAV(bytes, name: display).base64EncodedData() } catch {
            throw BuildProblem(display, ReportProblem.unreadable(reason: "\(error)"))
        }
    }
}
