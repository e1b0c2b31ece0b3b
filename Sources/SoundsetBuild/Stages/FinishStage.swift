import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// Step 4, second half: every clip at the level the level stage decided, limited under its ceiling
/// (the level stage has finished them all while holding every clip to the level, each encoded as
/// soon as it was finished).
enum FinishStage {
    static func run(
        _ prepared: PreparedSet, decision: LevelDecision, configuration: Configuration, memo: any BuildMemo, loader: ClipLoader,
        writer: ClipFileWriter, jobs: Int
    ) async throws -> FinishedSet {
        let round = try await finish(
            prepared.entries, at: decision.level.level, ceilingDb: decision.limiterCeilingDb, after: decision.lastRound,
            configuration: configuration, memo: memo, loader: loader, writer: writer, jobs: jobs)
        return FinishedSet(level: decision.level, clips: prepared.entries.map { round.clips[$0.summary.name]! })
    }

    /// `entries` finished at `level`, limited under `ceilingDb`: as in `last` when it was at the
    /// same level, else the last build's file when the memo has one, else finished now. With a
    /// `writer`, each clip finished is encoded at once and its samples let go (`.encoded`): a round
    /// over the whole set holds `jobs` clips' samples at a time; without, it keeps them (`.made`),
    /// for the level search's few.
    static func finish(
        _ entries: [PreparedSet.Entry], at level: Double, ceilingDb: Double, after last: FinishedRound?, configuration: Configuration,
        memo: any BuildMemo, loader: ClipLoader, writer: ClipFileWriter? = nil, jobs: Int
    ) async throws -> FinishedRound {
        let known = last.flatMap { $0.level == level ? $0.clips : nil } ?? [:]
        let results = try await entries.concurrentMap(maxConcurrency: jobs) { entry -> FinishedEntry in
            let summary = entry.summary
            if let done = known[summary.name] {
                guard let writer, case .made(let clip) = done else { return done }
                return .encoded(try writer.write(clip, level: level))
            }
            let fileName = ClipFiles.fileName(summary.name, configuration)
            if let file = memo.finishedFile(of: summary, named: fileName, at: level) { return .reused(file) }
            let clip = try loader.load(entry)
            let finished: FinishedClip
            do {
                finished = try ClipFinisher.finish(clip, level: level, ceilingDb: ceilingDb, sampleRate: configuration.sampleRate)
            } catch {
                throw BuildProblem(summary.recording.displayPath, StageProblem.unfinishable(reason: "\(error)"))
            }
            guard let writer else { return .made(finished) }
            return .encoded(try writer.write(finished, level: level))
        }
        return FinishedRound(level: level, clips: Dictionary(results.map { ($0.summary.name, $0) }, uniquingKeysWith: { a, _ in a }))
    }
}
