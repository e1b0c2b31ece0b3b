import SoundsetRuntime

/// What the output folder, its staging and its locks find wrong (`OutputFolder`, `OutputLocks`),
/// each case with its one message. `folder` is the output folder as the user named it.
public enum OutputProblem: ProblemReason, Equatable {
    /// A symbolic `--output` whose target does not exist.
    case danglingLink
    case containsAssets
    /// The folder's name is `bytes` long; the staging folder's name allows `most`.
    case nameTooLong(bytes: Int, most: Int)
    case symbolicLink
    case notAFolder
    case mountPoint(folder: String)
    /// A folder whose manifest does not decode holds `stranger`, which soundset did not write.
    case undecodableWithStranger(stranger: String)
    case notASet
    /// A file in the set soundset did not write.
    case notWritten(folder: String)
    /// A refusal (its message) found just before the swap.
    case putThereMeanwhile(refusal: String)
    case unencodable(reason: String)
    case unwritable(reason: String)
    /// A file beside the set (the report) that could not be written.
    case besideUnwritable(reason: String)
    case notReadBack
    case refusedByReaders(reason: String)
    case notAsWritten(reason: String)
    case cannotReplace(reason: String)
    case noStaging(parent: String, reason: String)
    /// A folder beside the set (`what` it holds) that cannot be removed; `word` is its name as a
    /// shell word, `unlock` the command that clears its immutable flag, `then` what follows.
    case leftover(what: String, reason: String, unlock: String, word: String, then: String)
    case noLockFolder(folder: String, reason: String)
    /// Another build (`holder`) holds the build's lock, and the build does not wait.
    case beingBuilt(holder: String)
    case buildLock(reason: String)
    case swapLock(reason: String)
    case readLockNotRegular(reason: String)
    case readLock(reason: String)

    public var message: String {
        switch self {
        case .danglingLink: "is a symbolic link to a folder that does not exist (create it, or point --output at a real folder)"
        case .containsAssets: "is the assets folder or contains it; refusing to replace it (choose another --output)"
        case .nameTooLong(let bytes, let most):
            "its name is \(bytes) bytes, too long for the staging folder beside it (at most \(most)): choose a shorter --output"
        case .symbolicLink: "is a symbolic link; refusing to replace it (point --output at its target)"
        case .notAFolder: "is a file, not a folder; refusing to replace it (choose another --output)"
        case .mountPoint(let folder):
            "is a mount point, which cannot be replaced (soundset swaps in a whole new folder): point --output one level down, e.g. \(folder)/Set"
        case .undecodableWithStranger(let stranger):
            "its \(SoundSetLayout.manifestName) does not decode, and it holds \(stranger), which soundset did not write; refusing to replace it (move \(stranger) out, or empty it)"
        case .notASet: "holds files but no soundset manifest; refusing to replace it (empty it or choose another --output)"
        case .notWritten(let folder): "soundset did not write it, and \(folder) is replaced whole: move it out"
        case .putThereMeanwhile(let refusal): "\(refusal); it was put there while the set was being built"
        case .unencodable(let reason): "cannot be encoded (\(reason))"
        case .unwritable(let reason): "cannot be written (\(reason))"
        case .besideUnwritable(let reason): "cannot be written (\(reason)); check that its folder is writable"
        case .notReadBack: "does not read back as written (check the disk)"
        case .refusedByReaders(let reason): "would be refused by every reader (\(reason)): run the build again without the cache (--no-cache)"
        case .notAsWritten(let reason): "is not as written (\(reason)); check the disk"
        case .cannotReplace(let reason): "cannot replace the folder (\(reason)); check that it is writable"
        case .noStaging(let parent, let reason): "cannot create a staging folder in \(parent) (\(reason)); check that the folder is writable"
        case .leftover(let what, let reason, let unlock, let word, let then):
            "\(what) and cannot be removed (\(reason)): remove it by hand (\(unlock) if it is immutable, then rm -rf \(word))\(then.isEmpty ? "" : " " + then)"
        case .noLockFolder(let folder, let reason): "cannot create \(folder) for the build's lock (\(reason)); check that the folder is writable"
        case .beingBuilt(let holder): "is being built by \(holder); wait for it, or run again without --no-wait to wait"
        case .buildLock(let reason): "cannot take the build's lock (\(reason))"
        case .swapLock(let reason): "cannot be locked for the swap (\(reason)); remove it if it is not a regular file, and check that its folder is writable"
        case .readLockNotRegular(let reason): "cannot be locked for reading (\(reason)); remove it if it is not a regular file"
        case .readLock(let reason): "cannot be locked for reading (\(reason))"
        }
    }
}
