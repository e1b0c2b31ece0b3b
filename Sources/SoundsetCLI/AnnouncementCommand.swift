import Foundation
import SoundsetBuild
import SoundsetFindings
import SoundsetRuntime
import SoundsetServe
import SoundsetSetFolder

/// `soundset plan` and `soundset render`: both read an amount and plan it from the built set.
enum AnnouncementCommand {
    enum Kind { case plan, render }

    static let assets = Option.assets.helping("the recordings' folder, whose soundset.json's maxAmount an amount above is noted")
        .defaulting(to: nil, shown: "Assets, when there is one")
    static let locale = Option.locale.defaulting(to: nil, shown: "the one the set was built for")
    static let prefix = Option.value(
        "--prefix", "NAME", shown: "announcement.prefix of the set", help: "clip before the amount, e.g. received; none for no prefix")
    static let suffix = Option.value("--suffix", "NAME", shown: "announcement.suffix", help: "clip after the amount; none for no suffix")
    static let join = Option.choice(
        "--join", ["speech", "file"], shown: "announcement.join; the gap then defaults to 25 or 0 ms",
        help: "speech: each word's speech starts the gap after the last one's ends, the pads crossfaded; file: whole clips one after another")
    static let gapMs = Option.value("--gap-ms", "N", shown: "announcement.gapMs", help: "the gap in ms")
    static let reading = Option(
        name: "--reading", value: "KEY=VALUE",
        help: "override a reading option for this run; repeatable: style=point|yuanJiaoFen, useLiang=true|false, keepTrailingZeros=true|false",
        repeatable: true)
    static let whole = Option.flag(
        "--whole",
        help: "the announcement as composed, without the announcer's rules (the banner's dropping of the prefix and suffix, the lead-in, the delivery)")
    static let out = Option(name: "--out", value: "FILE", help: "the sound file to write", required: true)
    /// What plan and render share.
    static let shared: [Option] = [.output, .voice, assets, locale, prefix, suffix, join, gapMs, reading, whole, .format]

    static let planSpec = CommandSpec(
        name: "plan", summary: "show the clips and timing that announce an amount", arguments: .one("AMOUNT", missing: "plan needs an AMOUNT, e.g. 123.45"),
        options: shared, about: Help.planAbout,
        after: Help.planAfter, exitCodes: "exit codes: 0 planned, 1 bad amount, missing manifest or missing clips, 64 bad usage")
    static let renderSpec = CommandSpec(
        name: "render", summary: "compose the announcement of an amount into one sound file",
        arguments: .one("AMOUNT", missing: "render needs an AMOUNT, e.g. 123.45"),
        options: [out] + shared,
        about: Help.renderAbout, exitCodes: "exit codes: 0 written, 1 bad amount, missing manifest or clips, or 30 s or more, 64 bad usage")

    static func run(_ kind: Kind, _ arguments: [String], console: Console, spelling: CommandSpelling = .installed) throws -> Int32 {
        let spec = kind == .plan ? planSpec : renderSpec
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        let amountText = try parsed.arguments()[0]
        let format = try parsed.format()
        var locale: SpeechLocale?
        if let text = parsed.given(Self.locale) {
            guard let value = SpeechLocale(rawValue: text) else {
                throw UsageError("\(Self.locale.name) must be one of \(SpeechLocale.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            locale = value
        }
        var gapMs: Double?
        if let text = parsed.given(Self.gapMs) {
            guard let value = Double(text), value >= 0, value <= 10_000 else {
                throw UsageError("\(Self.gapMs.name) needs a number of milliseconds from 0 to 10000")
            }
            gapMs = value
        }
        let outPath: String?
        if kind == .render {
            guard let out = parsed.given(Self.out) else { throw UsageError("render needs \(Self.out.label)") }
            // A file written into the set it reads, or among the recordings, would change what it
            // describes (a clip overwritten; a recording added).
            let target = URL(fileURLWithPath: out)
            for (option, folder) in [(Option.output, parsed.value(.output)!), (Option.assets, parsed.value(.assets)!)]
            where Self.writes(target, into: URL(fileURLWithPath: folder)) {
                throw UsageError(
                    "\(Self.out.name) \(ClipNamePrinting.safe(out)) is inside \(ClipNamePrinting.safe(folder)) (\(option.name)), which soundset builds or reads: write it elsewhere, e.g. \(Self.out.name) announcement.wav"
                )
            }
            outPath = out
        } else {
            outPath = nil
        }

        let amount: Amount
        do { amount = try Amount(amountText) } catch {
            console.err("soundset: '\(ClipNamePrinting.safe(amountText))': \(error.explaining(amountText))")
            return ExitCode.failure
        }
        // The output folder itself, or with several voices the voice's set in it.
        let set = try Voices.setFolder(parsed, output: parsed.value(.output)!, spelling: spelling)
        // The manifest and the clips are read while no build swaps a new set in.
        return try OutputFolder.reading(set.url) {
            try planOrRender(
                kind, amount: amount, parsed: parsed, set: set, outPath: outPath, locale: locale, gapMs: gapMs, format: format,
                console: console, spelling: spelling)
        }
    }

    private static func planOrRender(
        _ kind: Kind, amount: Amount, parsed: Arguments, set: VoiceFolders.Choice, outPath: String?, locale: SpeechLocale?, gapMs: Double?,
        format: String, console: Console, spelling: CommandSpelling
    ) throws -> Int32 {
        let outputFolder = set.url
        // A link in the set is not the set (a commit or an app carries the link): not read.
        if let refusal = SetLink.refusal(in: outputFolder, display: set.display) {
            console.err("soundset: \(refusal) (run \(spelling.build(output: parsed.value(.output)!)) first)")
            return ExitCode.failure
        }
        let manifest: Manifest
        do { manifest = try Manifest.load(from: outputFolder.appendingPathComponent(SoundSetLayout.manifestName)) } catch {
            console.err("soundset: \(error) (run \(spelling.build(output: parsed.value(.output)!)) first)")
            return ExitCode.failure
        }
        var reading = manifest.reading ?? ReadingOptions()
        for pair in parsed.values(Self.reading) {
            guard let equals = pair.firstIndex(of: "=") else { throw UsageError("\(Self.reading.name) needs KEY=VALUE, e.g. style=yuanJiaoFen") }
            do { try reading.set(String(pair[..<equals]), to: String(pair[pair.index(after: equals)...])) } catch {
                throw UsageError(error.description)
            }
        }
        var announcement = manifest.announcement ?? AnnouncementSettings()
        if let prefix = parsed.given(Self.prefix) { announcement.prefix = prefix.isEmpty || prefix == "none" ? nil : prefix }
        if let suffix = parsed.given(Self.suffix) { announcement.suffix = suffix.isEmpty || suffix == "none" ? nil : suffix }
        if let text = parsed.given(Self.join) {
            guard let join = AnnouncementSettings.Join(rawValue: text) else { throw UsageError("\(Self.join.name) needs speech or file") }
            // Another join brings its own default gap; the set's own join keeps the set's gap.
            if join != announcement.join { announcement.gapMs = join.defaultGapMs }
            announcement.join = join
        }
        if let gapMs { announcement.gapMs = gapMs }

        // What the phone plays (the announcer's banner, lead-in and delivery rules), or with
        // --whole the announcement as composed without them.
        let played: PlayedAnnouncement
        do {
            played = try PlayedAnnouncement.of(
                amount, manifest: manifest, settings: announcement, locale: locale, reading: reading, whole: parsed.has(Self.whole))
        } catch {
            switch error {
            case .plan(let error):
                console.err("soundset: \(explain(error, locale: locale, manifest: manifest, output: set.display, spelling: spelling))")
            case .refused(let reason): console.err("soundset: \(reason)")
            }
            return ExitCode.failure
        }
        if let note = maxAmountNote(amount, assets: assetsFolder(parsed.given(Self.assets), voice: set.voice)) { console.err(note) }
        if let outPath {
            return try render(
                played, to: outPath, manifest: manifest, soundsFolder: outputFolder.appendingPathComponent(SoundSetLayout.soundsName), format: format,
                console: console, rebuild: spelling.build(output: parsed.value(.output)!))
        }
        if format == "json" {
            console.out(try JSONFormatting.text(played))
        } else {
            printPlan(played, console: console)
        }
        return ExitCode.success
    }

    /// The assets folder whose configuration holds the set's `maxAmount`: `--assets` (nil: `Assets`,
    /// when it is there), or with several voices the voice's folder in it.
    private static func assetsFolder(_ given: String?, voice: String?) -> String? {
        guard let voice else { return given }
        let root = given ?? Option.assets.defaultValue!
        return given != nil || FileManager.default.fileExists(atPath: root) ? VoiceFolders.display(root, voice: voice) : nil
    }

    /// Whether writing `file` puts it in `folder` or below it (both resolved through links).
    static func writes(_ file: URL, into folder: URL) -> Bool {
        let parent = file.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        return FolderPath.isWithin(parent, folder: root)
    }

    /// Why the plan failed, in the user's terms: a set recorded for another locale says so first,
    /// and the fix names the exact build command.
    private static func explain(_ error: PlanError, locale: SpeechLocale?, manifest: Manifest, output: String, spelling: CommandSpelling) -> String {
        guard case .missingClips(let names) = error else { return "\(error)" }
        let build = spelling.build(output: output)
        if let locale, locale != manifest.locale {
            return "\(output) was recorded for \(manifest.locale.rawValue), not \(locale.rawValue), so it has no clip for \(names.joined(separator: ", "))"
                + " (leave out --locale, or record the \(locale.rawValue) clips, set \"locale\": \"\(locale.rawValue)\" in soundset.json and run \(build))"
        }
        return PlanError.missing(names, build: build)
    }

    /// A note when `amount` is above the `maxAmount` of the assets' configuration (`--assets`, or
    /// `Assets` when it is there): the check budgets no amount above it.
    private static func maxAmountNote(_ amount: Amount, assets: String?) -> String? {
        let folder = assets ?? Option.assets.defaultValue!
        guard assets != nil || FileManager.default.fileExists(atPath: folder) else { return nil }
        let display = "\(folder)/\(ConfigurationLoader.fileName)"
        guard FileManager.default.fileExists(atPath: folder) else { return "note: \(folder): no such folder, so \(amount) was not held to a maxAmount" }
        let configuration: Configuration
        do { configuration = try ConfigurationLoader.load(from: URL(fileURLWithPath: display), displayPath: display) } catch {
            return "note: \(error.problems.first.map { "\($0)" } ?? display), so \(amount) was not held to its maxAmount"
        }
        guard amount > configuration.maxAmount else { return nil }
        return "note: \(amount) is above the set's maxAmount \(configuration.maxAmount) (\(display)):"
            + " the check budgets no amount above it, so this announcement may not fit the banner"
    }

    /// Writes what plays into `path`, in the container its extension names (caf, wav, aiff), whatever the set's.
    private static func render(
        _ played: PlayedAnnouncement, to path: String, manifest: Manifest, soundsFolder: URL, format: String, console: Console, rebuild: String
    ) throws -> Int32 {
        let url = URL(fileURLWithPath: path)
        // MP3 is soundset serve's, for web and Android clients: the same bytes the server sends.
        let mp3 = url.pathExtension.lowercased() == "mp3"
        let container = Container(fileExtension: url.pathExtension)
        guard mp3 || container != nil else {
            let named = url.pathExtension.isEmpty ? "has no extension" : "ends in .\(ClipNamePrinting.safe(url.pathExtension))"
            console.err(
                "soundset: \(ClipNamePrinting.safe(path)): \(named); render writes .caf, .wav or .aiff (the sounds iOS plays), or .mp3 (what soundset serve sends): name the file so"
            )
            return ExitCode.failure
        }
        let data: Data
        do {
            if mp3 {
                do { data = try AnnouncementMP3.render(played, manifest: manifest, soundsFolder: soundsFolder) } catch let error as ComposeError {
                    throw error
                } catch {
                    console.err("soundset: cannot make \(ClipNamePrinting.safe(path)): \(error)")
                    return ExitCode.failure
                }
            } else {
                data = try played.sound(manifest: manifest, soundsFolder: soundsFolder, container: container)
            }
        } catch let error as ComposeError {
            // The set's own files are missing or changed: it is built again (the runtime's words
            // speak of installing, which is the app's).
            switch error {
            case .missing(let file): console.err("soundset: \(soundsFolder.relativePath)/\(file): missing (run \(rebuild))")
            case .stale(let clip, let file, let reason):
                console.err("soundset: \(soundsFolder.relativePath)/\(file): clip '\(clip)' is not the file the manifest describes (\(reason)): run \(rebuild)")
            default: console.err("soundset: \(error)")
            }
            return ExitCode.failure
        }
        // Written beside the target and renamed over it (rename(2)): never a half-written sound, and
        // an existing file is replaced every time.
        do { try RegularFile.replace(url, with: data) } catch {
            console.err("soundset: \(ClipNamePrinting.safe(path)): cannot be written (\(error.reason)); check that the folder exists and is writable")
            return ExitCode.failure
        }
        if format == "json" {
            console.out(try JSONFormatting.text(played))
        } else {
            console.out(
                String(
                    format: "wrote %@ (%@, %d Hz): %@%.3f s, %d clips", ClipNamePrinting.safe(path),
                    mp3 ? "mp3" : "\(container!.rawValue) \(manifest.encoding.rawValue)",
                    mp3 ? AnnouncementMP3.rate(forSetRate: manifest.sampleRate) : manifest.sampleRate,
                    mp3 ? "" : "\(played.frames) frames, ", played.seconds, played.plan.steps.count))
            if let note = played.note { console.out(note) }
        }
        return ExitCode.success
    }

    /// The clips as they play (after the lead-in), then the total, then the rules' one line.
    private static func printPlan(_ played: PlayedAnnouncement, console: Console) {
        let plan = played.plan
        let leadIn = Double(played.leadInFrames) / Double(max(1, plan.sampleRate))
        console.out("\(plan.amount) (\(plan.locale.rawValue)): \(plan.clips.joined(separator: " "))")
        let width = max(4, plan.steps.map(\.clip.count).max() ?? 0)
        console.out("    start   seconds  " + "clip".padding(toLength: width, withPad: " ", startingAt: 0) + "  file")
        for step in plan.steps {
            console.out(
                String(format: "  %7.3f   %7.3f  ", leadIn + step.start, step.seconds)
                    + step.clip.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + step.file)
        }
        console.out(
            String(
                format: "total %.3f s (%d frames at %d Hz) in %d steps, %@", played.seconds, played.frames, plan.sampleRate, plan.steps.count,
                played.delivery == .chain ? "as a chain of notifications" : "composed"))
        if let note = played.note { console.out(note) }
    }
}
