import SoundsetSetFolder

/// What the pipeline refuses before or after its stages (the set to report on, where the report
/// goes, the report itself), each case with its one message. `rebuild` is the command that builds
/// the set, as the user would type it.
public enum PipelineProblem: ProblemReason, Equatable {
    /// No manifest to write a report of.
    case noManifest(rebuild: String)
    /// The set in the output folder is not the one the assets make.
    case notTheSetBuilt(assets: String, rebuild: String)
    /// The report's location is inside the output folder; `defaultReport`, where it goes by default.
    case reportInside(output: String, defaultReport: String)
    /// The report cannot be drawn: the problem the report said, about its subject.
    case reportUnmade(subject: String, reason: String)

    public var message: String {
        switch self {
        case .noManifest(let rebuild): "missing or unreadable: run \(rebuild) first"
        case .notTheSetBuilt(let assets, let rebuild): "is not the set built from \(assets) (run soundset check to see why): run \(rebuild) first"
        case .reportInside(let output, let defaultReport):
            "is inside \(output), which the app bundles whole: write the report beside it (the default, \(defaultReport))"
        case .reportUnmade(let subject, let reason): "cannot be made (\(subject): \(reason)); build with --no-report to skip it"
        }
    }
}

/// What `soundset measure` cannot read, with its one message (the audio it cannot decode is the
/// catalog's `CatalogProblem.notAudio`).
public enum MeasurementProblem: ProblemReason, Equatable {
    case unreadable(reason: String)

    public var message: String {
        switch self {
        case .unreadable(let reason): "cannot be read (\(reason)): check the path"
        }
    }
}
