import Foundation

/// Composed announcements kept in memory, bounded in bytes, the least recently used dropped first.
/// Keys name everything the bytes depend on (the served set's id, the amount, the resolved
/// options, the format), so an entry is never wrong, only old.
///
/// Beside the bodies it keeps the length of every body stored (`length(_:)`), longer than the
/// bodies: at most `lengthLimit` lengths, the oldest learned dropped first, none dropped when a
/// body is. A `304` or a `HEAD` needs only the length, and is answered with it without composing
/// or encoding the body again, whatever the cache's capacity (`--cache-mb 0` too).
final class ResponseCache: @unchecked Sendable {
    // @unchecked: every field is read and written holding `lock`.

    /// A cached announcement.
    struct Entry: Sendable {
        var body: ResponseBody
        var etag: String
    }

    /// The most bytes kept (bodies and keys).
    let capacity: Int
    private let lock = NSLock()
    private var nodes: [String: Node] = [:]
    /// Most recently used first.
    private var head: Node?
    private var tail: Node?
    private var used = 0

    /// The bytes kept now.
    var bytes: Int { lock.withLock { used } }

    /// The entries kept now.
    var count: Int { lock.withLock { nodes.count } }

    /// The most body lengths kept: about 100 bytes each (the key, the length, the dictionary's
    /// slot), 1.6 MB at most.
    static let lengthLimit = 16_384
    /// Body lengths by key, learned when a body is stored; at most `lengthLimit`.
    private var lengths: [String: Int] = [:]
    /// The keys of `lengths` in the order learned, as a ring: `nextLength` is the oldest once full.
    private var lengthKeys: [String] = []
    private var nextLength = 0

    /// The lengths known now.
    var lengthCount: Int { lock.withLock { lengths.count } }

    /// The length of the body stored for `key`, whether it is still kept or not, or nil. It leaves
    /// the bodies' order as it is.
    func length(_ key: String) -> Int? {
        lock.withLock { nodes[key]?.entry.body.count ?? lengths[key] }
    }

    /// Keeps `length` as the length of `key`'s body (holding `lock`).
    private func learn(_ length: Int, for key: String) {
        if lengths.updateValue(length, forKey: key) != nil { return }
        if lengthKeys.count < Self.lengthLimit {
            lengthKeys.append(key)
            return
        }
        lengths.removeValue(forKey: lengthKeys[nextLength])
        lengthKeys[nextLength] = key
        nextLength = (nextLength + 1) % Self.lengthLimit
    }

    /// Keeps only the length of a body for `key`, not the body (a `HEAD` composed it: it evicts
    /// no body).
    func learnLength(_ length: Int, for key: String) {
        lock.withLock { learn(length, for: key) }
    }

    private final class Node {
        let key: String
        let entry: Entry
        let size: Int
        var newer: Node?
        var older: Node?

        init(key: String, entry: Entry) {
            self.key = key
            self.entry = entry
            size = entry.body.count + key.utf8.count
        }
    }

    init(capacity: Int) { self.capacity = capacity }

    /// The entry for `key`, now the most recently used, or nil.
    func entry(_ key: String) -> Entry? {
        lock.withLock {
            guard let node = nodes[key] else { return nil }
            unlink(node)
            pushFront(node)
            return node.entry
        }
    }

    /// Keeps `entry` for `key` (replacing any), dropping the least recently used until it fits; an
    /// entry larger than the whole cache is not kept. Its length is kept in any case.
    func store(_ entry: Entry, for key: String) {
        let node = Node(key: key, entry: entry)
        guard node.size <= capacity else {
            learnLength(entry.body.count, for: key)
            return
        }
        lock.withLock {
            learn(entry.body.count, for: key)
            if let old = nodes.removeValue(forKey: key) {
                unlink(old)
                used -= old.size
            }
            while used + node.size > capacity, let oldest = tail {
                unlink(oldest)
                nodes.removeValue(forKey: oldest.key)
                used -= oldest.size
            }
            nodes[key] = node
            pushFront(node)
            used += node.size
        }
    }

    /// The keys, most recently used first (for tests).
    var keys: [String] {
        lock.withLock {
            var keys: [String] = []
            var node = head
            while let current = node {
                keys.append(current.key)
                node = current.older
            }
            return keys
        }
    }

    private func unlink(_ node: Node) {
        if let newer = node.newer { newer.older = node.older } else { head = node.older }
        if let older = node.older { older.newer = node.newer } else { tail = node.newer }
        node.newer = nil
        node.older = nil
    }

    private func pushFront(_ node: Node) {
        node.older = head
        head?.newer = node
        head = node
        if tail == nil { tail = node }
    }
}
