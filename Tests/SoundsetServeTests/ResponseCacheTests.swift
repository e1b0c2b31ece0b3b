import Foundation
import Testing

@testable import SoundsetServe

@Suite struct ResponseCacheTests {
    private func entry(_ bytes: Int) -> ResponseCache.Entry { .init(body: ResponseBody(Data(count: bytes)), etag: "\"x\"") }

    @Test func leastRecentlyUsedGoesFirstWhenFull() {
        // Each entry is 100 bytes of body and a 1-byte key: three fit in 310, a fourth does not.
        let cache = ResponseCache(capacity: 310)
        cache.store(entry(100), for: "a")
        cache.store(entry(100), for: "b")
        cache.store(entry(100), for: "c")
        #expect(cache.bytes == 303)
        #expect(cache.entry("a") != nil)  // now the most recent
        cache.store(entry(100), for: "d")
        #expect(cache.keys == ["d", "a", "c"])
        #expect(cache.entry("b") == nil)
        #expect(cache.bytes == 303)
    }

    @Test func anEntryLargerThanTheCacheIsNotKeptAndEvictsNothing() {
        let cache = ResponseCache(capacity: 150)
        cache.store(entry(100), for: "a")
        cache.store(entry(200), for: "big")
        #expect(cache.keys == ["a"])
        let none = ResponseCache(capacity: 0)
        none.store(entry(1), for: "a")
        #expect(none.keys.isEmpty)
    }

    @Test func storingAgainReplacesAndCountsOnce() {
        let cache = ResponseCache(capacity: 1000)
        cache.store(entry(100), for: "a")
        cache.store(entry(300), for: "a")
        #expect(cache.keys == ["a"])
        #expect(cache.bytes == 301)
        #expect(cache.entry("a")?.body.count == 300)
    }

    @Test func manyThreadsAtOnceKeepTheBound() async {
        let cache = ResponseCache(capacity: 5_000)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        let key = "k\((task * 7 + index) % 97)"
                        if cache.entry(key) == nil { cache.store(self.entry(100 + index % 50), for: key) }
                    }
                }
            }
        }
        #expect(cache.bytes <= 5_000)
        #expect(cache.bytes == cache.keys.reduce(0) { $0 + (cache.entry($1)?.body.count ?? 0) + $1.utf8.count })
    }

    @Test func lengthsOutliveTheBodiesAndAreBounded() {
        let cache = ResponseCache(capacity: 0)
        cache.store(entry(100), for: "a")
        #expect(cache.count == 0)
        #expect(cache.length("a") == 100)
        cache.learnLength(7, for: "b")
        #expect(cache.length("b") == 7)
        #expect(cache.count == 0)
        for index in 0..<ResponseCache.lengthLimit { cache.learnLength(index, for: "k\(index)") }
        // The oldest learned went first: a and b, not the latest.
        #expect(cache.lengthCount == ResponseCache.lengthLimit)
        #expect(cache.length("a") == nil && cache.length("b") == nil)
        #expect(cache.length("k\(ResponseCache.lengthLimit - 1)") == ResponseCache.lengthLimit - 1)
    }
}
