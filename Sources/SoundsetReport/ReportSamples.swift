import Foundation
import SoundsetAudio
import SoundsetFindings
import SoundsetRuntime

/// The report's sample announcements: which amounts it plays (`amounts`) and how one is made
/// (`compose`), each decided here and nowhere else, so either can change in one call.
enum ReportSamples {
    /// The amounts the report composes and plays: `report.amounts` in `soundset.json`, or by default
    /// a few amounts up to `maxAmount` that together play every clip of the set (`SampleAmounts`),
    /// phrases included, as the phone plays them.
    static func amounts(configuration: Configuration, manifest: Manifest) -> [String] {
        if let chosen = configuration.report.amounts { return chosen }
        let settings = manifest.announcement ?? AnnouncementSettings()
        return SampleAmounts.covering(
            upTo: configuration.maxAmount, locale: manifest.locale, reading: manifest.reading ?? ReadingOptions(),
            variants: Planner(manifest: manifest).variants, phrases: [settings.prefix, settings.suffix].compactMap { $0 },
            plays: { try? PlayedAnnouncement.of($0, manifest: manifest).plan.tokens }
        ).map(\.description)
    }

    /// The announcement of `amount` as the phone plays it (`PlayedAnnouncement`: the announcer's
    /// banner, lead-in and delivery rules), composed by the runtime from the clip files in
    /// `sounds`: its plan, its samples (mono) at the set's rate, and the line that says how it
    /// differs from the whole announcement.
    /// - Throws: what the runtime says when the amount cannot be read, planned or composed.
    static func compose(_ amount: String, manifest: Manifest, sounds: URL) throws -> (plan: AnnouncementPlan, samples: [Float], note: String?) {
        let played = try PlayedAnnouncement.of(try Amount(amount), manifest: manifest)
        let composed = try played.sound(manifest: manifest, soundsFolder: sounds)
        let file = try SoundFile.open(bytes: composed, path: amount)
        return (played.plan, Mono.mixDown(try file.readAll(), channels: file.info.channels), played.note)
    }
}
