import Foundation
import SoundsetRuntime
import SoundsetSetFolder

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
///
/// Loading is never done holding the lock a request takes, and one load runs at a time. While a
/// valid set is served, a new one is loaded on a thread of its own and the old one answers every
/// request until the new one is ready (a request never waits for a load: loading a set, its clips
/// resampled for MP3, takes a few hundred milliseconds); without a valid set the request that
/// finds the manifest changed loads it, and any other request waits for that load's outcome.
final class SetSource: @unchecked Sendable {
    // @unchecked: `state`, `setsLoaded`, `lookedAt` and `loading` are only read and written
    // holding `lock`.
    let output: URL
    /// How the output folder is named in messages (`Output`).
    let display: String
    /// The most seconds between two looks at a loaded set's manifest.
    let recheckInterval: Double
    /// Signalled when a load ends.
    private let lock = NSCondition()
    private var state: State = .unavailable("not loaded yet", stamp: nil)
    /// Sets loaded so far.
    private var setsLoaded = 0
    /// When the manifest was last looked at (`DispatchTime`'s nanoseconds), while a set is loaded.
    private var lookedAt: UInt64 = 0
    /// Whether a load is running.
    private var loading = false
    /// What loads the set: `loadFromFolder` (tests put another in front of it).
    private let loader: @Sendable (SetSource) -> State

    enum State {
        case loaded(ServedSet, stamp: FileIdentity)
        case unavailable(String, stamp: FileIdentity?)
    }

    /// The default `recheckInterval`: a build is picked up within a tenth of a second.
    static let defaultRecheckInterval = 0.1

    init(
        output: URL, display: String, recheckInterval: Double = SetSource.defaultRecheckInterval,
        loader: @escaping @Sendable (SetSource) -> State = { $0.loadFromFolder() }
    ) {
        self.output = output
        self.display = display
        self.recheckInterval = recheckInterval
        self.loader = loader
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
        lock.lock()
        switch state {
        case .loaded(let set, let loaded):
            lookedAt = now
            if loaded != stamp && !loading {
                // The old set answers until the new one is ready: loaded off this thread.
                loading = true
                DispatchQueue.global(qos: .userInitiated).async { self.finish(self.loader(self)) }
            }
            lock.unlock()
            return .success(set)
        case .unavailable(let reason, let failed) where failed == stamp && stamp != nil:
            let failure = SetUnavailable(reason: reason, setsLoaded: setsLoaded)
            lock.unlock()
            return .failure(failure)
        case .unavailable:
            if loading {
                // No set to serve meanwhile: this request waits for the load's outcome.
                while loading { lock.wait() }
                let outcome = result
                lock.unlock()
                return outcome
            }
            loading = true
            lock.unlock()
            finish(loader(self))
            return lock.withLock { result }
        }
    }

    /// Makes `loaded` the state, ends the load and wakes whoever waits for it.
    private func finish(_ loaded: State) {
        lock.withLock {
            state = loaded
            lookedAt = DispatchTime.now().uptimeNanoseconds
            if case .loaded = loaded { setsLoaded += 1 }
            loading = false
            lock.broadcast()
        }
    }

    /// The state as a request's answer (holding `lock`).
    private var result: Result<ServedSet, SetUnavailable> {
        switch state {
        case .loaded(let set, _): .success(set)
        case .unavailable(let reason, _): .failure(SetUnavailable(reason: reason, setsLoaded: setsLoaded))
        }
    }

    /// Waits until no load runs (for tests: a load started by `current()` has ended).
    func waitForLoad() {
        lock.withLock { while loading { lock.wait() } }
    }

    /// The manifest's path, made once.
    private let manifestPath: String
    private var manifestURL: URL { output.appendingPathComponent(SoundSetLayout.manifestName) }

    /// The set as the output folder holds it now, read and checked, or why there is none.
    func loadFromFolder() -> State {
        let fix = "run soundset build --output \(CommandSpelling.shellWord(display))"
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
