import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime

/// Step 4, first half, and the one place the set's level is decided: the target, unless a clip
/// would then need more limiting than allowed; then the highest level at which none does, searched
/// on the peakiest clips (the same few whatever the number of jobs) and then held to by every clip,
/// each finished under the ceiling less the headroom its encoding needs. A try holds the samples of
/// the few clips it finishes; a round over the whole set encodes each clip as soon as it is
/// finished (`ClipFileWriter`) and keeps its figures and its file only.
enum LevelStage {
    /// Clips the search finishes at each level it tries: the ones with the most true peak above loudness.
    static let probes = 8
    /// Times the level is lowered again when a clip the search did not try needs more limiting
    /// than allowed at the level found (the third round's clips stand, matching the level recorded).
    static let checks = 2

    static func decide(
        _ prepared: PreparedSet, configuration: Configuration, memo: any BuildMemo, loader: ClipLoader, writer: ClipFileWriter, jobs: Int
    ) async throws -> LevelDecision {
        let summaries = prepared.entries.map(\.summary)
        var level = SetLevel.decide(
            peakToLoudness: summaries.map { ($0.name, $0.peakToLoudness) }, target: configuration.loudness.target,
            ceiling: configuration.loudness.truePeak, maxReductionDb: configuration.limiter.maxReductionDb)
        let headroom = QuantizationHeadroom.decibels(
            for: configuration.encoding, ceilingDb: configuration.loudness.truePeak, sampleRate: configuration.sampleRate)
        var decision = LevelDecision(level: level, limiterCeilingDb: configuration.loudness.truePeak - headroom, probes: [:], remembered: 0, lastRound: nil)
        // Sorted by index over the summaries read once (an entry's summary is a copy of its strings:
        // sorting the entries themselves read it twice a comparison, 5 % of a one-take rebuild's CPU).
        var probing = summaries.indices.sorted {
            (summaries[$0].peakToLoudness, summaries[$0].name) > (summaries[$1].peakToLoudness, summaries[$1].name)
        }.prefix(probes).map { prepared.entries[$0] }
        var search = LevelSearch(from: level.level, maxReductionDb: configuration.limiter.maxReductionDb)
        var isFirst = true
        while let tried = search.next {
            let results = try await probe(probing, at: tried, decision: &decision, configuration: configuration, memo: memo, loader: loader, jobs: jobs)
            // Every later try is lower, and the clips that needed the most limiting at the start hold
            // the level down: follow those two (every clip is held to the level below). They carry
            // their samples, and envelopes refined, into the next try.
            probing = results.map(\.entry)
            if isFirst {
                probing = results.sorted { ($0.limitingDb, $0.name) > ($1.limitingDb, $1.name) }.prefix(2).map(\.entry)
                isFirst = false
            }
            let worst = results.max { $0.limitingDb < $1.limitingDb }
            search.found(limitingDb: worst?.limitingDb ?? 0, clip: worst?.name ?? "")
        }
        if let (found, clip) = search.outcome { level.lower(to: found, because: clip) }

        // Every clip at the level: one the search did not try that needs more limiting than allowed
        // lowers the level by its excess, and every clip is finished again there.
        let allowed = configuration.limiter.maxReductionDb + LevelSearch.allowedExcess
        var round: FinishedRound
        var check = 0
        repeat {
            round = try await FinishStage.finish(
                prepared.entries, at: level.level, ceilingDb: decision.limiterCeilingDb, after: decision.lastRound, configuration: configuration,
                memo: memo, loader: loader, writer: writer, jobs: jobs)
            decision.lastRound = round
            let over = prepared.entries.compactMap { round.clips[$0.summary.name] }.filter { $0.limitingDb > allowed }
            guard check < checks, let worst = over.max(by: { $0.limitingDb < $1.limitingDb }) else { break }
            level.lower(to: level.level - (worst.limitingDb - configuration.limiter.maxReductionDb), because: worst.summary.name)
            check += 1
        } while true
        decision.level = level
        return decision
    }

    /// One probed clip at one level: its limiting, from the memo or finished now.
    struct Probe {
        var name: String
        var limitingDb: Double
        var entry: PreparedSet.Entry
    }

    /// The limiting of `clips` at `level`: the memo's tries, else each clip finished there.
    private static func probe(
        _ clips: [PreparedSet.Entry], at level: Double, decision: inout LevelDecision, configuration: Configuration, memo: any BuildMemo,
        loader: ClipLoader, jobs: Int
    ) async throws -> [Probe] {
        let unknown = clips.filter { memo.limiting(of: $0.summary, at: level) == nil }
        let round = try await FinishStage.finish(
            unknown, at: level, ceilingDb: decision.limiterCeilingDb, after: decision.lastRound, configuration: configuration, memo: memo,
            loader: loader, jobs: jobs)
        decision.lastRound = round
        decision.remembered += clips.count - unknown.count
        return clips.map { clip in
            let summary = clip.summary
            let probe =
                round.clips[summary.name].map { Probe(name: summary.name, limitingDb: $0.limitingDb, entry: $0.entry) }
                ?? Probe(name: summary.name, limitingDb: memo.limiting(of: summary, at: level)!, entry: clip)
            decision.probes[BuildRecord.probeKey(summary.key, level: level)] = probe.limitingDb
            return probe
        }
    }
}
