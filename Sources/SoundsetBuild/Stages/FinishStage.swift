import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Step 4, second half: every clip at the level the level stage decided, limited under its ceiling
/// (the level stage has finished them all while holding every clip to the level).
enum FinishStage {
    static func run(
        _ prepared: PreparedSet, decision: LevelDecision, configuration: Configuration, memo: any BuildMemo, loader: ClipLoader, jobs: Int
    ) async throws -> FinishedSet {
        let round = try await finish(
            prepared.entries, at: decision.level.level, ceilingDb: decision.limiterCeilingDb, after: decision.lastRound,
            configuration: configuration, memo: memo, loader: loader, jobs: jobs)
        return FinishedSet(level: decision.level, clips: prepared.entries.map { round.clips[$0.summary.name]! })
    }

    /// `entries` finished at `level`, limited under `ceilingDb`: as in `last` when it was at the
    /// same level, else the last build's file when the memo has one, else finished now.
    static func finish(
        _ entries: [PreparedSet.Entry], at level: Double, ceilingDb: Double, after last: FinishedRound?, configuration: Configuration,
        memo: any BuildMemo, loader: ClipLoader, jobs: Int
    ) async throws -> FinishedRound {
        let known = last.flatMap { $0.level == level ? $0.clips : nil } ?? [:]
        let results = try await entries.concurrentMap(maxConcurrency: jobs) { entry -> FinishedEntry in
            let summary = entry.summary
            if let done = known[summary.name] { return done }
            let fileName = ClipFiles.fileName(summary.name, configuration)
            if let file = memo.finishedFile(of: summary, named: fileName, at: level) { return .reused(file) }
            let clip = try loader.load(entry)
            do {
                return .made(try ClipFinisher.finish(clip, level: level, ceilingDb: ceilingDb, sampleRate: configuration.sampleRate))
            } catch {
                throw BuildProblem(summary.recording.displayPath, "cannot be finished: \(error)")
            }
        }
        return FinishedRound(level: level, clips: Dictionary(results.map { ($0.summary.name, $0) }, uniquingKeysWith: { a, _ in a }))
    }
}
