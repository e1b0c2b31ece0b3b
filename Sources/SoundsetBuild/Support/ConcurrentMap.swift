extension Sequence where Element: Sendable {
    /// Maps on up to `maxConcurrency` tasks at once and returns the results in input order.
    /// Checks for cancellation before starting each element.
    func concurrentMap<Result: Sendable>(
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
