import Dispatch
import Foundation

extension Sequence where Element: Sendable {
    /// Maps on up to `maxConcurrency` tasks at once and returns the results in input order.
    /// Checks for cancellation before starting each element.
    package func concurrentMap<Result: Sendable>(
        maxConcurrency: Int, _ transform: @escaping @Sendable (Element) async throws -> Result
    ) async throws -> [Result] {
        let items = Array(self)
        return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: items.count)
            var next = 0
            func startNext() {
                let index = next
                let item = items[index]
                group.addTask {
                    try Task.checkCancellation()
                    return (index, try await transform(item))
                }
                next += 1
            }
            while next < Swift.min(items.count, Swift.max(1, maxConcurrency)) { startNext() }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < items.count { startNext() }
            }
            return results.map { $0! }
        }
    }
}

extension Array where Element: Sendable {
    /// Maps on up to `maxConcurrency` threads at once, for synchronous work (the report's clips),
    /// and returns the results in order; the first error thrown, by input order, is rethrown.
    package func parallelMap<Result: Sendable>(maxConcurrency: Int, _ transform: @Sendable (Element) throws -> Result) throws -> [Result] {
        let results = ParallelResults<Result>(count: count)
        let workers = Swift.min(count, Swift.max(1, maxConcurrency))
        withoutActuallyEscaping(transform) { transform in
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let index = results.nextIndex() { results.set(index, Swift.Result { try transform(self[index]) }) }
            }
        }
        return try results.values()
    }
}

/// Where `parallelMap`'s iterations leave their results.
private final class ParallelResults<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `slots` is guarded by `lock`.
    private let lock = NSLock()
    private var slots: [Result<Value, any Error>?]
    private var next = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next index no worker has taken, or nil when every one is taken.
    func nextIndex() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func set(_ index: Int, _ result: Result<Value, any Error>) { lock.withLock { slots[index] = result } }

    func values() throws -> [Value] { try lock.withLock { slots }.map { try $0!.get() } }
}
