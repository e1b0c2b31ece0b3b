import Foundation
import SoundsetBuild
import SoundsetCheck
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset check` of an assets folder of several voices: each voice's set checked as a one-voice
/// set is (`Checker.run` on `Assets/voices/<voice>` and `Output/voices/<voice>`), and
/// `Output/voices.json` held to the sets built; every line names its voice.
struct VoicesCheck: Encodable {
    /// One voice's check.
    struct Voice: Encodable {
        var voice: String
        var report: CheckReport
    }

    /// True when every voice's check passed and the index holds.
    var ok: Bool
    var voices: [Voice]
    /// What is wrong with the voices themselves (the folders, the index), of no one voice.
    var problems: [CheckProblem]

    /// Checks `voice`, or every voice of the assets folder.
    /// - Throws: `BuildProblem` for a voice the assets folder does not hold, or a one-voice assets folder.
    static func run(assets: String, output: String, voice: String?, spelling: CommandSpelling) async throws -> VoicesCheck {
        let assetsURL = URL(fileURLWithPath: assets)
        let outputURL = URL(fileURLWithPath: output)
        guard VoiceFolders.isSeveral(assets: assetsURL) else { throw BuildProblem("--voice \(voice ?? "")", VoiceProblem.oneVoiceAssets(assets: assets)) }
        let found: VoiceFolders.AssetsVoices
        do { found = try VoiceFolders.voices(assets: assetsURL, display: assets) } catch {
            return VoicesCheck(ok: false, voices: [], problems: error.problems.map { CheckProblem(.configuration, $0.subject, $0.message) })
        }
        if let voice, !found.voices.contains(voice) {
            throw BuildProblem("--voice \(voice)", VoiceProblem.unknownVoice(output: assets, voices: found.voices))
        }
        var checks: [Voice] = []
        let rebuild = spelling.build(assets: assets, output: output)
        for name in voice.map({ [$0] }) ?? found.voices {
            let (voiceAssets, voiceOutput) = (VoiceFolders.display(assets, voice: name), VoiceFolders.display(output, voice: name))
            var report = await Checker.run(
                assets: VoiceFolders.assetsFolder(assets: assetsURL, voice: name), assetsDisplay: voiceAssets,
                output: VoiceFolders.setFolder(output: outputURL, voice: name), outputDisplay: voiceOutput, spelling: spelling)
            // The fix is the build of every voice (which writes voices.json too), not the voice's alone.
            let voiceBuild = spelling.build(assets: voiceAssets, output: voiceOutput)
            for index in report.problems.indices {
                report.problems[index].message = report.problems[index].message.replacingOccurrences(of: voiceBuild, with: rebuild)
            }
            report.warnings = report.warnings.map { $0.replacingOccurrences(of: voiceBuild, with: rebuild) }
            if let sameLevel = found.sameLevel {
                blameSameLevel(
                    &report, sameLevel: sameLevel, voice: name, set: VoiceFolders.setFolder(output: outputURL, voice: name),
                    voiceConfiguration: "\(voiceAssets)/\(ConfigurationLoader.fileName)", assets: assets, rebuild: rebuild)
            }
            checks.append(Voice(voice: name, report: report))
        }
        holdToSameLevel(&checks, sameLevel: found.sameLevel, of: found.voices, output: outputURL, outputDisplay: output, assetsDisplay: assets)
        let problems = indexProblems(output: outputURL, display: output, voices: checks.filter(\.report.ok).map(\.voice), rebuild: rebuild)
        return VoicesCheck(ok: problems.isEmpty && checks.allSatisfy(\.report.ok), voices: checks, problems: problems)
    }

    /// A voice's settings are stale because `sameLevel` is not the level its set was built to: the
    /// line names `sameLevel`, not the voice's own file, which did not change.
    private static func blameSameLevel(
        _ report: inout CheckReport, sameLevel: Double, voice: String, set: URL, voiceConfiguration: String, assets: String, rebuild: String
    ) {
        guard let manifest = try? ManifestFiles.load(from: set.appendingPathComponent(SoundSetLayout.manifestName)),
            abs(manifest.loudness.target - sameLevel) > 0.0005,
            let index = report.problems.firstIndex(where: { $0.check == .freshness && $0.subject == voiceConfiguration })
        else { return }
        report.problems[index] = CheckProblem(
            .freshness, "\(assets)/\(ConfigurationLoader.fileName): \(VoiceFolders.sameLevelKey)",
            VoiceProblem.sameLevelChanged(voice: voice, built: manifest.loudness.target, sameLevel: sameLevel, rebuild: rebuild))
    }

    /// With `sameLevel`, a problem for each voice checked whose set (sound otherwise) is below it;
    /// the level every voice reaches is the lowest of those sets'.
    private static func holdToSameLevel(
        _ checks: inout [Voice], sameLevel: Double?, of voices: [String], output: URL, outputDisplay: String, assetsDisplay: String
    ) {
        guard sameLevel != nil else { return }
        let sound = Set(checks.filter(\.report.ok).map(\.voice))
        let levels = voices.filter(sound.contains).compactMap { voice -> (voice: String, setLevel: Double)? in
            let folder = VoiceFolders.setFolder(output: output, voice: voice)
            return (try? ManifestFiles.load(from: folder.appendingPathComponent(SoundSetLayout.manifestName))).map { (voice, $0.loudness.setLevel) }
        }
        for (voice, problem) in VoicesBuild.belowSameLevel(levels, sameLevel: sameLevel, outputDisplay: outputDisplay, assetsDisplay: assetsDisplay) {
            guard let index = checks.firstIndex(where: { $0.voice == voice && $0.report.ok }) else { continue }
            checks[index].report.problems.append(CheckProblem(.configuration, problem.subject, problem.message))
            checks[index].report.ok = false
        }
    }

    /// Whether `voices.json` lists each of `voices` (whose sets passed) with the id of its set.
    private static func indexProblems(output: URL, display: String, voices: [String], rebuild: String) -> [CheckProblem] {
        let subject = "\(display)/\(VoiceFolders.indexName)"
        let index: VoiceFolders.Index
        do { index = try VoiceFolders.index(output: output, display: display, rebuild: rebuild) } catch {
            return [CheckProblem(.freshness, error.subject, error.message)]
        }
        return voices.compactMap { voice in
            let folder = VoiceFolders.setFolder(output: output, voice: voice)
            let id = (try? ManifestFiles.load(from: folder.appendingPathComponent(SoundSetLayout.manifestName))).map {
                SoundSet(manifest: $0, folder: folder).id
            }
            guard index.voices.first(where: { $0.voice == voice })?.setId != id else { return nil }
            return CheckProblem(.freshness, subject, VoiceProblem.indexStale(voice: voice, rebuild: rebuild))
        }
    }

    /// Prints the check: each voice's lines and summary naming it, then the voices' own problems and
    /// the last line; or the JSON; after GitHub's annotations when `annotate`.
    func print(format: String, annotate: Bool, console: Console) {
        if annotate {
            for check in voices { CheckCommand.annotate(check.report, lead: Voices.line("", voice: check.voice), console: console) }
            CheckCommand.annotate(CheckReport(ok: ok, problems: problems, budget: nil, clips: 0), console: console)
        }
        if format == "json" {
            console.out((try? JSONFormatting.text(self)) ?? "{}")
            return
        }
        for check in voices {
            for problem in check.report.problems { console.out(Voices.line(problem.description, voice: check.voice)) }
            for warning in check.report.warnings { console.out(Voices.line("warning: \(warning)", voice: check.voice)) }
            console.out(Voices.line(CheckCommand.summary(check.report), voice: check.voice))
        }
        for problem in problems { console.out(problem.description) }
        let failed = voices.filter { !$0.report.ok }.map(\.voice)
        let names = voices.map(\.voice).joined(separator: ", ")
        if ok {
            console.out("check passed: \(voices.count) voice\(voices.count == 1 ? "" : "s") (\(names))")
        } else {
            let which = failed.isEmpty ? "" : ": voice\(failed.count == 1 ? "" : "s") \(failed.joined(separator: ", "))"
            console.out("check failed\(which)\(problems.isEmpty ? "" : "; \(problems.count) problem\(problems.count == 1 ? "" : "s") of the voices")")
        }
    }
}
