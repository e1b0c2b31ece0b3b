import Foundation
import SoundsetRuntime

/// The voice packs of `--packs DIR`: every `*.pack` in it, read whole into memory once per change
/// (a pack is a few MB) and answered from memory. The folder is listed again (one `readdir` and a
/// `stat` a pack) at most every `recheckInterval` seconds; a pack whose file is new or changed is
/// read again, the others kept. A file that is not a pack (`PackHeader.read`) is skipped, never
/// served, and the log says so once each time it changes.
final class PackShelf: @unchecked Sendable {
    // @unchecked: `shelf`, `stamps`, `known`, `lookedAt` and `listingFailed` are only read and
    // written holding `lock`.

    /// One pack served.
    struct Pack {
        var header: VoicePack.Header
        /// The file's name in the folder.
        var file: String
        var body: ResponseBody
        /// `"<version>-<setId>"`.
        var etag: String { "\"\(header.version)-\(header.setId)\"" }
        /// The URL pinned to this pack.
        var pinnedPath: String { "/v1/packs/\(header.voice)/\(header.version)-\(header.setId).pack" }
    }

    /// The packs served now.
    struct Shelf {
        /// Every pack, by voice, then newest first.
        var packs: [Pack] = []
        /// The newest pack of `voice`.
        func newest(_ voice: String) -> Pack? { packs.first { $0.header.voice == voice } }
        var voices: [String] {
            var seen: [String] = []
            for pack in packs where seen.last != pack.header.voice { seen.append(pack.header.voice) }
            return seen
        }
    }

    /// The largest pack read: a phone refuses a larger one (the runtime's `VoicePack.defaultMaxBytes`).
    static let maxBytes = 32 << 20

    let folder: URL
    let display: String
    private let log: (@Sendable (String) -> Void)?
    private let recheckInterval: Double
    private let lock = NSLock()
    private var shelf = Shelf()
    private var stamps: [String: FileIdentity]?
    private var known: [String: (stamp: FileIdentity, pack: Pack?)] = [:]
    private var lookedAt: UInt64 = 0
    private var listingFailed = false

    init(folder: URL, display: String, log: (@Sendable (String) -> Void)?, recheckInterval: Double = SetSource.defaultRecheckInterval) {
        self.folder = folder
        self.display = display
        self.log = log
        self.recheckInterval = recheckInterval
    }

    /// The packs now.
    func current() -> Shelf {
        let now = DispatchTime.now().uptimeNanoseconds
        return lock.withLock {
            if stamps != nil, now &- lookedAt < UInt64(recheckInterval * 1e9) { return shelf }
            lookedAt = now
            let seen = listing()
            if seen != stamps {
                stamps = seen
                shelf = load(seen)
            }
            return shelf
        }
    }

    /// The `*.pack` files of the folder and their identities (names beginning with `.`, a writer's
    /// temporary files, left out).
    private func listing() -> [String: FileIdentity] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            listingFailed = false
        } catch {
            if !listingFailed { log?("soundset: packs: cannot list \(display): \(RegularFile.reason(error)); no pack is served until it can be") }
            listingFailed = true
            return [:]
        }
        var seen: [String: FileIdentity] = [:]
        for name in names where name.hasSuffix(".pack") && !name.hasPrefix(".") {
            if let stamp = FileIdentity(path: folder.appendingPathComponent(name).path) { seen[name] = stamp }
        }
        return seen
    }

    /// The shelf of the files `seen`: each read again when its identity changed.
    private func load(_ seen: [String: FileIdentity]) -> Shelf {
        var next: [String: (stamp: FileIdentity, pack: Pack?)] = [:]
        for (name, stamp) in seen.sorted(by: { $0.key < $1.key }) {
            if let kept = known[name], kept.stamp == stamp {
                next[name] = kept
                continue
            }
            next[name] = (stamp, read(name))
        }
        known = next
        var chosen: [Pack] = []
        for pack in next.keys.sorted().compactMap({ next[$0]?.pack }) {
            if let other = chosen.first(where: { $0.header.voice == pack.header.voice && $0.header.version == pack.header.version }) {
                log?(
                    "soundset: packs: skipped \(display)/\(pack.file): \(other.file) is the voice \(pack.header.voice)'s version \(pack.header.version) too "
                        + "(one file a version: remove one)")
                continue
            }
            chosen.append(pack)
        }
        chosen.sort { ($0.header.voice, -$0.header.version) < ($1.header.voice, -$1.header.version) }
        return Shelf(packs: chosen)
    }

    /// The pack in the file `name`, or nil (logged) when it is not one.
    private func read(_ name: String) -> Pack? {
        let shown = "\(display)/\(ClipNameRules.printable(name))"
        do {
            let data = try RegularFile.read(folder.appendingPathComponent(name), maxBytes: Self.maxBytes)
            let header = try PackHeader.read(data)
            return Pack(header: header, file: name, body: ResponseBody(data))
        } catch let failure as RegularFile.Failure {
            log?("soundset: packs: skipped \(shown): \(failure.reason); it is not served")
        } catch let problem as PackHeader.Problem {
            log?("soundset: packs: skipped \(shown): \(problem.reason); it is not served")
        } catch {
            log?("soundset: packs: skipped \(shown): \(RegularFile.reason(error)); it is not served")
        }
        return nil
    }
}
