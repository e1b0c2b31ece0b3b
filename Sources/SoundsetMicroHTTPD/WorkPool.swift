import Foundation

/// A fixed number of threads running jobs first come, first served: the handler's work (composing
/// and encoding new announcements), apart from libmicrohttpd's threads, which meanwhile accept connections and answer
/// everything that needs no work. The queue is bounded by the connections: each has at most one
/// job in it (its connection is suspended until the job is done).
final class WorkPool: @unchecked Sendable {
    // @unchecked: `jobs`, `running` and `closed` are only read and written holding `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var running = 0
    private var closed = false
    private var threads: [Thread] = []

    /// One job: `work` to run, or `abandon` in its place once the pool is closing.
    struct Job {
        var work: () -> Void
        var abandon: () -> Void
    }

    init(threads count: Int, name: String) {
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in loop() }
            thread.name = "\(name)-\(index)"
            threads.append(thread)
            thread.start()
        }
    }

    /// Queues `work`; once the pool is closing, `abandon` runs instead (at once, on this thread, or
    /// on a worker for a job already queued).
    func submit(_ work: @escaping () -> Void, abandon: @escaping () -> Void) {
        condition.lock()
        guard !closed else {
            condition.unlock()
            abandon()
            return
        }
        jobs.append(Job(work: work, abandon: abandon))
        condition.signal()
        condition.unlock()
    }

    /// Jobs queued or running.
    var pending: Int { condition.withLock { jobs.count - head + running } }

    /// Stops taking jobs: each queued one is abandoned, the running ones finish; returns once every
    /// worker has ended.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
        while threads.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.002) }
    }

    private func loop() {
        while true {
            condition.lock()
            while head == jobs.count && !closed { condition.wait() }
            guard head < jobs.count else {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head > 1024 && head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            let abandoning = closed
            running += 1
            condition.unlock()
            if abandoning { job.abandon() } else { job.work() }
            condition.withLock { running -= 1 }
        }
    }
}
