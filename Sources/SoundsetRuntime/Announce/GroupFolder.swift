import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where soundset keeps things in the App Group's container (or `soundset announce --group DIR`):
///
/// ```
/// DIR/Library/Sounds/ss<set id>-<clip file>      installed clips (iOS finds sounds here by name)
/// DIR/Library/Sounds/soundset-<key>.<ext>         composed announcements, one name per announcement
/// DIR/soundset/queue.json, queue.lock             the announcement queue, under a file lock
/// DIR/soundset/sets/<set id>.json                 what an installed set's files are (for a cheap check)
/// DIR/soundset/aside/                             what stood where soundset's own files belong,
///                                                  the newest 16 (`OpenGroup.asideLimit`) kept
/// ```
///
/// soundset deletes only regular files with those names (and its own temporary files, from a
/// process killed while it wrote one); anything else in `Library/Sounds` is the app's. It works in
/// these folders only through descriptors of folders it opened without following links: a link in
/// their place is refused, never written through.
public struct GroupFolder: Sendable {
    /// The container's folder.
    public let url: URL
    /// The data-protection class of every file and folder soundset creates here.
    public let protection: GroupFileProtection
    /// How the class is given (the platform's way; a recorder in tests).
    let protector: @Sendable (Int32, String, GroupFileProtection) -> Void
    /// A test's stand-in for the system refusing to open a path below the container.
    let refusal: (@Sendable (String) -> Int32?)?
    /// Which groups this process has given their class again (`ProtectionRenewal.process`; a
    /// test's own stands for another process); nil where there is no data protection to renew.
    let renewal: ProtectionRenewal?

    /// - Parameter protection: the class of what soundset creates; `none` (the default) keeps the
    ///   announcement working before the phone's first unlock after a restart (see
    ///   `GroupFileProtection`).
    public init(_ url: URL, protection: GroupFileProtection = .none) {
        #if canImport(Darwin)
            self.init(url, protection: protection, protector: GroupProtection.system, refusal: nil)
        #else
            // No data protection here: the system's protector does nothing, and a command-line
            // announce (one push a process) need not list the group to do it.
            self.init(url, protection: protection, protector: GroupProtection.system, refusal: nil, renewal: nil)
        #endif
    }

    init(
        _ url: URL, protection: GroupFileProtection, protector: @escaping @Sendable (Int32, String, GroupFileProtection) -> Void,
        refusal: (@Sendable (String) -> Int32?)?, renewal: ProtectionRenewal? = .process
    ) {
        self.url = url
        self.protection = protection
        self.protector = protector
        self.refusal = refusal
        self.renewal = renewal
    }

    /// `Library/Sounds`: the second place iOS looks for a notification sound by name.
    public var sounds: URL { url.appendingPathComponent("Library/Sounds", isDirectory: true) }
    /// soundset's own state, outside `Library/Sounds`.
    public var state: URL { url.appendingPathComponent(SoundSetLayout.stateName, isDirectory: true) }

    static let queueName = "queue.json"
    static let lockName = "queue.lock"
    static let setsName = "sets"
    static let asideName = "aside"

    /// The installed name of a set's clip file.
    static func installedName(_ file: String, set id: String) -> String { "ss\(id)-\(file)" }

    /// The set id of an installed clip name, or nil when the name is not one soundset installs.
    static func setID(ofInstalled name: String) -> String? {
        let bytes = Array(name.utf8)
        guard bytes.count > 13, bytes[0] == UInt8(ascii: "s"), bytes[1] == UInt8(ascii: "s"), bytes[12] == UInt8(ascii: "-"),
            bytes[2..<12].allSatisfy(isHexDigit)
        else { return nil }
        return String(decoding: bytes[2..<12], as: UTF8.self)
    }

    /// A composed announcement's file name: a new key each time, so iOS never plays a stale file.
    static func composedName(_ key: String, container: Container) -> String { "soundset-\(key).\(container.fileExtension)" }

    /// Whether `key` can name a composed file: 1 to 64 lower-case letters, digits and `-`.
    static func isKey(_ key: Substring) -> Bool {
        (1...64).contains(key.utf8.count) && key.utf8.allSatisfy { isHexDigit($0) || (103...122).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// Whether `name` is a composed announcement's name: `soundset-`, a key, and a container's extension.
    static func isComposedName(_ name: String) -> Bool {
        guard name.hasPrefix("soundset-"), let dot = name.lastIndex(of: ".") else { return false }
        let key = name[name.index(name.startIndex, offsetBy: 9)..<dot]
        return Container(rawValue: String(name[name.index(after: dot)...])) != nil && isKey(key)
    }

    /// Whether `name` in `Library/Sounds` is a temporary file of soundset's own (a composed file or
    /// an installed clip being written).
    static func isOwnTemporary(_ name: String) -> Bool {
        guard let inner = RegularFile.replacedName(ofTemporary: name) else { return false }
        return setID(ofInstalled: inner) != nil || isComposedName(inner)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }

    /// The class, and the way it is given.
    var groupProtection: GroupProtection { GroupProtection(level: protection, applier: protector) }

    /// Opens the folders soundset works in, creating (and protecting) those that are missing. The
    /// first open of this container with this class in a process (the extension's first push, the
    /// app's launch) also gives the class again to soundset's folders and to every file of its own
    /// in them (`OpenGroup.protectAll`): a group an earlier version wrote with the app's default
    /// class (unreadable after a restart until the first unlock) is brought to this one by the
    /// extension itself, without waiting for the merchant to open the app. It costs a listing and a
    /// call per file, once; every later open, a lookup under a lock. When a file cannot be opened to
    /// be protected (protected data, before the first unlock), the next open tries again.
    /// - Throws: `GroupFailure` when one is a link or a file, or cannot be opened or created.
    func open() throws(GroupFailure) -> OpenGroup {
        let root = try FolderHandle.root(url, display: url.path, refusal: refusal)
        let library = try root.folder("Library", display: "Library", create: true, protection: groupProtection)
        let sounds = try library.folder("Sounds", display: "Library/Sounds", create: true, protection: groupProtection)
        let state = try root.folder(SoundSetLayout.stateName, display: SoundSetLayout.stateName, create: true, protection: groupProtection)
        let sets = try state.folder(Self.setsName, display: "\(SoundSetLayout.stateName)/\(Self.setsName)", create: true, protection: groupProtection)
        let open = OpenGroup(sounds: sounds, state: state, sets: sets, protection: groupProtection)
        let key = "\(protection.rawValue) \(url.standardizedFileURL.path)"
        if let renewal, renewal.claim(key) {
            open.renewedProtection = true
            if !open.protectAll() { renewal.release(key) }
        }
        return open
    }
}

/// The group's folders, open: everything soundset reads, writes and deletes there goes through these
/// descriptors.
final class OpenGroup {
    let sounds: FolderHandle
    let state: FolderHandle
    let sets: FolderHandle
    let protection: GroupProtection
    /// Notes of what was moved aside before a decision had begun (the lock file, in the way of the
    /// lock itself), for the decision (or the install) that follows to say; see `takeNotes()`.
    private var pendingNotes: [String] = []

    /// How many things `soundset/aside` keeps: each time one is moved there, the oldest beyond
    /// these are deleted (a group that something keeps getting in the way of would otherwise fill
    /// the phone: issue 27 found 1,000 entries and 12 MB, never removed).
    static let asideLimit = 16
    /// The most files and folders one move aside deletes of older entries: a huge folder moved aside
    /// is deleted over several pushes, never in one push's time.
    static let asideRemovalBudget = 4096
    /// Whether opening the group gave the class again to soundset's folders and files (the first
    /// open in this process): an install then need not do it again.
    var renewedProtection = false

    init(sounds: FolderHandle, state: FolderHandle, sets: FolderHandle, protection: GroupProtection) {
        self.sounds = sounds
        self.state = state
        self.sets = sets
        self.protection = protection
    }

    /// `soundset/aside`, where what stands in the way of soundset's own files is moved.
    func aside() throws(GroupFailure) -> FolderHandle {
        try state.folder(GroupFolder.asideName, display: "\(SoundSetLayout.stateName)/\(GroupFolder.asideName)", create: true, protection: protection)
    }

    /// Makes room for soundset's own file `name` in `folder`: a folder (even with files in it), a
    /// FIFO or a device there is moved into `soundset/aside`; a link is removed (it is only a name).
    /// `soundset/aside` then keeps its newest `asideLimit` entries: older ones are deleted, whole.
    /// - Returns: a note saying what was moved, or nil when nothing was in the way.
    func clearWay(for name: String, in folder: FolderHandle) throws(GroupFailure) -> String? {
        guard let kind = folder.kind(of: name), kind != S_IFREG else { return nil }
        if kind == S_IFLNK {
            unlinkat(folder.descriptor, name, 0)
            return nil
        }
        let aside = try aside()
        try folder.moveAside(name, into: aside)
        aside.keepNewestAside(Self.asideLimit, budget: Self.asideRemovalBudget)
        return "\(folder.display)/\(name) was in the way (not a regular file): moved to \(SoundSetLayout.stateName)/\(GroupFolder.asideName)"
    }

    /// `clearWay` for the lock file, whose note no decision has begun to collect: kept for the next
    /// `takeNotes()`.
    func clearWayForLock() throws(GroupFailure) {
        if let note = try clearWay(for: GroupFolder.lockName, in: state) { pendingNotes.append(note) }
    }

    /// The notes kept by `clearWayForLock()` since the last call, which the caller now says.
    func takeNotes() -> [String] {
        defer { pendingNotes = [] }
        return pendingNotes
    }

    /// Writes `data` over soundset's own file `name` in `folder` in one rename, first moving aside
    /// what is in the way: a kill at any moment leaves the old file or the new one, whole.
    /// - Parameter durable: flush the new file before the rename and the folder after it, so that a
    ///   power cut leaves the old file or the new one too (write, `fsync`, `rename`, `fsync` the folder).
    /// - Returns: the note of what was moved, if anything.
    @discardableResult
    func replace(_ name: String, in folder: FolderHandle, with data: Data, durable: Bool = false) throws(GroupFailure) -> String? {
        let temporary = try folder.writeTemporary(for: name, data, protection: protection, durable: durable)
        do {
            let note = try clearWay(for: name, in: folder)
            try folder.rename(temporary, to: name)
            if durable { folder.sync() }
            return note
        } catch {
            folder.remove(temporary)
            throw error
        }
    }

    /// Gives the protection class again to soundset's own folders and to every file of its own in
    /// them (the first open in a process, and an install, do: a group made by an earlier version,
    /// or with another class, is brought to this one).
    /// - Returns: whether every one of them could be opened to be given it.
    @discardableResult
    func protectAll() -> Bool {
        var all = true
        for folder in [sounds, state, sets] {
            protection.apply(to: folder.descriptor, path: folder.url.path)
            guard let names = folder.names() else {
                all = false
                continue
            }
            for name in names where isOwn(name, in: folder) {
                if !folder.protect(name, protection) { all = false }
            }
        }
        return all
    }

    /// Whether `name` in `folder` is a file soundset makes.
    func isOwn(_ name: String, in folder: FolderHandle) -> Bool {
        if folder === sounds {
            return GroupFolder.setID(ofInstalled: name) != nil || GroupFolder.isComposedName(name) || GroupFolder.isOwnTemporary(name)
        }
        return folder.kind(of: name) == S_IFREG
    }
}

/// The groups (a container and a class) whose files this process has given their class again, so
/// that it happens once per process and not on every push.
final class ProtectionRenewal: @unchecked Sendable {
    // @unchecked: `renewed` is read and written under `lock`.
    /// This process's.
    static let process = ProtectionRenewal()

    private let lock = NSLock()
    private var renewed: Set<String> = []

    /// Whether the caller is the first in this process to renew `key`.
    func claim(_ key: String) -> Bool { lock.withLock { renewed.insert(key).inserted } }

    /// Lets the next open renew `key` again (a renewal that could not reach every file).
    func release(_ key: String) { _ = lock.withLock { renewed.remove(key) } }
}
