import SoundsetAudio

/// Which takes are the same recording under two or more names, from their fingerprints: what the
/// findings stage notes and `soundset check` says, worked out in one place.
enum SameRecordings {
    /// The groups of files that are one recording, each sorted by file name, sorted by their
    /// first; files in no group are left out. Only takes whose lengths are within 2 % are compared
    /// (sorted by length, each against the next ones until they are too long), each pair first by
    /// its envelope (`TakeFingerprint.isSameRecording`).
    static func groups(_ takes: [(file: String, fingerprint: TakeFingerprint)]) -> [[String]] {
        let sorted = takes.sorted { ($0.fingerprint.values.count, $0.file) < ($1.fingerprint.values.count, $1.file) }
        // Union-find over the sorted takes.
        var parent = Array(sorted.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        for first in sorted.indices {
            let length = Double(sorted[first].fingerprint.values.count)
            var second = first + 1
            while second < sorted.count,
                Double(sorted[second].fingerprint.values.count) - length <= TakeFingerprint.sameLengthShare * Double(sorted[second].fingerprint.values.count)
            {
                if root(first) != root(second), sorted[first].fingerprint.isSameRecording(as: sorted[second].fingerprint) {
                    parent[root(second)] = root(first)
                }
                second += 1
            }
        }
        let grouped = Dictionary(grouping: sorted.indices, by: root).values
        return grouped.filter { $0.count > 1 }.map { $0.map { sorted[$0].file }.sorted() }.sorted { $0[0] < $1[0] }
    }
}
