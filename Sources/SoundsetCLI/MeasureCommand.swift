import Foundation
import SoundsetBuild
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset measure FILE...`.
enum MeasureCommand {
    static let trimmed = Option.flag(
        "--trimmed", help: "measure the word as the build keeps it (clicks and DC offset out, trimmed with its pad, faded), not the whole file")
    static let assets = Option.value(
        "--assets", "DIR", default: "Assets", shown: "Assets, when there is one",
        help:
            "with --trimmed: trim, resample and speed up as DIR/soundset.json says (its trim settings, rate and tempo; with several voices, DIR/voices/NAME/soundset.json)"
    )
    static let voice = Option(
        name: Option.voice.name, value: Option.voice.value, shownDefault: Option.voice.shownDefault,
        help: "with --trimmed, when the assets folder holds several voices: trim as this voice's DIR/voices/NAME/soundset.json says")

    static let spec = CommandSpec(
        name: "measure", summary: "print the loudness and true peak of sound files (whole, or the trimmed word), as the build measures them",
        arguments: .many("FILE", missing: "measure needs one or more FILEs"),
        options: [.format, trimmed, assets, voice], about: Help.measureAbout,
        exitCodes: "exit codes: 0 measured, 1 a file (or, with several voices, the voice's folder) could not be read, 64 bad usage")

    static func run(_ arguments: [String], console: Console) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        let format = try parsed.format()
        let paths = try parsed.arguments()
        let part: FileMeasurement.Part = parsed.has(trimmed) ? .word : .whole
        var configuration = Configuration()
        if let folder = try settingsFolder(parsed, part: part) {
            let display = "\(folder)/\(ConfigurationLoader.fileName)"
            do { configuration = try ConfigurationLoader.load(from: URL(fileURLWithPath: display), displayPath: display) } catch {
                console.err("error: \(error)")
                return ExitCode.failure
            }
        }
        var results: [FileMeasurement] = []
        var failed = false
        for path in paths {
            do { results.append(try FileMeasurement.measure(path, part: part, configuration: configuration)) } catch {
                console.err("error: \(error)")
                failed = true
            }
        }
        if format == "json" {
            console.out(try JSONFormatting.text(results, nonFinite: true))
        } else {
            for result in results {
                console.out(String(format: "%8.3f s  %6.2f LUFS  %6.2f dBTP  %@", result.seconds, result.loudness, result.truePeak, result.file))
            }
            let finite = results.map(\.loudness).filter(\.isFinite)
            if let low = finite.min(), let high = finite.max() {
                console.out(
                    String(
                        format: "%d %@: loudness %.2f to %.2f LUFS (spread %.2f LU), worst true peak %.2f dBTP (%@)",
                        results.count, results.count == 1 ? "file" : "files", low, high, high - low, results.map(\.truePeak).max() ?? -.infinity,
                        part == .whole ? "whole files; --trimmed measures the words as the build keeps them" : "the trimmed words, as the build keeps them"))
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }

    /// The assets folder whose soundset.json the trimmed words are made by: `--assets`, which must
    /// exist, or `Assets` when there is one; with several voices in it, the folder of `--voice` or
    /// of the default voice; nil for the defaults.
    private static func settingsFolder(_ parsed: Arguments, part: FileMeasurement.Part) throws -> String? {
        let given = parsed.given(assets)
        guard part == .word else {
            if given != nil { throw UsageError("--assets is only for --trimmed (the trim settings of its soundset.json)") }
            if parsed.given(.voice) != nil { throw UsageError("\(Option.voice.name) is only for --trimmed (the trim settings of its soundset.json)") }
            return nil
        }
        var isFolder: ObjCBool = false
        let folder: String
        if let given {
            guard FileManager.default.fileExists(atPath: given, isDirectory: &isFolder), isFolder.boolValue else {
                throw UsageError("--assets \(ClipNamePrinting.safe(given)): no such folder (name the assets folder whose soundset.json to trim by)")
            }
            folder = given
        } else {
            folder = assets.defaultValue!
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                if let name = try Voices.name(parsed) {
                    throw UsageError(
                        "\(Option.voice.name) \(ClipNamePrinting.safe(name)): there is no \(folder) folder here; pass --assets DIR, the folder holding voices/")
                }
                return nil
            }
        }
        // Several voices: the voice's own folder holds its settings (the one beside voices/ none).
        return try Voices.assetsVoice(parsed, assets: folder).map { VoiceFolders.display(folder, voice: $0) } ?? folder
    }
}
