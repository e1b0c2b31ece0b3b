import Foundation
import SoundsetReport
import SoundsetRuntime
import SoundsetSetFolder

/// The build of an assets folder of several voices (`Assets/voices/<voice>/`): each voice is built
/// by `BuildPipeline`, as a one-voice assets folder is, into its own set (`Output/voices/<voice>/`,
/// with its own memo, lock, staging and swap); the whole build holds the output folder's build lock
/// (the one a one-voice build of it takes), and writes `Output/voices.json` last.
///
/// ```
/// begin ── lock-Output ─ the voices of Assets ─ Output holds nothing else ──────────────────────▶
///   options(for: voice) ── BuildPipeline.run, each voice after the other
///   finish ── the one-voice set Output held, and voices whose takes are gone, removed ─ voices.json
/// ```
package enum VoicesBuild {
    /// A several-voice build under way: its voices, and the output folder's lock, held until it ends.
    package final class Plan: Sendable {
        /// The voices of the assets folder, sorted.
        package let voices: [String]
        /// The default voice: the one `Assets/soundset.json` names, else the only one.
        package let defaultVoice: String?
        /// The one level every voice is held to (`sameLevel` of `Assets/soundset.json`), LUFS.
        package let sameLevel: Double?
        /// The output folder, resolved.
        let output: URL
        nonisolated(unsafe) let lock: LockFile

        init(voices: VoiceFolders.AssetsVoices, output: URL, lock: LockFile) {
            self.voices = voices.voices
            defaultVoice = voices.defaultVoice
            sameLevel = voices.sameLevel
            self.output = output
            self.lock = lock
        }
    }

    /// Whether the assets folder of `options` holds several voices (`voices/` in it).
    package static func isSeveral(_ options: BuildOptions) -> Bool { VoiceFolders.isSeveral(assets: options.assets) }

    /// Takes the output folder's build lock, reads the voices, and refuses an output folder that
    /// holds what the build did not write.
    /// - Throws: `BuildFailure` with every problem; nothing was written.
    package static func begin(_ options: BuildOptions) throws(BuildFailure) -> Plan {
        let voices = try VoiceFolders.voices(assets: options.assets, display: options.assetsDisplay)
        let output: URL
        let lock: LockFile
        do {
            output = try OutputFolder.resolve(options.output, display: options.outputDisplay)
            lock = try OutputLocks.build(output, display: options.outputDisplay, wait: options.waitForOtherBuilds, waiting: options.waiting)
        } catch {
            throw BuildFailure([error])
        }
        let allowed: Set<String> = [VoiceFolders.folderName, VoiceFolders.indexName, ".DS_Store", SoundSetLayout.manifestName, SoundSetLayout.soundsName]
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).sorted()
        let strangers = entries.filter { !allowed.contains($0) && RegularFile.replacedName(ofTemporary: $0) != VoiceFolders.indexName }
        if !strangers.isEmpty {
            throw BuildFailure(
                strangers.map {
                    BuildProblem("\(options.outputDisplay)/\(ClipName.printable($0))", VoiceProblem.strangerInVoicesOutput(output: options.outputDisplay))
                })
        }
        return Plan(voices: voices, output: output, lock: lock)
    }

    /// The options of one voice's build: its assets folder, its set folder, named so in messages.
    package static func options(for voice: String, from options: BuildOptions) -> BuildOptions {
        var voiceOptions = options
        voiceOptions.assets = VoiceFolders.assetsFolder(assets: options.assets, voice: voice)
        voiceOptions.assetsDisplay = VoiceFolders.display(options.assetsDisplay, voice: voice)
        voiceOptions.output = VoiceFolders.setFolder(output: options.output, voice: voice)
        voiceOptions.outputDisplay = VoiceFolders.display(options.outputDisplay, voice: voice)
        voiceOptions.reportFile = nil
        return voiceOptions
    }

    /// What `finish` did: a line for each folder it removed, and what went wrong.
    package struct Finished: Sendable {
        /// `(voice, line)`: the voice a line is about (nil for the one-voice set), and the line.
        package var notes: [(voice: String?, text: String)] = []
        package var errors: [BuildProblem] = []
        /// What the check will fail on: each voice whose set is below `sameLevel`.
        package var warnings: [(voice: String, problem: BuildProblem)] = []
        /// The index written (or found as it is).
        package var index: VoiceFolders.Index?
    }

    /// After every voice's build: removes the one-voice set the output folder held and the sets of
    /// voices whose folder is gone from the assets, then writes `voices.json` (atomically, only when
    /// it changes), listing each voice whose set is in place.
    /// - Parameter built: the voices whose build succeeded now: only their sets' levels are held
    ///   to `sameLevel` (another voice's set is the last one built, at the settings it had then).
    package static func finish(_ plan: Plan, _ options: BuildOptions, built: Set<String>) -> Finished {
        var finished = Finished()
        removeOneVoiceSet(plan, options, into: &finished)
        removeGoneVoices(plan, options, into: &finished)
        var entries: [VoiceFolders.Index.Voice] = []
        var levels: [(voice: String, setLevel: Double)] = []
        for voice in plan.voices {
            let folder = VoiceFolders.setFolder(output: plan.output, voice: voice)
            guard let manifest = try? ManifestFiles.load(from: folder.appendingPathComponent(SoundSetLayout.manifestName)) else { continue }
            entries.append(.init(voice: voice, locale: manifest.locale.rawValue, setId: SoundSet(manifest: manifest, folder: folder).id))
            if built.contains(voice) { levels.append((voice, manifest.loudness.setLevel)) }
        }
        finished.warnings = belowSameLevel(levels, sameLevel: plan.sameLevel, outputDisplay: options.outputDisplay, assetsDisplay: options.assetsDisplay)
        let listed = entries.map(\.voice)
        let index = VoiceFolders.Index(defaultVoice: plan.defaultVoice.flatMap { listed.contains($0) ? $0 : nil }, voices: entries)
        let url = plan.output.appendingPathComponent(VoiceFolders.indexName)
        do {
            let data = try index.encoded()
            if (try? RegularFile.read(url, maxBytes: 1 << 20)) != data {
                try FileManager.default.createDirectory(at: plan.output, withIntermediateDirectories: true)
                try RegularFile.replace(url, with: data)
            }
            finished.index = index
        } catch {
            finished.errors.append(
                BuildProblem("\(options.outputDisplay)/\(VoiceFolders.indexName)", OutputProblem.unwritable(reason: RegularFile.reason(error))))
        }
        return finished
    }

    /// Each voice whose set is below the level `sameLevel` holds every voice to, with its problem,
    /// which names the highest level every one of `levels` reaches.
    /// - Parameter levels: each built voice's set level, LUFS.
    package static func belowSameLevel(
        _ levels: [(voice: String, setLevel: Double)], sameLevel: Double?, outputDisplay: String, assetsDisplay: String
    ) -> [(voice: String, problem: BuildProblem)] {
        guard let sameLevel, let lowest = levels.map(\.setLevel).min() else { return [] }
        return levels.filter { $0.setLevel < sameLevel - 0.005 }.map { voice, setLevel in
            let subject = "\(VoiceFolders.display(outputDisplay, voice: voice))/\(SoundSetLayout.manifestName): setLevel"
            let problem = VoiceProblem.belowSameLevel(voice: voice, setLevel: setLevel, sameLevel: sameLevel, reached: lowest, assets: assetsDisplay)
            return (voice, BuildProblem(subject, problem))
        }
    }

    /// Removes the set a one-voice build left in the output folder (its manifest, `Sounds/`, and
    /// its report beside the output folder), under its swap lock.
    private static func removeOneVoiceSet(_ plan: Plan, _ options: BuildOptions, into finished: inout Finished) {
        let manifest = plan.output.appendingPathComponent(SoundSetLayout.manifestName)
        let sounds = plan.output.appendingPathComponent(SoundSetLayout.soundsName)
        guard FileManager.default.fileExists(atPath: manifest.path) || FileManager.default.fileExists(atPath: sounds.path) else { return }
        let report = Report.defaultLocation(output: plan.output, outputDisplay: options.outputDisplay)
        do {
            let swap = try OutputLocks.swap(plan.output)
            defer { swap.unlock() }
            for url in [manifest, sounds] where FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            if ReportFile.head(of: report.url).map(ReportFile.isSoundsetReport) == true { try FileManager.default.removeItem(at: report.url) }
            finished.notes.append(
                (
                    nil,
                    "removed the one-voice set \(options.outputDisplay) held (manifest.json, Sounds/): each voice's set is in \(options.outputDisplay)/voices/"
                ))
        } catch {
            finished.errors.append(BuildProblem(options.outputDisplay, VoiceProblem.cannotRemove(reason: RegularFile.reason(error))))
        }
    }

    /// Removes each set in `Output/voices/` whose voice is gone from the assets (and its report),
    /// holding that set's build and swap locks.
    private static func removeGoneVoices(_ plan: Plan, _ options: BuildOptions, into finished: inout Finished) {
        let voicesURL = plan.output.appendingPathComponent(VoiceFolders.folderName)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: voicesURL.path)) ?? []).sorted()
        for name in names where VoiceFolders.nameProblem(name) == nil && !plan.voices.contains(name) {
            let folder = voicesURL.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(SoundSetLayout.manifestName).path) else { continue }
            let display = VoiceFolders.display(options.outputDisplay, voice: name)
            let report = Report.defaultLocation(output: folder, outputDisplay: display)
            do {
                let lock = try OutputLocks.build(folder, display: display, wait: options.waitForOtherBuilds, waiting: options.waiting)
                let swap = try OutputLocks.swap(folder)
                defer {
                    swap.unlock()
                    withExtendedLifetime(lock) {}
                }
                try FileManager.default.removeItem(at: folder)
                if ReportFile.head(of: report.url).map(ReportFile.isSoundsetReport) == true { try FileManager.default.removeItem(at: report.url) }
                let assets = VoiceFolders.display(options.assetsDisplay, voice: name)
                finished.notes.append((name, "removed \(display) (\(assets) is gone)"))
            } catch let problem as BuildProblem {
                finished.errors.append(problem)
            } catch {
                finished.errors.append(BuildProblem(display, VoiceProblem.cannotRemove(reason: RegularFile.reason(error))))
            }
        }
    }
}
