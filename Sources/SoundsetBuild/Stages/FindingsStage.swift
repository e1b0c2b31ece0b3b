import Foundation
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Step 7: the set's findings, from what the earlier stages found (each clip's facts from the
/// prepare stage, the manifest, what the check's file-free parts say, what changed). It reads no
/// file and decodes no audio, so a build that finds the set up to date makes the same findings as
/// the build that made it, and prints the same warnings.
///
/// What only the whole set shows is a list of rules (`setRules`): each looks at every clip's facts
/// and the manifest and says which clips it notes. A new warning about the set (two takes that are
/// the same recording, say, from a fingerprint the prepare stage adds to `ClipAnalysis`) is one
/// more rule.
enum FindingsStage {
    /// What a rule sees: the set's clips' facts (by the manifest's order) and its manifest.
    struct SetView: Sendable {
        var clips: [ClipFacts]
        var manifest: Manifest
        /// Each clip's length in the set, seconds, by name.
        var seconds: [String: Double]
        /// The files that are one recording under two or more names (`SameRecordings`).
        var sameRecordings: [[String]] = []

        /// The clips that are words, not the announcement's prefix or suffix.
        var words: [ClipFacts] {
            let phrases = Set([manifest.announcement?.prefix, manifest.announcement?.suffix].compactMap { $0 })
            return clips.filter { !phrases.contains($0.name) }
        }
    }

    /// One rule over the whole set: the notes it adds, by clip name.
    typealias SetRule = @Sendable (SetView) -> [(clip: String, note: ClipNote)]

    /// The rules over the whole set, in the order their notes are said.
    static let setRules: [SetRule] = [longerThanMedian, farFromOthers, sameRecording, overCeiling]

    /// The findings of the set `manifest`.
    /// - Parameters:
    ///   - facts: each clip's facts as the prepare stage found them (with the take's own notes).
    ///   - check: what the check's file-free parts say of the set.
    ///   - changes: what changed against the set before, or nil when nothing was compared.
    ///   - known: what the same-recording check decided before (the memo's), so that only pairs
    ///     with a take not decided before are compared.
    /// - Returns: the findings, and the same-recording check's verdicts on every pair of the set's
    ///   takes (for the memo) with how many pairs it compared now.
    static func run(
        manifest: Manifest, facts: [ClipFacts], check: CheckReport, changes: BuildChanges?, known: SameRecordings.Verdicts? = nil
    ) -> (findings: SetFindings, sameRecordings: SameRecordings.Outcome) {
        let byName = Dictionary(facts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let ordered = manifest.clips.compactMap { byName[$0.name] }
        let seconds = Dictionary(manifest.clips.map { ($0.name, $0.seconds) }, uniquingKeysWith: { a, _ in a })
        let same = SameRecordings.find(ordered.compactMap { clip in clip.fingerprint.map { (clip.sourceFile, $0) } }, known: known)
        BuildWork.count(\.fingerprintsCompared, same.compared)
        var view = SetView(clips: ordered, manifest: manifest, seconds: seconds)
        view.sameRecordings = same.groups
        var added: [String: [ClipNote]] = [:]
        for rule in setRules {
            for (clip, note) in rule(view) { added[clip, default: []].append(note) }
        }
        let clips = ordered.map { SetFindings.Clip(facts: $0, notes: $0.notes + (added[$0.name] ?? [])) }
        return (SetFindings(clips: clips, check: check, changes: changes), same)
    }

    /// The median of `values`, 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    // MARK: The rules

    /// A word over twice the median word's length: two words in one take, or a long tail.
    static let longerThanMedian: SetRule = { view in
        let words = view.words
        let median = Self.median(words.map { view.seconds[$0.name] ?? 0 })
        guard median > 0 else { return [] }
        return words.compactMap { clip in
            let seconds = view.seconds[clip.name] ?? 0
            return seconds > 2 * median ? (clip.name, .longerThanMedian(seconds: seconds, median: median)) : nil
        }
    }

    /// A take recorded more than 10 LU from the median take: the microphone's gain was off.
    static let farFromOthers: SetRule = { view in
        let median = Self.median(view.clips.map(\.loudness).filter(\.isFinite))
        return view.clips.compactMap { clip in
            guard clip.loudness.isFinite, abs(clip.loudness - median) > 10 else { return nil }
            return (clip.name, .farFromOthers(lu: abs(clip.loudness - median), quieter: clip.loudness < median))
        }
    }

    /// Two or more names of one recording: a take saved twice (8.wav as 7.wav too), which the set
    /// would play for both words. A warning, not an error: a designer may copy a take as a placeholder.
    static let sameRecording: SetRule = { view in
        view.sameRecordings.compactMap { files in
            view.clips.first { $0.sourceFile == files[0] }.map { ($0.name, .sameRecording(files: files)) }
        }
    }

    /// A file whose true peak is over the ceiling after all (the level stage limits every clip with
    /// the headroom its encoding needs, so this says the bound failed).
    static let overCeiling: SetRule = { view in
        let ceiling = view.manifest.loudness.truePeakCeiling
        return view.manifest.clips.compactMap { clip in
            clip.truePeak > ceiling
                ? (clip.name, .overCeiling(truePeak: clip.truePeak, encoding: view.manifest.encoding.rawValue, ceiling: ceiling)) : nil
        }
    }
}
