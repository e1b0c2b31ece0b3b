internal import CSystem

/// Swaps two paths in one step, so no observer (and no kill -9) ever sees neither.
enum AtomicExchange {
    /// Exchanges the directory entries `a` and `b` (Linux `renameat2(RENAME_EXCHANGE)`, Darwin
    /// `renamex_np(RENAME_SWAP)`, through CSystem's shim). Returns false when the system or file
    /// system cannot, and nothing moved.
    static func exchange(_ a: String, _ b: String) -> Bool { soundset_exchange(a, b) == 0 }
}
