import Foundation
import SoundsetAudio
import SoundsetRuntime

/// The report's sample announcements: which amounts it plays (`amounts`) and how one is made
/// (`compose`), each decided here and nowhere else, so either can change in one call.
enum ReportSamples {
    /// The amounts the report composes and plays: `report.amounts` in `soundset.json`.
    static func amounts(configuration: Configuration, manifest: Manifest) -> [String] {
        configuration.report.amounts
    }

    /// The announcement of `amount` as the app composes it, planned with the set's manifest and
    /// composed by the runtime from the clip files in `sounds`: its plan, and its samples (mono)
    /// at the set's rate.
    /// - Throws: what the runtime says when the amount cannot be read, planned or composed.
    static func compose(_ amount: String, manifest: Manifest, sounds: URL) throws -> (plan: AnnouncementPlan, samples: [Float]) {
        let plan = try Planner(manifest: manifest).plan(try Amount(amount))
        let composed = try Composer.compose(plan, manifest: manifest, soundsFolder: sounds)
        let file = try SoundFile.open(bytes: composed, path: amount)
        return (plan, Mono.mixDown(try file.readAll(), channels: file.info.channels))
    }
}
