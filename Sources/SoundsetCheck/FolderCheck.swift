import Foundation
import SoundsetAudio
import SoundsetBuild
import SoundsetFindings
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset check` of a set's folder: its manifest and files, what else is in it and beside it,
/// its freshness, and every value of its manifest held to what the build makes of the same
/// recordings (`BuildPipeline.derive`, the build's own code). Above the build, which it runs; the
/// parts the build asks too (`Checker.setCheck`, `Checker.freshness`) are the build's.
extension Checker {
    /// Runs every check.
    /// - Parameters:
    ///   - assetsDisplay, outputDisplay: how the folders are named in problems (as the user gave them).
    ///   - spelling: how the hints name the commands to run.
    /// The check reads the set while no build swaps a new one in, so it never reports a mix of two.
    public static func run(assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, spelling: CommandSpelling = .installed) async -> CheckReport
    {
        do {
            return try await OutputFolder.reading(output) {
                var report = checkHoldingSwapLock(
                    assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay, spelling: spelling)
                // Every value of the manifest, held to what the recordings and settings give: once the
                // set is otherwise fresh and whole (else what is stale is the thing to say).
                if !report.problems.contains(where: { [.integrity, .freshness, .configuration].contains($0.check) }) {
                    let derived = await derivation(
                        assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay, spelling: spelling)
                    report.problems += derived
                    report.ok = report.ok && derived.isEmpty
                }
                return report
            }
        } catch {
            let problem = error as? BuildProblem ?? BuildProblem(outputDisplay, ForwardedProblem.error(error))
            return CheckReport(ok: false, problems: [CheckProblem(.integrity, problem.subject, problem.message)], budget: nil, clips: 0)
        }
    }

    /// The check without the swap lock: for a caller that holds it, or a folder nobody else sees.
    static func runUnlocked(assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, spelling: CommandSpelling = .installed) -> CheckReport {
        checkHoldingSwapLock(assets: assets, assetsDisplay: assetsDisplay, output: output, outputDisplay: outputDisplay, spelling: spelling)
    }

    private static func checkHoldingSwapLock(
        assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, spelling: CommandSpelling
    ) -> CheckReport {
        var problems: [CheckProblem] = []
        let rebuild = rebuildCommand(assetsDisplay: assetsDisplay, outputDisplay: outputDisplay, spelling: spelling)
        let configPath = "\(assetsDisplay)/\(ConfigurationLoader.fileName)"
        var configuration = Configuration()
        var configurationValid = true
        if case .failure(let folder) = AssetCatalog.listing(assets) {
            // Nothing in it can be read (or there is no such folder): the folder is the one problem
            // to name, not each recording and setting as if removed since the build.
            return CheckReport(
                ok: false, problems: [CheckProblem(.freshness, assetsDisplay, CatalogProblem.folder(folder, folder: assetsDisplay))], budget: nil, clips: 0)
        }
        do {
            configuration = try ConfigurationLoader.load(from: assets.appendingPathComponent(ConfigurationLoader.fileName), displayPath: configPath)
        } catch {
            configurationValid = false
            problems += error.problems.map { CheckProblem(.configuration, $0.subject, $0.message) }
        }

        // A manifest or a Sounds folder that is a link is not the set, whatever it points to: what
        // it points to is not looked at.
        let folderLinks = SetLink.links(in: output).filter { !$0.isInSounds }
        if !folderLinks.isEmpty {
            problems += folderLinks.map {
                CheckProblem(.integrity, "\(outputDisplay)/\($0.path)", IntegrityProblem.link(problem: $0.problem, rebuild: rebuild))
            }
            return CheckReport(ok: false, problems: problems, budget: nil, clips: 0)
        }
        let manifestPath = "\(outputDisplay)/\(SoundSetLayout.manifestName)"
        let manifest: Manifest
        do { manifest = try Manifest.load(from: output.appendingPathComponent(SoundSetLayout.manifestName)) } catch {
            let problem: FolderCheckProblem
            switch error {
            case .unreadable: problem = .manifestUnreadable(rebuild: rebuild)
            case .newerSchema(_, let found, let supported): problem = .newerSchema(found: found, supported: supported)
            case .invalid(_, let reason):
                // The build replaces a set whose manifest is damaged, unless the folder holds what it did not write.
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
                if case .stranger(let stranger) = OutputFolder.damagedSet(output, entries: entries) {
                    problem = .notAManifestWithStranger(reason: reason, folder: outputDisplay, stranger: stranger, rebuild: rebuild)
                } else {
                    problem = .notAManifest(reason: reason, rebuild: rebuild)
                }
            case .tooLarge(_, let size, let limit): problem = .manifestTooLarge(size: size, limit: limit, rebuild: rebuild)
            }
            problems.append(CheckProblem(.integrity, manifestPath, problem))
            return CheckReport(ok: false, problems: problems, budget: nil, clips: 0)
        }

        let sounds = output.appendingPathComponent(SoundSetLayout.soundsName)
        let soundsDisplay = "\(outputDisplay)/\(SoundSetLayout.soundsName)"
        problems += SetIntegrity.problems(manifest, sounds: sounds, soundsDisplay: soundsDisplay, manifestPath: manifestPath, rebuild: rebuild)
        problems += foreign(in: output, outputDisplay: outputDisplay, manifest: manifest)
        problems += reports(of: manifest, output: output, outputDisplay: outputDisplay, rebuild: rebuild)
        problems += freshness(
            manifest, assets: assets, assetsDisplay: assetsDisplay, configuration: configurationValid ? configuration : nil,
            configPath: configPath, manifestPath: manifestPath, rebuild: rebuild)
        let set = setCheck(
            manifest, configuration: configurationValid ? configuration : nil, assetsDisplay: assetsDisplay, outputDisplay: outputDisplay,
            spelling: spelling)
        problems += set.problems
        var report = CheckReport(ok: problems.isEmpty, problems: problems, budget: set.budget, clips: manifest.clips.count)
        report.warnings = sameRecordings(manifest, assets: assets, assetsDisplay: assetsDisplay, configuration: configuration)
        return report
    }

    /// The recordings of `manifest`'s clips that are one recording under two or more names, as the
    /// build words them: a warning, which does not fail the check. Each take is decoded, trimmed and
    /// resampled as the build does (`ClipPreparer.decode`, `resampledWord`); one that cannot be is left to the other checks.
    static func sameRecordings(_ manifest: Manifest, assets: URL, assetsDisplay: String, configuration: Configuration) -> [String] {
        let files = Set(manifest.clips.map(\.source.file)).sorted()
        let takes = files.compactMap { file -> (file: String, fingerprint: TakeFingerprint)? in
            // A name from the manifest, which anyone may have edited: a file in the assets folder only.
            guard !file.contains("/"), ClipName.problem(with: (file as NSString).deletingPathExtension) == nil,
                let bytes = try? RegularFile.read(assets.appendingPathComponent(file), maxBytes: PrepareStage.maxRecordingBytes),
                let take = try? ClipPreparer.decode(file, bytes: bytes, configuration: configuration),
                let word = try? take.resampledWord(file, configuration: configuration)
            else { return nil }
            return (file, TakeFingerprint(word, sampleRate: configuration.sampleRate))
        }
        return SameRecordings.groups(takes).map { group in
            ClipNote.sameRecording(group.map { "\(assetsDisplay)/\(ClipName.printable($0))" })
        }
    }

    /// The manifest's values that are not what the build makes of the same recordings and settings
    /// (`BuildPipeline.derive`, the build's own code, asked with the memo beside the output folder,
    /// read only: a set the memo knows is derived without finishing a clip; a set it does not know
    /// is prepared and finished again, in memory). One problem per value, naming its key, both
    /// values and the fix.
    static func derivation(
        assets: URL, assetsDisplay: String, output: URL, outputDisplay: String, spelling: CommandSpelling = .installed
    ) async -> [CheckProblem] {
        let rebuild = rebuildCommand(assetsDisplay: assetsDisplay, outputDisplay: outputDisplay, spelling: spelling)
        let manifestPath = "\(outputDisplay)/\(SoundSetLayout.manifestName)"
        let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let resolved = (try? OutputFolder.resolve(output, display: outputDisplay)) ?? output.standardizedFileURL
        do {
            guard let manifest = try? ManifestFiles.load(from: resolved.appendingPathComponent(SoundSetLayout.manifestName)) else { return [] }
            // What keeps the recordings from being prepared is a BuildFailure, said below.
            let derived = try await BuildPipeline.derivedManifest(
                assets: assets, assetsDisplay: assetsDisplay, output: resolved, outputDisplay: outputDisplay, jobs: jobs)
            return ManifestDifferences.between(manifest, derived).map { difference in
                CheckProblem(.freshness, manifestPath, FolderCheckProblem.differs(difference, assets: assetsDisplay, rebuild: rebuild))
            }
        } catch let failure as BuildFailure {
            return failure.problems.map { CheckProblem(.freshness, $0.subject, $0.message) }
        } catch let problem as BuildProblem {
            return [CheckProblem(.freshness, problem.subject, problem.message)]
        } catch {
            return [CheckProblem(.freshness, manifestPath, FolderCheckProblem.notDerivable(assets: assetsDisplay, reason: "\(error)", rebuild: rebuild))]
        }
    }

    /// What the next build would refuse: a file in the folder soundset did not write (the integrity
    /// check above names unlisted clip files). (A report that reloads itself is not one: a watch may
    /// be running, and the next build writes it without the reload.)
    static func foreign(in output: URL, outputDisplay: String, manifest: Manifest) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        let listedHere = Set(OutputFolder.clipFiles(in: output.appendingPathComponent(SoundSetLayout.soundsName)).map { "\(SoundSetLayout.soundsName)/\($0)" })
        if let stranger = OutputFolder.unwritten(in: output, entries: entries, manifest: manifest), !listedHere.contains(stranger) {
            problems.append(
                CheckProblem(.integrity, "\(outputDisplay)/\(ClipName.printable(stranger))", FolderCheckProblem.notWritten(folder: outputDisplay)))
        }
        return problems
    }

    /// The set's report, which the build writes beside the set (`Output.report.html`), when it is
    /// another set's; and soundset 0.8's report inside the set, which the app would ship.
    static func reports(of manifest: Manifest, output: URL, outputDisplay: String, rebuild: String) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        let place = Report.defaultLocation(output: output, outputDisplay: outputDisplay)
        if let head = Report.head(of: output.appendingPathComponent(ReportFile.legacyFileName)), Report.isSoundsetReport(head) {
            problems.append(
                CheckProblem(.report, "\(outputDisplay)/\(ReportFile.legacyFileName)", SetReportProblem.insideSet(place: place.display, rebuild: rebuild)))
        }
        if let head = Report.head(of: place.url), Report.isSoundsetReport(head) {
            let id = SoundSet(manifest: manifest, folder: output).id
            switch Report.setID(in: head) {
            case id: break
            case let other?:
                problems.append(
                    CheckProblem(.report, place.display, SetReportProblem.anotherSet(other: other, folder: outputDisplay, id: id, rebuild: rebuild)))
            case nil:
                problems.append(
                    CheckProblem(.report, place.display, SetReportProblem.namesNoSet(folder: outputDisplay, rebuild: rebuild)))
            }
        }
        return problems
    }

    /// What is wrong with one clip's file: missing, not its sha256, or a header that disagrees with
    /// the manifest.
}
