import Foundation
import SoundsetAudio

/// Which takes are the same recording under two or more names, from their fingerprints: what the
/// findings stage notes and `soundset check` says, worked out in one place, at a cost that grows
/// with what changed rather than with the square of the pack.
///
/// - Takes with identical fingerprints are one fingerprint (a file saved twice costs nothing).
/// - Pairs of fingerprints both decided before (`Verdicts`, which the memo keeps) are not compared
///   again: the verdict depends on the two fingerprints alone.
/// - A fingerprint not decided before is compared only with the candidates an index gives: takes
///   whose lengths are within 2 % (sorted by length) whose envelopes can correlate at 0.9 at all:
///   whatever the lag, the overlap's sum of products is at most that of the two envelopes' blocks
///   sorted (the rearrangement inequality), so a pair whose sorted envelopes fall short is one the
///   rule would reject, and no pair the rule accepts is left out. Each candidate pair is then
///   compared in full (`TakeFingerprint.Prepared.isSameRecording`).
/// - Every pair found the same is kept as an edge, not only the groups, so a take removed later
///   splits its group as a full comparison would.
package enum SameRecordings {
    /// The pairs decided so far: every fingerprint compared (by its digest), and the pairs among them
    /// that are one recording. Any two of `takes` not in `same` were found different.
    struct Verdicts: Codable, Sendable, Equatable {
        /// The fingerprints' digests, sorted.
        var takes: [String] = []
        /// The pairs found the same, each as two digests in order, sorted.
        var same: [[String]] = []
    }

    /// The groups, the verdicts of every pair of the takes given, and how many pairs were compared now.
    struct Outcome: Sendable {
        /// The groups of files that are one recording, each sorted by file name, sorted by their first.
        var groups: [[String]]
        var verdicts: Verdicts
        var compared: Int
    }

    /// The rule's version, kept with the verdicts: verdicts decided by another rule are not reused.
    static let ruleVersion = 2

    /// The groups of files that are one recording, with nothing decided before (the check's).
    package static func groups(_ takes: [(file: String, fingerprint: TakeFingerprint)]) -> [[String]] {
        find(takes, known: nil).groups
    }

    /// The groups of `takes`, comparing only what `known` has not decided.
    static func find(_ takes: [(file: String, fingerprint: TakeFingerprint)], known: Verdicts?) -> Outcome {
        // One entry per distinct fingerprint, with the files that have it.
        var byDigest: [String: Int] = [:]
        var prints: [Print] = []
        for take in takes {
            let digest = Self.digest(take.fingerprint)
            if let index = byDigest[digest] {
                prints[index].files.append(take.file)
            } else {
                byDigest[digest] = prints.count
                prints.append(Print(digest: digest, fingerprint: take.fingerprint, files: [take.file]))
            }
        }
        let decided = Set(known?.takes ?? [])
        var edges: [(Int, Int)] = []
        // Pairs decided before: their edges, when both are still here.
        for pair in known?.same ?? [] where pair.count == 2 {
            if let a = byDigest[pair[0]], let b = byDigest[pair[1]], decided.contains(pair[0]), decided.contains(pair[1]) { edges.append((a, b)) }
        }
        // Pairs with a fingerprint not decided before: candidates from the index, compared in full.
        let order = prints.indices.sorted {
            (prints[$0].fingerprint.values.count, prints[$0].digest) < (prints[$1].fingerprint.values.count, prints[$1].digest)
        }
        let counts = order.map { prints[$0].fingerprint.values.count }
        var features: [Int: Features] = [:]
        func feature(_ index: Int) -> Features {
            if let known = features[index] { return known }
            let made = Features(prints[index].fingerprint)
            features[index] = made
            return made
        }
        var compared = 0
        for (position, index) in order.enumerated() where !decided.contains(prints[index].digest) {
            let count = Double(counts[position])
            // Every take within 2 % of this one's length, either way (sorted by length).
            var low = position
            while low > 0, count - Double(counts[low - 1]) <= TakeFingerprint.sameLengthShare * count { low -= 1 }
            var high = position
            while high + 1 < order.count, Double(counts[high + 1]) - count <= TakeFingerprint.sameLengthShare * Double(counts[high + 1]) { high += 1 }
            let mine = feature(index)
            for other in low...high where other != position {
                let otherIndex = order[other]
                // A pair of two new fingerprints is looked at once, from the first by length.
                if !decided.contains(prints[otherIndex].digest), other < position { continue }
                guard mine.isCandidate(feature(otherIndex)) else { continue }
                compared += 1
                if mine.prepared.isSameRecording(as: feature(otherIndex).prepared) { edges.append((index, otherIndex)) }
            }
        }
        // Union-find over the fingerprints; a fingerprint's own files are one recording when it is one at all.
        var parent = Array(prints.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for (a, b) in edges where root(a) != root(b) { parent[root(b)] = root(a) }
        var members: [Int: [String]] = [:]
        // A silent fingerprint is the same recording as nothing, not even its own copy.
        for index in prints.indices where Self.isUsable(prints[index].fingerprint) {
            members[root(index), default: []] += prints[index].files
        }
        let groups = members.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
        let same = edges.map { pair in [prints[pair.0].digest, prints[pair.1].digest].sorted() }
        let verdicts = Verdicts(takes: prints.map(\.digest).sorted(), same: Array(Set(same)).sorted { $0.lexicographicallyPrecedes($1) })
        return Outcome(groups: groups, verdicts: verdicts, compared: compared)
    }

    /// A distinct fingerprint and the files that have it.
    private struct Print {
        var digest: String
        var fingerprint: TakeFingerprint
        var files: [String]
    }

    /// The digest of a fingerprint (its rate and values): what a verdict is kept under.
    static func digest(_ fingerprint: TakeFingerprint) -> String {
        var bytes = Data("\(fingerprint.rate):".utf8)
        fingerprint.values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        return SHA256.hex(bytes)
    }

    /// Whether a fingerprint can be the same recording as itself: not empty, not silent.
    private static func isUsable(_ fingerprint: TakeFingerprint) -> Bool {
        fingerprint.values.contains { $0 != 0 }
    }

    /// What the index looks at: the fingerprint ready to compare, and its envelope's blocks sorted
    /// from the loudest, scaled to unit energy.
    private struct Features {
        let prepared: TakeFingerprint.Prepared
        let sorted: [Double]

        init(_ fingerprint: TakeFingerprint) {
            prepared = TakeFingerprint.Prepared(fingerprint)
            let norm = prepared.envelope.reduce(0) { $0 + $1 * $1 }.squareRoot()
            sorted = norm > 0 ? prepared.envelope.sorted(by: >).map { $0 / norm } : []
        }

        /// Whether the envelopes can correlate at `TakeFingerprint.envelopeCorrelation` at any lag:
        /// the sorted blocks' sum of products bounds every lag's (less a hair, for rounding).
        func isCandidate(_ other: Features) -> Bool {
            var sum = 0.0
            for index in 0..<min(sorted.count, other.sorted.count) { sum += sorted[index] * other.sorted[index] }
            return sum >= TakeFingerprint.envelopeCorrelation * (1 - 1e-9)
        }
    }
}
