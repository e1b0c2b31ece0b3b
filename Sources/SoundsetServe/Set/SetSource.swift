import Foundation
import SoundsetBuild
import SoundsetRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The output folder's current set, loaded again whenever a build swaps a new one in: each request
/// asks `current()`, which compares the manifest's identity (device, inode, size, modification
/// time: a swap gives the path a new inode) with the one loaded, and loads the set again under the
/// folder's shared swap lock when it differs, as `check`, `plan` and `announce` read it.
final class SetSource: @unchecked Sendable {
    // @unchecked: `state` is only read and written holding `lock`.
    let output: URL
    /// How the output folder is named in messages (`Output`).
    let display: String
    /// Where private copies go; removed by `removeCopies`.
    private let copies: URL
    private let lock = NSLock()
    private var state: State = .unavailable("not loaded yet", stamp: nil)

    private enum State {
        case loaded(ServedSet, stamp: FileIdentity)
        case unavailable(String, stamp: FileIdentity?)
    }

    init(output: URL, display: String) {
        self.output = output
        self.display = display
        copies = FileManager.default.temporaryDirectory.appendingPathComponent("soundset-serve-\(getpid())-\(UUID().uuidString)")
    }

    /// The set to answer with, or why there is none (no manifest, a manifest that does not
    /// validate, a clip file missing or not the one the manifest describes).
    func current() -> Result<ServedSet, SetUnavailable> {
        let stamp = FileIdentity(of: manifestURL)
        return lock.withLock {
            switch state {
            case .loaded(let set, let loaded) where loaded == stamp: return .success(set)
            case .unavailable(let reason, let failed) where failed == stamp && stamp != nil: return .failure(SetUnavailable(reason: reason))
            default: break
            }
            state = load()
            switch state {
            case .loaded(let set, _): return .success(set)
            case .unavailable(let reason, _): return .failure(SetUnavailable(reason: reason))
            }
        }
    }

    /// Removes every private copy still on disk (the server is stopping).
    func removeCopies() { try? FileManager.default.removeItem(at: copies) }

    private var manifestURL: URL { output.appendingPathComponent(SoundSetLayout.manifestName) }

    private func load() -> State {
        let fix = "run soundset build --output \(Checker.shellWord(display))"
        do {
            return try OutputFolder.reading(output) { () -> State in
                // Under the lock no swap happens: this stamp is the manifest's that is read.
                guard let stamp = FileIdentity(of: manifestURL) else {
                    return .unavailable("\(display) has no \(SoundSetLayout.manifestName) (\(fix))", stamp: nil)
                }
                do {
                    let manifest = try Manifest.load(from: manifestURL)
                    return .loaded(try copy(SoundSet(manifest: manifest, folder: output)), stamp: stamp)
                } catch let error as ManifestError {
                    return .unavailable("\(display)/\(SoundSetLayout.manifestName): \(error) (\(fix))", stamp: stamp)
                } catch let error as SetUnavailable {
                    return .unavailable("\(error.reason) (\(fix))", stamp: stamp)
                }
            }
        } catch {
            return .unavailable("\(error)", stamp: nil)
        }
    }

    /// A private copy of `set`'s manifest and every clip file it lists, each checked against its
    /// sha256 as it is copied.
    private func copy(_ set: SoundSet) throws -> ServedSet {
        let folder = copies.appendingPathComponent("\(set.id)-\(UUID().uuidString)")
        let sounds = folder.appendingPathComponent(SoundSetLayout.soundsName)
        do {
            try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        } catch {
            throw SetUnavailable(reason: "cannot make the server's copy of the set in \(copies.path) (\(RegularFile.reason(error)))")
        }
        let served = ServedSet(set: SoundSet(manifest: set.manifest, folder: folder))  // removes the folder if anything below fails
        for clip in set.manifest.clips {
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                guard ClipNameRules.isPlainFileName(file) else { throw SetUnavailable(reason: "\(display): the manifest names the file '\(ClipNameRules.printable(file))'") }
                let shown = "\(display)/\(SoundSetLayout.soundsName)/\(file)"
                let data: Data
                do { data = try RegularFile.read(set.soundsFolder.appendingPathComponent(file), maxBytes: Composer.maxClipBytes) } catch {
                    throw SetUnavailable(reason: "\(shown) \(error.reason)")
                }
                guard SHA256Digest.hex(data) == clip.sha256 else { throw SetUnavailable(reason: "\(shown) is not the file the manifest describes") }
                do { try RegularFile.write(data, to: sounds.appendingPathComponent(file)) } catch {
                    throw SetUnavailable(reason: "cannot copy \(shown) to \(sounds.path) (\(error.reason))")
                }
            }
        }
        return served
    }
}

/// Why there is no set to serve.
struct SetUnavailable: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// What tells one file from another at a path without reading it: a build's swap gives the
/// manifest's path a new inode.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    /// The identity of what `url` names (through links), or nil when nothing is there.
    init?(of url: URL) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modifiedSeconds = info.st_mtimespec.tv_sec
            modifiedNanoseconds = info.st_mtimespec.tv_nsec
        #else
            modifiedSeconds = info.st_mtim.tv_sec
            modifiedNanoseconds = info.st_mtim.tv_nsec
        #endif
    }
}
