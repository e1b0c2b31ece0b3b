import SoundsetBuild
import SoundsetSetFolder

/// What the check of a set's folder finds wrong with its manifest, what else is in the folder, and
/// the manifest's values held to what the build makes (`Checker.run`), each case with its one
/// message. `rebuild` is the command that builds the set again; `folder` the output folder as the
/// user named it.
public enum FolderCheckProblem: ProblemReason, Equatable {
    case manifestUnreadable(rebuild: String)
    /// A manifest of schema `found`, newer than this soundset reads (`supported`).
    case newerSchema(found: Int, supported: Int)
    /// A manifest that does not decode, for `reason`.
    case notAManifest(reason: String, rebuild: String)
    /// A manifest that does not decode, in a folder that holds `stranger`, which soundset did not write.
    case notAManifestWithStranger(reason: String, folder: String, stranger: String, rebuild: String)
    /// A manifest of `size` bytes, over the `limit` an extension reads.
    case manifestTooLarge(size: Int, limit: Int, rebuild: String)
    /// A file in the folder soundset did not write.
    case notWritten(folder: String)
    /// A value of the manifest (`difference`) that is not what the recordings in `assets` give.
    case differs(ManifestDifference, assets: String, rebuild: String)
    /// The manifest cannot be made again from `assets` to compare, for `reason`.
    case notDerivable(assets: String, reason: String, rebuild: String)

    public var message: String {
        switch self {
        case .manifestUnreadable(let rebuild): "missing or unreadable: run \(rebuild)"
        case .newerSchema(let found, let supported): "schema version \(found) is newer than this soundset reads (\(supported)): update soundset"
        case .notAManifest(let reason, let rebuild): "not a soundset manifest (\(reason)): run \(rebuild)"
        case .notAManifestWithStranger(let reason, let folder, let stranger, let rebuild):
            "not a soundset manifest (\(reason)), and the build will not replace \(folder) while it holds \(folder)/\(stranger), which soundset did not write: move it out, then run \(rebuild)"
        case .manifestTooLarge(let size, let limit, let rebuild):
            "is \(size) bytes, more than the \(limit) an app's extension can afford to read: split the set into sets of fewer clips (about 450 fit;"
                + " a set of fewer whose manifest grew is written small again by \(rebuild))"
        case .notWritten(let folder): "soundset did not write it, and the next build will not replace \(folder) while it is there: move it out"
        case .differs(let difference, let assets, let rebuild):
            "\(difference.key) is \(difference.found), but \(assets) gives \(difference.expected) (the manifest is made from the recordings and soundset.json, never edited): run \(rebuild)"
        case .notDerivable(let assets, let reason, let rebuild): "cannot be made again from \(assets) to compare (\(reason)): run \(rebuild)"
        }
    }
}

/// What the report check finds of the set's report (`Checker.reports`), each case with its one
/// message. `folder` is the output folder as the user named it.
public enum SetReportProblem: ProblemReason, Equatable {
    /// soundset 0.8's report inside the set; `place` is where the report is written now.
    case insideSet(place: String, rebuild: String)
    /// The report beside the set is the one of set `other`, not of set `id`.
    case anotherSet(other: String, folder: String, id: String, rebuild: String)
    /// The report beside the set names no set.
    case namesNoSet(folder: String, rebuild: String)

    public var message: String {
        switch self {
        case .insideSet(let place, let rebuild):
            "is a report inside the set, where the app would ship it: run \(rebuild), which moves it out (the report is written beside the set, as \(place))"
        case .anotherSet(let other, let folder, let id, let rebuild):
            "belongs to another set (\(ClipName.printable(other))), not to the one in \(folder) (\(id)): run \(rebuild) to write it again"
        case .namesNoSet(let folder, let rebuild):
            "names no set (an older soundset wrote it), so it may show another one than \(folder): run \(rebuild) to write it again"
        }
    }
}
