#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Swaps two paths in one step, so no observer (and no kill -9) ever sees neither.
enum AtomicExchange {
    /// Exchanges the directory entries `a` and `b` (Linux `renameat2(RENAME_EXCHANGE)`, Darwin
    /// `renamex_np(RENAME_SWAP)`). Returns false when the system or file system cannot, and nothing moved.
    static func exchange(_ a: String, _ b: String) -> Bool {
        #if canImport(Glibc)
            // Swift's Glibc module does not import renameat2 (it needs _GNU_SOURCE), so it is looked up
            // by name; glibc has had it since 2.28.
            typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return false }
            let renameat2 = unsafeBitCast(symbol, to: Renameat2.self)
            let renameExchange: UInt32 = 1 << 1
            return renameat2(AT_FDCWD, a, AT_FDCWD, b, renameExchange) == 0
        #elseif canImport(Darwin)
            return renamex_np(a, b, UInt32(RENAME_SWAP)) == 0
        #else
            return false
        #endif
    }
}
