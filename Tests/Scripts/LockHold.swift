// make bench: how long the group's lock is held, compiled with the runtime's sources (so it can
// watch GroupLock's holds) by Tests/Scripts/bench.sh. Installs the set at SET_FOLDER into a fresh
// group folder, then decides 1,000 pushes (varied amounts, each with its own transaction id, 6 s
// apart on the announcer's clock, so the queue and the remembered ids fill as in a busy shop), and
// prints the longest hold of each, in milliseconds of the wall clock, and of the CPU the holding
// thread used (on a machine shared with other work, a hold's wall time includes the time the thread
// waited for a core).
// Usage: lock-hold SET_FOLDER GROUP_FOLDER
import Foundation

@main enum LockHold {
    static func main() throws {
        let set = try SoundSet(folder: URL(fileURLWithPath: CommandLine.arguments[1]))
        let group = GroupFolder(URL(fileURLWithPath: CommandLine.arguments[2]))
        let record = Holds()
        GroupLock.holdObserver = { record.add($0, cpu: $1) }

        try SoundSetInstaller.install(set, into: group, now: 1000)
        let (install, installCPU) = record.take()

        let announcer = Announcer(set: set, group: group)
        var random = SystemRandomNumberGenerator()
        var outcomes: [AnnouncementDecision.Outcome: Int] = [:]
        for index in 0..<1000 {
            let units = Int64.random(in: 1...99_999_999, using: &random)
            let decision = announcer.announce(AnnouncementRequest(amount: .minorUnits(units), transactionID: "tx-\(index)", arrival: 2000 + Double(index) * 6))
            outcomes[decision.outcome, default: 0] += 1
        }
        let (walls, cpus) = record.take()
        let sorted = walls.sorted()
        let share = { (fraction: Double) in sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1000 }
        print(
            String(
                format: "longest lock hold: fresh install of the set %.2f ms (CPU %.2f ms; %d holds)", (install.max() ?? 0) * 1000,
                (installCPU.max() ?? 0) * 1000, install.count))
        print(
            String(
                format: "longest lock hold: 1,000 decisions %.2f ms (CPU %.2f ms; 99th percentile %.2f ms, median %.2f ms, %d holds)",
                (sorted.last ?? 0) * 1000, (cpus.max() ?? 0) * 1000, share(0.99), share(0.5), sorted.count))
        print("  outcomes: " + outcomes.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", "))
        try saveCost(group)

        // The decisions' hold with the fullest list of ids the save step left (1,000).
        _ = record.take()
        for index in 0..<200 {
            let units = Int64.random(in: 1...99_999_999, using: &random)
            _ = announcer.announce(AnnouncementRequest(amount: .minorUnits(units), transactionID: "late-\(index)", arrival: 8001 + Double(index) * 4))
        }
        let (fullWalls, fullCPUs) = record.take()
        let fullSorted = fullWalls.sorted()
        print(
            String(
                format: "longest lock hold: 200 decisions with 1,000 ids kept %.2f ms (CPU %.2f ms; median %.2f ms)", (fullSorted.last ?? 0) * 1000,
                (fullCPUs.max() ?? 0) * 1000, fullSorted.isEmpty ? 0 : fullSorted[fullSorted.count / 2] * 1000))
    }

    /// The state's save alone, as every decision makes it (a new file, fsync, rename, fsync of the
    /// folder), for the queue the 1,000 pushes left and for the fullest list of ids (1,000), 200
    /// times each; and the decisions' hold with that full list (pushes 0.6 s apart, dedupeSeconds 600).
    static func saveCost(_ group: GroupFolder) throws {
        let open = try group.open()
        var full = try AnnouncementQueue.load(open, at: 8000).queue
        for index in 0..<AnnouncementQueue.maxTransactions { full.remember(AnnouncementQueue.hash("full-\(index)"), at: 8000 + Double(index) / 1000) }
        for (label, queue) in [("the queue the pushes left", try AnnouncementQueue.load(open, at: 8000).queue), ("1,000 ids", full)] {
            let bytes = try JSONEncoder().encode(queue).count
            var times: [Double] = []
            for _ in 0..<200 {
                let start = ProcessInfo.processInfo.systemUptime
                try queue.save(open)
                times.append(ProcessInfo.processInfo.systemUptime - start)
            }
            times.sort()
            var loads: [Double] = []
            for _ in 0..<200 {
                let start = ProcessInfo.processInfo.systemUptime
                _ = try AnnouncementQueue.load(open, at: 9000)
                loads.append(ProcessInfo.processInfo.systemUptime - start)
            }
            loads.sort()
            print(
                String(
                    format: "state save (new file, fsync, rename, fsync the folder), %@, %d bytes: median %.2f ms, 99th percentile %.2f ms; its load: median %.2f ms",
                    label, bytes, times[100] * 1000, times[198] * 1000, loads[100] * 1000))
        }
    }
}

/// The holds seen, in seconds of the wall clock and of CPU.
final class Holds: @unchecked Sendable {
    // @unchecked: the lists are read and written under `lock`.
    private let lock = NSLock()
    private var walls: [Double] = []
    private var cpus: [Double] = []
    func add(_ wall: Double, cpu: Double) {
        lock.withLock {
            walls.append(wall)
            cpus.append(cpu)
        }
    }
    func take() -> ([Double], [Double]) {
        lock.withLock {
            defer { (walls, cpus) = ([], []) }
            return (walls, cpus)
        }
    }
}
