import Foundation
import SoundsetBuild
import SoundsetFindings
import SoundsetRuntime

/// `soundset measure FILE...`.
enum MeasureCommand {
    static let trimmed = Option.flag(
        "--trimmed", help: "measure the word as the build keeps it (clicks and DC offset out, trimmed with its pad, faded), not the whole file")
    static let assets = Option.assets.helping("with --trimmed: trim as DIR/soundset.json says (its trim settings)")

    static let spec = CommandSpec(
        name: "measure", summary: "print the loudness and true peak of sound files (whole, or the trimmed word), as the build measures them",
        arguments: .many("FILE", missing: "measure needs one or more FILEs"),
        options: [.format, trimmed, assets], about: Help.measureAbout, exitCodes: "exit codes: 0 measured, 1 a file could not be read, 64 bad usage")

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
        if let folder = parsed.given(assets) {
            guard part == .word else { throw UsageError("--assets is only for --trimmed (the trim settings of its soundset.json)") }
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
                        format: "%d files: loudness %.2f to %.2f LUFS (spread %.2f LU), worst true peak %.2f dBTP (%@)",
                        results.count, low, high, high - low, results.map(\.truePeak).max() ?? -.infinity,
                        part == .whole ? "whole files; --trimmed measures the words as the build keeps them" : "the trimmed words, as the build keeps them"))
            }
        }
        return failed ? ExitCode.failure : ExitCode.success
    }
}
