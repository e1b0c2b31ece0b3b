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
/// folder's shared swap lock when it differs, as `check`, `plan` and `announce` read it: the
/// manifest and every clip, into memory.
///
/// A loaded set's manifest is looked at (`stat`) at most once every `recheckInterval` seconds,
/// not once a request: a request within that time of the last look is answered with the set
/// loaded, so a new build is picked up within that time. Without a valid set every request looks.
final class SetSource: @unchecked Sendable {
    // @unchecked: `state` is only read and written holding `lock`.
    let output: URL
    /// How the output folder is named in messages (`Output`).
    let display: String
    /// The most seconds between two looks at a loaded set's manifest.
    let recheckInterval: Double
    private let lock = NSLock()
    private var state: State = .unavailable("not loaded yet", stamp: nil)
    /// Sets loaded so far.
    private var setsLoaded = 0
    /// When the manifest was last looked at (`DispatchTime`'s nanoseconds), while a set is loaded.
    private var lookedAt: UInt64 = 0

    private enum State {
        case loaded(ServedSet, stamp: FileIdentity)
        case unavailable(String, stamp: FileIdentity?)
    }

    /// The default `recheckInterval`: a build is picked up within a tenth of a second.
    static let defaultRecheckInterval = 0.1

    init(output: URL, display: String, recheckInterval: Double = SetSource.defaultRecheckInterval) {
        self.output = output
        self.display = display
        self.recheckInterval = recheckInterval
        manifestPath = output.appendingPathComponent(SoundSetLayout.manifestName).path
    }

    /// The set to answer with, or why there is none (no manifest, a manifest that does not
    /// validate, a clip file missing or not the one the manifest describes).
    func current() -> Result<ServedSet, SetUnavailable> {
        let now = DispatchTime.now().uptimeNanoseconds
        let recent: ServedSet? = lock.withLock {
            guard case .loaded(let set, _) = state, now &- lookedAt < UInt64(recheckInterval * 1e9) else { return nil }
            return set
        }
        if let recent { return .success(recent) }
        let stamp = FileIdentity(path: manifestPath)
        return lock.withLock {
            switch state {
            case .loaded(let set, let loaded) where loaded == stamp:
                lookedAt = now
                return .success(set)
            case .unavailable(let reason, let failed) where failed == stamp && stamp != nil:
                return .failure(SetUnavailable(reason: reason, setsLoaded: setsLoaded))
            default: break
            }
            state = load()
            lookedAt = DispatchTime.now().uptimeNanoseconds
            switch state {
            case .loaded(let set, _):
                setsLoaded += 1
                return .success(set)
            case .unavailable(let reason, _): return .failure(SetUnavailable(reason: reason, setsLoaded: setsLoaded))
            }
        }
    }

    /// The manifest's path, made once.
    private let manifestPath: String
    private var manifestURL: URL { output.appendingPathComponent(SoundSetLayout.manifestName) }

    private func load() -> State {
        let fix = "run soundset build --output \(Checker.shellWord(display))"
        do {
            return try OutputFolder.reading(output) { () -> State in
                // Under the lock no swap happens: this stamp is the manifest's that is read.
                guard let stamp = FileIdentity(of: manifestURL) else {
                    return .unavailable("\(display) has no \(SoundSetLayout.manifestName) (\(fix))", stamp: nil)
                }
                // A link in the set is not the set (a commit or an app carries the link): not read.
                if let refusal = SetLink.refusal(in: output, display: display) {
                    return .unavailable("\(refusal) (\(fix))", stamp: stamp)
                }
                do {
                    let manifest = try Manifest.load(from: manifestURL)
                    return .loaded(try read(SoundSet(manifest: manifest, folder: output)), stamp: stamp)
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

    /// `set` with every clip file its manifest lists read and checked (sha256, frames, format).
    private func read(_ set: SoundSet) throws -> ServedSet {
        var clips: [String: SoundData] = [:]
        for clip in set.manifest.clips {
            for file in [clip.file] + [clip.copy].compactMap({ $0 }) {
                guard ClipNameRules.isPlainFileName(file) else {
                    throw SetUnavailable(reason: "\(display): the manifest names the file '\(ClipNameRules.printable(file))'")
                }
                let shown = "\(display)/\(SoundSetLayout.soundsName)/\(file)"
                let data: Data
                do { data = try RegularFile.read(set.soundsFolder.appendingPathComponent(file), maxBytes: Composer.maxClipBytes) } catch {
                    throw SetUnavailable(reason: "\(shown) \(error.reason)")
                }
                guard SHA256Digest.hex(data) == clip.sha256 else { throw SetUnavailable(reason: "\(shown) is not the file the manifest describes") }
                do { clips[file] = try Composer.verifiedClip(data, file: file, clip: clip, manifest: set.manifest) } catch {
                    throw SetUnavailable(reason: "\(display)/\(SoundSetLayout.soundsName)/\(error)")
                }
            }
        }
        return ServedSet(set: set, clips: clips)
    }
}

/// Why there is no set to serve.
struct SetUnavailable: Error, CustomStringConvertible {
    var reason: String
    /// How many sets had been loaded before: the same reason after a set was served is news.
    var setsLoaded = 0
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
    init?(of url: URL) { self.init(path: url.path) }

    /// The identity of what `path` names (through links), or nil when nothing is there.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
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
