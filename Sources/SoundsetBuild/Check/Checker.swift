import Foundation
import SoundsetAudio
import SoundsetBudget
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset check`: reads Assets and Output, writes nothing but the shared lock it reads under
/// (`.soundset-cache/swap-<name>`), reports every problem. Here, the parts a build asks too: the
/// checks of a manifest and its settings (`setCheck`) and of its recordings (`freshness`); the
/// check of a set's folder (`run`) is SoundsetCheck's, above the build, which it runs again.
public enum Checker {
    /// The command that builds the set again, with the folders as the user named them, spelled as
    /// the user runs soundset (`CommandSpelling`): what every hint of the check says to run.
    public static func rebuildCommand(assetsDisplay: String, outputDisplay: String, spelling: CommandSpelling = .installed) -> String {
        spelling.build(assets: assetsDisplay, output: outputDisplay)
    }

    /// The parts of the check that need only the manifest and the configuration: durations, format,
    /// completeness and both budgets. The check runs them after its file checks; a build runs them
    /// on the set it staged (for its warnings and the report), whose files it has just verified.
    /// - Parameter configuration: nil when it could not be read: the limits and the budgets are
    ///   then left out, so that its problems are said, not what its defaults would find.
    public static func setCheck(
        _ manifest: Manifest, configuration: Configuration?, assetsDisplay: String, outputDisplay: String, spelling: CommandSpelling = .installed
    ) -> CheckReport {
        let rebuild = rebuildCommand(assetsDisplay: assetsDisplay, outputDisplay: outputDisplay, spelling: spelling)
        let configPath = "\(assetsDisplay)/\(ConfigurationLoader.fileName)"
        let manifestPath = "\(outputDisplay)/\(SoundSetLayout.manifestName)"
        var problems: [CheckProblem] = []
        if let configuration {
            problems += durations(
                manifest, configuration: configuration, soundsDisplay: "\(outputDisplay)/\(SoundSetLayout.soundsName)", configPath: configPath,
                spelling: spelling)
        }
        problems += format(manifest, manifestPath: manifestPath, rebuild: rebuild)
        problems += manifestSize(manifest, manifestPath: manifestPath)
        let missing = completeness(manifest, manifestPath: manifestPath, assetsDisplay: assetsDisplay, rebuild: rebuild, spelling: spelling)
        problems += missing
        var budget: CheckBudget?
        if missing.isEmpty, let configuration {
            let result = worstCase(manifest, locale: manifest.locale, configuration: configuration, rebuild: rebuild)
            budget = result.budget
            problems += result.problems.map { CheckProblem(.budget, configPath, $0) }
        }
        return CheckReport(ok: problems.isEmpty, problems: problems, budget: budget, clips: manifest.clips.count)
    }

    /// What `Freshness` finds stale, in the check's words; a recording that cannot be read is said
    /// with its reason.
    package static func freshness(
        _ manifest: Manifest, assets: URL, assetsDisplay: String, configuration: Configuration?,
        configPath: String, manifestPath: String, rebuild: String
    ) -> [CheckProblem] {
        let listed: [String]
        switch AssetCatalog.listing(assets) {
        case .success(let names): listed = names
        case .failure(let folder):
            return Freshness.staleness(of: manifest, settingsHash: configuration?.hash, recordings: [:]).compactMap { staleness in
                if case .removed = staleness { return nil }
                return freshnessProblem(staleness, assetsDisplay: assetsDisplay, configPath: configPath, manifestPath: manifestPath, rebuild: rebuild)
            } + [CheckProblem(.freshness, assetsDisplay, CatalogProblem.folder(folder, folder: assetsDisplay))]
        }
        let files =
            listed
            .filter { name in
                var isDirectory: ObjCBool = false
                return AssetCatalog.isRecordingName(name)
                    && FileManager.default.fileExists(atPath: assets.appendingPathComponent(name).path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        var recordings: [String: String?] = [:]
        var unreadable: [String: String] = [:]
        for name in files {
            do { recordings[name] = try SHA256.hex(fileAt: assets.appendingPathComponent(name)) } catch {
                recordings[name] = .some(nil)
                unreadable[name] = error.reason
            }
        }
        return Freshness.staleness(of: manifest, settingsHash: configuration?.hash, recordings: recordings).map { staleness in
            if case .unreadable(let name) = staleness {
                return CheckProblem(.freshness, "\(assetsDisplay)/\(ClipName.printable(name))", FreshnessProblem.unreadable(reason: unreadable[name]))
            }
            return freshnessProblem(staleness, assetsDisplay: assetsDisplay, configPath: configPath, manifestPath: manifestPath, rebuild: rebuild)
        }
    }

    /// One way the set is stale, as the check says it.
    private static func freshnessProblem(
        _ staleness: Freshness.Staleness, assetsDisplay: String, configPath: String, manifestPath: String, rebuild: String
    ) -> CheckProblem {
        func path(_ name: String) -> String { "\(assetsDisplay)/\(ClipName.printable(name))" }
        switch staleness {
        case .tool(let version):
            return CheckProblem(.freshness, manifestPath, FreshnessProblem.tool(version: version, rebuild: rebuild))
        case .settings: return CheckProblem(.freshness, configPath, FreshnessProblem.changed(rebuild: rebuild))
        case .added(let name): return CheckProblem(.freshness, path(name), FreshnessProblem.added(rebuild: rebuild))
        case .changed(let name): return CheckProblem(.freshness, path(name), FreshnessProblem.changed(rebuild: rebuild))
        case .removed(let name): return CheckProblem(.freshness, path(name), FreshnessProblem.removed(rebuild: rebuild))
        case .unreadable(let name): return CheckProblem(.freshness, path(name), FreshnessProblem.unreadable(reason: nil))
        }
    }

    static func durations(
        _ manifest: Manifest, configuration: Configuration, soundsDisplay: String, configPath: String, spelling: CommandSpelling = .installed
    ) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        // A pattern that names no clip holds nothing: most likely a typo, and the limit meant is not applied.
        for pattern in (configuration.limits.maxSeconds ?? [:]).keys.sorted() where !manifest.clips.contains(where: { ClipPattern.matches(pattern, $0.name) }) {
            problems.append(
                CheckProblem(.durations, configPath, SetCheckProblem.patternMatchesNothing(pattern: pattern, clips: spelling.command("clips"))))
        }
        for clip in manifest.clips {
            let path = "\(soundsDisplay)/\(ClipName.printable(clip.file))"
            let seconds = Double(clip.frames) / Double(max(1, manifest.sampleRate))
            if seconds >= AssetCatalog.maxSeconds {
                problems.append(CheckProblem(.durations, path, SetCheckProblem.tooLongForIOS(seconds: seconds)))
            } else if case let limit = configuration.maxSeconds(for: clip.name), seconds > limit.seconds {
                problems.append(
                    CheckProblem(.durations, path, SetCheckProblem.overLimit(seconds: seconds, limit: limit.seconds, pattern: limit.pattern)))
            }
            if seconds < configuration.limits.minSeconds {
                problems.append(
                    CheckProblem(.durations, path, SetCheckProblem.underMinimum(seconds: seconds, minimum: configuration.limits.minSeconds)))
            }
        }
        return problems
    }

    /// A manifest larger than an app's extension reads (`Manifest.maxBytes`): what the build warns
    /// of, and the check (which cannot load it) fails.
    static func manifestSize(_ manifest: Manifest, manifestPath: String) -> [CheckProblem] {
        guard let size = try? ManifestFiles.bytes(of: manifest).count, size > Manifest.maxBytes else { return [] }
        return [CheckProblem(.integrity, manifestPath, SetCheckProblem.manifestTooLarge(size: size, clips: manifest.clips.count))]
    }

    static func format(_ manifest: Manifest, manifestPath: String, rebuild: String) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        if manifest.channels != 1 {
            problems.append(CheckProblem(.format, manifestPath, SetCheckProblem.notMono(channels: manifest.channels, rebuild: rebuild)))
        }
        if manifest.sampleRate > 48000 || manifest.sampleRate < 8000 {
            problems.append(CheckProblem(.format, manifestPath, SetCheckProblem.sampleRateOutOfRange(sampleRate: manifest.sampleRate, rebuild: rebuild)))
        }
        return problems
    }

    /// How to record `missing`: the files to make, named when they are few.
    static func recordHint(_ missing: [String], assetsDisplay: String, spelling: CommandSpelling = .installed) -> String {
        let files = missing.map { "\(assetsDisplay)/\(ClipName.printable($0)).wav" }
        switch files.count {
        case 1: return "record it as \(files[0])"
        case 2...3: return "record them as \(files.dropLast().joined(separator: ", ")) and \(files.last!)"
        default: return "record each as \(assetsDisplay)/<clip>.wav (e.g. \(files[0]); \(spelling.command("clips")) says what each is)"
        }
    }

    /// A take the set has under a name that differs from a missing clip's only in case (`Ten.aiff`
    /// for `ten`): built as a clip of its own, which the reading never uses.
    static func nearMisses(_ missing: [String], in manifest: Manifest, assetsDisplay: String) -> String {
        let hints = missing.compactMap { name -> String? in
            guard let take = manifest.clips.first(where: { $0.name != name && $0.name.lowercased() == name.lowercased() }) else { return nil }
            let file = take.source.file
            let renamed = name + String(file.dropFirst(take.name.count))
            return "\(assetsDisplay)/\(ClipName.printable(file)) looks like \(name): rename it \(ClipName.printable(renamed))"
        }
        return hints.isEmpty ? "" : "; " + hints.joined(separator: "; ")
    }

    static func completeness(
        _ manifest: Manifest, manifestPath: String, assetsDisplay: String, rebuild: String, spelling: CommandSpelling = .installed
    ) -> [CheckProblem] {
        let locale = manifest.locale
        let reading = manifest.reading ?? ReadingOptions()
        let announcement = manifest.announcement ?? AnnouncementSettings()
        let names = Set(manifest.clips.map(\.name))
        let withCopies = Set(manifest.clips.filter { $0.copy != nil }.map(\.name))
        var needed = locale.clipNames(options: reading)
        for phrase in [announcement.prefix, announcement.suffix, announcement.fallback].compactMap({ $0 }) where !needed.contains(phrase) {
            needed.append(phrase)
        }
        let missing = needed.filter { !names.contains($0) }
        var problems: [CheckProblem] = []
        if !missing.isEmpty {
            problems.append(
                CheckProblem(
                    .completeness, manifestPath,
                    SetCheckProblem.missingClips(
                        locale: locale.rawValue, missing: missing, record: recordHint(missing, assetsDisplay: assetsDisplay, spelling: spelling),
                        rebuild: rebuild,
                        nearMisses: nearMisses(missing, in: manifest, assetsDisplay: assetsDisplay))))
        }
        let variants = Set(locale.optionalClipNames.filter(names.contains))
        let missingCopies = locale.copiesNeeded(options: reading, prefix: announcement.prefix, suffix: announcement.suffix, variants: variants)
            .filter { names.contains($0) && !withCopies.contains($0) }
        if !missingCopies.isEmpty {
            problems.append(
                CheckProblem(.completeness, manifestPath, SetCheckProblem.missingCopies(clips: missingCopies, rebuild: rebuild)))
        }
        return problems
    }

    /// - Parameter rebuild: the command that builds the set again, for advice the set's own figures
    ///   cannot give while it is stale.
    static func worstCase(_ manifest: Manifest, locale: SpeechLocale, configuration: Configuration, rebuild: String = "soundset build")
        -> (budget: CheckBudget, problems: [BudgetProblem])
    {
        let announcement = manifest.announcement ?? AnnouncementSettings()
        let timings = Dictionary(manifest.clips.map { ($0.name, ClipTiming($0, join: announcement.join)) }, uniquingKeysWith: { a, _ in a })
        let rate = Double(max(1, manifest.sampleRate))
        let gapFrames = Int((announcement.gapMs * rate / 1000).rounded())
        let maximum = configuration.maxAmount
        let variants = Set(locale.optionalClipNames.filter { timings[$0] != nil })
        // A chain starts no clip before the previous clip's speech ends (`NotificationSchedule`):
        // as if no lead were longer than the gap.
        let chainTimings = timings.mapValues { ClipTiming(frames: $0.frames, lead: min($0.lead, gapFrames), tail: $0.tail) }
        func longest(_ objective: LongestAnnouncement.Objective, in timings: [String: ClipTiming]) -> WorstCase {
            LongestAnnouncement.search(
                upTo: maximum, locale: locale, reading: manifest.reading ?? ReadingOptions(), variants: variants, prefix: announcement.prefix,
                suffix: announcement.suffix, timings: timings, gapFrames: gapFrames, objective: objective)
        }
        // The chain plays every clip, prefix and suffix included.
        let chain = longest(.duration, in: chainTimings)
        let most = longest(.steps, in: chainTimings)
        let seconds = Double(chain.frames) / rate
        var problems: [BudgetProblem] = []
        if seconds >= configuration.maxAnnouncementSeconds {
            problems.append(
                .overBudget(amount: chain.amount.description, seconds: seconds, steps: chain.steps, limit: configuration.maxAnnouncementSeconds))
        }
        if most.steps > NotificationSchedule.maxSteps {
            problems.append(.tooManySteps(amount: "\(most.amount)", steps: most.steps, most: NotificationSchedule.maxSteps))
        }
        let (composed, composedProblem) = composedBudget(
            ComposedSearch(
                maximum: maximum, locale: locale, reading: manifest.reading ?? ReadingOptions(), variants: variants, announcement: announcement,
                timings: timings, gapFrames: gapFrames, whole: chainTimings == timings ? chain : longest(.duration, in: timings), rate: manifest.sampleRate,
                tempo: configuration.hash == manifest.configurationHash ? configuration.tempo : nil, rebuild: rebuild))
        if let composedProblem { problems.append(composedProblem) }
        let budget = CheckBudget(
            worstAmount: chain.amount.description, seconds: seconds, steps: chain.steps,
            limitSeconds: configuration.maxAnnouncementSeconds, mostStepsAmount: most.amount.description, maxSteps: most.steps,
            limitSteps: NotificationSchedule.maxSteps, maxAmount: maximum.description, composed: composed)
        return (budget, problems)
    }

    /// The searches the banner budget asks, over one set's clips.
    struct ComposedSearch {
        let maximum: Amount
        let locale: SpeechLocale
        let reading: ReadingOptions
        let variants: Set<String>
        let announcement: AnnouncementSettings
        let timings: [String: ClipTiming]
        let gapFrames: Int
        /// The longest announcement with its prefix and suffix.
        let whole: WorstCase
        let rate: Int
        /// The tempo the set was built at, for the advice; nil when the set was built with another
        /// `soundset.json` than the one read (then its figures say nothing of the tempo written).
        let tempo: Double?
        /// The command that builds the set again.
        var rebuild = "soundset build"

        var phrases: Bool { announcement.prefix != nil || announcement.suffix != nil }

        /// The longest announcement, bare (without the prefix and suffix).
        func longestBare() -> WorstCase {
            LongestAnnouncement.search(
                upTo: maximum, locale: locale, reading: reading, variants: variants, timings: timings, gapFrames: gapFrames, objective: .duration)
        }

        /// The longest announcement of at most `frames`, whole or bare.
        func longest(within frames: Int, bare: Bool) -> WorstCase? {
            LongestAnnouncement.longestWithin(
                frames, upTo: maximum, locale: locale, reading: reading, variants: variants, prefix: bare ? nil : announcement.prefix,
                suffix: bare ? nil : announcement.suffix, timings: timings, gapFrames: gapFrames)
        }

        /// The highest tempo, in steps of 0.01 from the lowest the build accepts up to below the set's
        /// own, at which the longest bare announcement lasts at most `room` frames, with that
        /// announcement; nil when none does (or the set is at the lowest already).
        ///
        /// A tempo shortens every clip whole, its pads included (the build stretches the trimmed
        /// take), so at `tempo` each clip's frames, lead and tail are the set's times
        /// `tempo / self.tempo`; the gaps between words stay. The lengths only grow with the tempo,
        /// so the highest that fits is found by halving the steps.
        func fittingTempo(room: Int) -> (tempo: Double, worst: WorstCase)? {
            guard let built = tempo else { return nil }
            let lowest = Int((TimeStretcher.tempos.lowerBound * 100).rounded())
            let highest = Int((built * 100).rounded(.up)) - 1
            guard highest >= lowest else { return nil }
            let worst = { (step: Int) in longestBare(atTempo: Double(step) / 100, builtAt: built) }
            var best: (tempo: Double, worst: WorstCase)?
            var (low, high) = (lowest, highest)
            while low <= high {
                let middle = (low + high) / 2
                let found = worst(middle)
                if found.frames <= room {
                    best = (Double(middle) / 100, found)
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            return best
        }

        /// The longest bare announcement had the set been built at `tempo` instead of `builtAt`.
        func longestBare(atTempo tempo: Double, builtAt built: Double) -> WorstCase {
            let ratio = tempo / built
            let scale = { (frames: Int) in Int((Double(frames) * ratio).rounded()) }
            let scaled = timings.mapValues { ClipTiming(frames: scale($0.frames), lead: scale($0.lead), tail: scale($0.tail)) }
            return LongestAnnouncement.search(
                upTo: maximum, locale: locale, reading: reading, variants: variants, timings: scaled, gapFrames: gapFrames, objective: .duration)
        }

        /// The smallest amount longer than `frames` whole.
        func firstLonger(than frames: Int) -> Amount? {
            LongestAnnouncement.firstLonger(
                than: frames, upTo: maximum, locale: locale, reading: reading, variants: variants, prefix: announcement.prefix,
                suffix: announcement.suffix, timings: timings, gapFrames: gapFrames)
        }
    }

    /// The banner budget, by the announcer's rules (`AnnouncementRules`): an announcement that fits
    /// the banner whole plays whole, one that does not plays bare; bare and still too long, it is
    /// cut by the banner (`delivery` composed) or chained (`auto`, `chain`). The budget is the
    /// longest composed sound that plays: the longest whole announcement that fits, or the longest
    /// bare one that is composed, whichever is longer; it fails only when a composed one is cut.
    static func composedBudget(_ search: ComposedSearch) -> (ComposedBudget, BudgetProblem?) {
        let announcement = search.announcement
        let rate = Double(max(1, search.rate))
        let leadIn = Int((announcement.leadInMs * rate / 1000).rounded())
        let banner = announcement.bannerSeconds
        let room = Int((banner * rate).rounded(.down)) - leadIn
        let seconds = { (worst: WorstCase) in Double(leadIn + worst.frames) / rate }
        let whole = search.whole
        guard whole.frames > room else {
            return (ComposedBudget(seconds: seconds(whole), amount: whole.amount.description, limitSeconds: banner, prefixDroppedFrom: nil), nil)
        }
        let bare = search.phrases ? search.longestBare() : whole
        // Bare and too long, an announcement is chained unless delivery is composed.
        let cut = bare.frames > room && announcement.delivery == .composed
        var candidates = [search.phrases ? search.longest(within: room, bare: false) : nil, cut ? bare : search.longest(within: room, bare: true)]
            .compactMap { $0 }
        candidates.sort { ($0.frames, -$0.amount.minorUnits) > ($1.frames, -$1.amount.minorUnits) }
        let dropped = search.phrases ? search.firstLonger(than: room) : nil
        let said = ClipGuide.of(search.locale).saying([announcement.prefix, announcement.suffix].compactMap { $0 })
        let longest = candidates.first
        let budget = ComposedBudget(
            seconds: longest.map(seconds) ?? 0, amount: longest?.amount.description ?? "none", limitSeconds: banner,
            prefixDroppedFrom: dropped?.description, dropped: said)
        guard cut else { return (budget, nil) }
        let cutOff = BudgetProblem.BannerCut(amount: bare.amount.description, seconds: seconds(bare), without: search.phrases ? said : nil, banner: banner)
        guard let tempo = search.tempo else {
            // Figures of a set built with another soundset.json: no advice from them.
            return (budget, .bannerCutStale(cutOff, rebuild: search.rebuild))
        }
        // The advice names the word that weighs most in that amount, and the tempo that fits.
        let words = search.locale.read(bare.amount, options: search.reading, variants: search.variants)
        let heaviest = words.max { (search.timings[$0]?.frames ?? 0, $1) < (search.timings[$1]?.frames ?? 0, $0) }
        let word = heaviest.flatMap { name in search.timings[name].map { BudgetProblem.Word(name: name, seconds: Double($0.frames) / rate) } }
        var advice = BudgetProblem.TempoAdvice.none
        if let fit = search.fittingTempo(room: room) {
            advice = .fits(tempo: fit.tempo, builtAt: tempo, amount: fit.worst.amount.description, seconds: seconds(fit.worst))
        } else if tempo > TimeStretcher.tempos.lowerBound {
            let lowest = TimeStretcher.tempos.lowerBound
            advice = .noneFits(lowest: lowest, builtAt: tempo, seconds: seconds(search.longestBare(atTempo: lowest, builtAt: tempo)))
        }
        return (
            budget, .bannerCut(cutOff, longestWord: word, tempo: advice, dropped: dropped.map { ComposedBudget.droppedWords($0, said: said, banner: banner) })
        )
    }
}
