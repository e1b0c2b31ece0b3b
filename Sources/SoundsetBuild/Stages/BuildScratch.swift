import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// Where a build keeps, on disk, what waits between its stages, so that its memory holds a few clips
/// at a time whatever the size of the pack: the samples of clips it prepared that the memo did not
/// keep (`--no-cache`), and each clip's file, encoded as soon as the clip is finished, until the
/// commit moves it into the staging folder.
///
/// A folder in the memo's folder beside the output (`.soundset-cache/scratch-<output>-<UUID>/`,
/// on the output's file system, so a file is moved into the set, not copied), made at the first
/// write and removed when the build ends, whether it succeeded or not; an interruption removes it
/// as it removes a staging folder, and what a killed build left is removed by the next build of
/// the same output, which holds its lock. Its prepared clips are removed as soon as every clip is
/// finished, so the disk holds them and the new set's files at once only while the clips are
/// finished; a write the disk refuses keeps its clip or file in memory instead, and the set is the
/// same.
final class BuildScratch: @unchecked Sendable {
    // @unchecked: `made` is read and written under `lock`; each file is written by one task at a
    // time (or by two with the same bytes: see `write`).
    let url: URL
    private let lock = NSLock()
    private var made: Bool?

    /// The scratch folder of a build of the output folder `output` (nothing is made yet).
    init(output: URL) {
        url = DiskMemo.folder(for: output).appendingPathComponent(Self.prefix(of: output) + UUID().uuidString)
    }

    private static func prefix(of output: URL) -> String { "scratch-\(output.lastPathComponent)-" }

    private var clips: URL { url.appendingPathComponent("clips") }
    private var files: URL { url.appendingPathComponent("files") }

    /// The folder, made once; nil when it cannot be made (the build then keeps what it would have
    /// put there in memory).
    private func folder() -> URL? {
        lock.withLock {
            if let made { return made ? url : nil }
            do {
                try Interruption.shared.writing(url) {
                    try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
                    try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
                }
                made = true
            } catch {
                try? FileManager.default.removeItem(at: url)
                made = false
            }
            return made! ? url : nil
        }
    }

    /// Writes `data` to `target`. Each file has one writer at a time, but for two recordings of the
    /// same bytes (one key), whose entries are the same bytes too; an entry that reads back damaged
    /// all the same is prepared again (`ClipLoader`).
    private func write(_ data: Data, to target: URL) -> Bool {
        guard folder() != nil else { return false }
        do throws(RegularFile.Failure) { try RegularFile.write(data, to: target) } catch {
            RegularFile.remove(target)
            return false
        }
        return true
    }

    // MARK: Prepared clips

    private func clipURL(_ key: String) -> URL { clips.appendingPathComponent("\(key).\(ClipEntry.fileExtension)") }

    /// Keeps `clip`'s samples until a stage asks for them (`preparedClip`), in the memo's own
    /// format (`ClipEntry`). Returns false when they could not be written.
    func keep(_ clip: PreparedClip) -> Bool {
        guard let data = ClipEntry.encode(clip, key: clip.summary.key) else { return false }
        return write(data, to: clipURL(clip.summary.key))
    }

    /// The samples of the clip `summary` describes, when this build kept them and they read back whole.
    func preparedClip(_ summary: ClipSummary) -> PreparedClip? {
        guard lock.withLock({ made == true }) else { return nil }
        return ClipEntry.clip(at: clipURL(summary.key), summary: summary, key: summary.key)
    }

    /// Removes the prepared clips kept, once every clip is finished: their room on the disk is
    /// the set's, which the commit needs next.
    func dropClips() {
        guard lock.withLock({ made == true }) else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: clips.path)) ?? [] {
            RegularFile.remove(clips.appendingPathComponent(name))
        }
    }

    // MARK: Clip files

    /// Keeps the bytes of the set's file `name` (a clip file's name, as in `Sounds`): the file they
    /// are in, or nil when they could not be written.
    func keep(_ bytes: Data, named name: String) -> URL? {
        let target = files.appendingPathComponent(name)
        return write(bytes, to: target) ? target : nil
    }

    // MARK: The end

    /// Removes the folder and everything in it.
    func remove() {
        let wasMade = lock.withLock {
            defer { made = nil }
            return made == true
        }
        guard wasMade else { return }
        try? FileManager.default.removeItem(at: url)
        Interruption.shared.done(url)
    }

    /// Removes the scratch folders killed builds of `output` left: only folders named with its
    /// prefix and a UUID (`Output-en`'s are not `Output`'s). The caller holds the output's build lock.
    static func removeLeftovers(of output: URL) {
        let memo = DiskMemo.folder(for: output)
        let prefix = prefix(of: output)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: memo.path)) ?? []
        where name.hasPrefix(prefix) && UUID(uuidString: String(name.dropFirst(prefix.count))) != nil {
            try? FileManager.default.removeItem(at: memo.appendingPathComponent(name))
        }
    }
}
