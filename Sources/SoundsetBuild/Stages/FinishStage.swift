import Foundation
import SoundsetAudio
import SoundsetRuntime

/// Step 4, second half: every clip brought to the level and limited; a clip that still needs more
/// limiting than allowed lowers the level by its excess, and every clip is finished again (twice at
/// most: the third round's files stand, matching the level recorded).
enum FinishStage {
    static func run(
        _ prepared: PreparedSet, decision: LevelDecision, configuration: Configuration, memo: any BuildMemo, loader: ClipLoader, jobs: Int
    ) async throws -> FinishedSet {
        var level = decision.level
        var last = decision.lastRound
        var round: FinishedRound
        var attempt = 0
        repeat {
            round = try await finish(prepared.entries, at: level.level, after: last, configuration: configuration, memo: memo, loader: loader, jobs: jobs)
            last = round
            let allowed = configuration.limiter.maxReductionDb + LevelSearch.allowedExcess
            let over = prepared.entries.compactMap { round.clips[$0.summary.name] }.filter { $0.limitingDb > allowed }
            guard attempt < 2, let worst = over.max(by: { $0.limitingDb < $1.limitingDb }) else { break }
            level.lower(to: level.level - (worst.limitingDb - configuration.limiter.maxReductionDb), because: worst.summary.name)
            attempt += 1
        } while true
        return FinishedSet(level: level, clips: prepared.entries.map { round.clips[$0.summary.name]! })
    }

    /// `entries` finished at `level`: as in `last` when it was at the same level, else the last
    /// build's file when the memo has one, else finished now.
    static func finish(
        _ entries: [PreparedSet.Entry], at level: Double, after last: FinishedRound?, configuration: Configuration, memo: any BuildMemo,
        loader: ClipLoader, jobs: Int
    ) async throws -> FinishedRound {
        let known = last.flatMap { $0.level == level ? $0.clips : nil } ?? [:]
        let results = try await entries.concurrentMap(maxConcurrency: jobs) { entry -> FinishedEntry in
            let summary = entry.summary
            if let done = known[summary.name] { return done }
            let fileName = ClipFiles.fileName(summary.name, configuration)
            if let file = memo.finishedFile(of: summary, named: fileName, at: level) { return .reused(file) }
            let clip = try loader.load(entry)
            do {
                return .made(
                    try ClipFinisher.finish(
                        clip, level: level, ceilingDb: configuration.loudness.truePeak - ClipEncoder.ceilingMargin, sampleRate: configuration.sampleRate))
            } catch {
                throw BuildProblem(summary.recording.displayPath, "cannot be finished: \(error)")
            }
        }
        return FinishedRound(level: level, clips: Dictionary(results.map { ($0.summary.name, $0) }, uniquingKeysWith: { a, _ in a }))
    }
}
