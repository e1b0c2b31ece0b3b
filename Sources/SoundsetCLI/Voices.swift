import Foundation
import SoundsetBuild
import SoundsetSetFolder

/// `--voice`, and how the commands name a voice in what they print, when the assets and output
/// folders hold several voices (`VoiceFolders`).
enum Voices {
    /// `voice en-US: ` before `text`: every line a several-voice build or check prints names its voice.
    static func line(_ text: String, voice: String) -> String { "voice \(voice): \(text)" }

    /// The set folder a command reads: `--output` itself (one voice), or `--output`/voices/`--voice`
    /// (or the default voice's).
    /// - Throws: `UsageError` for a `--voice` that cannot name a voice; `BuildProblem` (exit 1) for
    ///   a voice the output folder does not hold, a voice asked of a one-voice set, or several voices
    ///   and no default.
    static func setFolder(_ parsed: Arguments, output: String, spelling: CommandSpelling) throws -> VoiceFolders.Choice {
        let voice = try name(parsed)
        return try VoiceFolders.setFolder(
            output: URL(fileURLWithPath: output), display: output, voice: voice, rebuild: spelling.build(output: output))
    }

    /// The voice of the assets folder `assets` a command works on: `--voice`, or without it the
    /// default voice when the folder holds several; nil for a one-voice folder without `--voice`.
    /// - Throws: `UsageError` for a name that cannot be a voice's; `BuildFailure` for a bad layout;
    ///   `BuildProblem` for `--voice` with a one-voice folder, a voice it does not hold, or several
    ///   voices and no default.
    static func assetsVoice(_ parsed: Arguments, assets: String) throws -> String? {
        let name = try name(parsed)
        let assetsURL = URL(fileURLWithPath: assets)
        guard VoiceFolders.isSeveral(assets: assetsURL) else {
            guard let name else { return nil }
            throw BuildProblem("\(Option.voice.name) \(name)", VoiceProblem.oneVoiceAssets(assets: assets))
        }
        let voices = try VoiceFolders.voices(assets: assetsURL, display: assets)
        guard let voice = name ?? voices.defaultVoice else {
            throw BuildProblem(assets, VoiceProblem.noDefault(voices: voices.voices, settings: "\(assets)/soundset.json"))
        }
        guard voices.voices.contains(voice) else {
            throw BuildProblem("\(Option.voice.name) \(voice)", VoiceProblem.unknownVoice(output: assets, voices: voices.voices))
        }
        return voice
    }

    /// `--voice`'s name, held to the voice names' rule; nil when it is not given.
    static func name(_ parsed: Arguments) throws -> String? {
        guard let voice = parsed.given(.voice) else { return nil }
        if let reason = VoiceFolders.nameProblem(voice) {
            throw UsageError("\(Option.voice.name) '\(ClipNamePrinting.safe(voice))' is not a voice's name (\(reason))")
        }
        return voice
    }
}

extension BuildCommand {
    /// What a several-voice build cannot do.
    static func refuseForSeveralVoices(_ parsed: Arguments, assets: String, output: String) throws {
        if parsed.has(watch) {
            throw UsageError("\(watch.name) watches one voice: \(assets) holds several (\(assets)/\(VoiceFolders.folderName)/); build without \(watch.name)")
        }
        if parsed.given(report) != nil {
            throw UsageError(
                "\(report.name) names one report: \(assets) holds several voices, and each voice's report is written beside its set "
                    + "(\(output)/\(VoiceFolders.folderName)/<voice>.report.html); leave out \(report.name)")
        }
    }

    /// Builds every voice of the assets folder, one after the other, each line naming its voice;
    /// then `voices.json`. Returns the exit code: 1 when any voice failed.
    static func buildVoices(_ options: BuildOptions, _ printing: Printing) async -> Int32 {
        let console = printing.console
        let plan: VoicesBuild.Plan
        do { plan = try VoicesBuild.begin(options) } catch {
            for problem in error.problems { console.err("error: \(problem)") }
            let count = error.problems.count
            console.err("soundset: build failed with \(count) problem\(count == 1 ? "" : "s"); \(options.outputDisplay) was not changed")
            return ExitCode.failure
        }
        var status = ExitCode.success
        var built: Set<String> = []
        for voice in plan.voices {
            let voiceStatus = await buildOnce(VoicesBuild.options(for: voice, from: options), printing.naming(voice))
            if voiceStatus == ExitCode.success { built.insert(voice) } else { status = voiceStatus }
        }
        let finished = VoicesBuild.finish(plan, options, built: built)
        for note in finished.notes { console.err(note.voice.map { Voices.line("soundset: \(note.text)", voice: $0) } ?? "soundset: \(note.text)") }
        for problem in finished.errors { console.err("error: \(problem)") }
        for (voice, problem) in finished.warnings { console.err(Voices.line("warning: \(problem)", voice: voice)) }
        if !finished.errors.isEmpty { status = ExitCode.failure }
        if !printing.quiet, let index = finished.index {
            let names = index.voices.map(\.voice).joined(separator: ", ")
            let defaulted = index.defaultVoice.map { "default \($0)" } ?? "no default: set defaultVoice in \(options.assetsDisplay)/soundset.json"
            console.out("voices: \(names.isEmpty ? "none built" : names) (\(defaulted)) in \(options.outputDisplay)/\(VoiceFolders.indexName)")
        }
        return status
    }
}
