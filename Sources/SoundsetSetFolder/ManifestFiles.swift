import Foundation
import SoundsetRuntime

/// Manifests read in this process, each kept with its file's stamp: a manifest asked for again while
/// its file is as it was (size, times and inode: soundset replaces a manifest by renaming a new file
/// over it, and any write changes the change time) is not decoded again. A no-op build reads
/// Output's manifest three times: to judge the folder, to find it unchanged, to report it.
/// And the bytes of the last manifest encoded: a build encodes its new manifest to hash it, to
/// write it and to measure it, the same bytes each time (a 1,150-clip manifest is 0.7 MB of JSON).
package enum ManifestFiles {
    private static let known = Known()
    private static let lastEncoded = LastEncoded()
    /// The largest manifest the build reads (its own, of a set of up to about 28,000 clips, and
    /// what soundset 0.9 wrote): larger than what an app's extension reads (`Manifest.maxBytes`),
    /// which the check holds a set to.
    package static let maxBytes = 16 << 20

    package static func load(from url: URL) throws(ManifestError) -> Manifest {
        let stamp = FileStamp(path: url.path)
        if let stamp, let manifest = known.manifest(at: url.path, stamp: stamp) { return manifest }
        let manifest = try Manifest.load(from: url, upTo: maxBytes)
        if let stamp, FileStamp(path: url.path) == stamp { known.keep(manifest, at: url.path, stamp: stamp) }
        return manifest
    }

    /// `manifest.encoded()`, encoded once for the same manifest asked again (compared whole, which
    /// costs a small part of encoding it).
    package static func bytes(of manifest: Manifest) throws -> Data {
        if let data = lastEncoded.bytes(of: manifest) { return data }
        let data = try manifest.encoded()
        lastEncoded.keep(data, of: manifest)
        return data
    }

    private final class LastEncoded: @unchecked Sendable {
        // @unchecked: `last` is guarded by `lock`.
        private let lock = NSLock()
        private var last: (manifest: Manifest, data: Data)?

        func bytes(of manifest: Manifest) -> Data? {
            lock.withLock { last.flatMap { $0.manifest == manifest ? $0.data : nil } }
        }

        func keep(_ data: Data, of manifest: Manifest) {
            lock.withLock { last = (manifest, data) }
        }
    }

    private final class Known: @unchecked Sendable {
        // @unchecked: `entries` is guarded by `lock`.
        private let lock = NSLock()
        private var entries: [String: (stamp: FileStamp, manifest: Manifest)] = [:]

        func manifest(at path: String, stamp: FileStamp) -> Manifest? {
            lock.withLock { entries[path].flatMap { $0.stamp == stamp ? $0.manifest : nil } }
        }

        func keep(_ manifest: Manifest, at path: String, stamp: FileStamp) {
            lock.withLock { entries[path] = (stamp, manifest) }
        }
    }
}
