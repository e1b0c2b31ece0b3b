import Foundation
import SoundsetFindings
import SoundsetRuntime
import SoundsetSetFolder

/// `soundset clips`: what to record for a locale, from the runtime's own guide.
enum ClipsCommand {
    static let locale = Option.locale.defaulting(to: SpeechLocale.zhCN.rawValue, shown: "zh-CN; with several voices in Assets, the default voice's")
    static let voice = Option(
        name: Option.voice.name, value: Option.voice.value, shownDefault: Option.voice.shownDefault,
        help: "the locale of this voice of Assets (Assets/voices/NAME/soundset.json)", notWith: locale.name)
    static let assets = Option.assets.helping("the recordings' folder, read only for --voice or its voices' default")
    static let format = Option.format.choosing(["text", "json", "markdown"])

    static let spec = CommandSpec(
        name: "clips", summary: "list the clips to record for a locale: what each says, and when it is needed", options: [locale, voice, assets, format],
        about: Help.clipsAbout, exitCodes: "exit codes: 0 listed, 64 bad usage")

    static func run(_ arguments: [String], console: Console) throws -> Int32 {
        let parsed = try Arguments(arguments, spec: spec)
        if parsed.wantsHelp {
            console.out(spec.help)
            return ExitCode.success
        }
        _ = try parsed.arguments()
        try parsed.refuseWithExcluded(Self.voice)
        guard let locale = try voiceLocale(parsed) ?? parsed.value(Self.locale).flatMap(SpeechLocale.init(rawValue:)) else {
            throw UsageError("\(Self.locale.name) must be one of \(SpeechLocale.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let guide = ClipGuide.of(locale)
        switch try parsed.choice(format) {
        case "json": console.out(try JSONFormatting.text(guide))
        case "markdown": console.out(markdown(guide))
        default: console.out(text(guide))
        }
        return ExitCode.success
    }

    /// The locale of `--voice` (or, without `--voice` and `--locale`, of the default voice when the
    /// assets folder holds several), from its `soundset.json`; nil for `--locale`'s.
    /// - Throws: `BuildProblem` when the voice is not one of the assets folder's, or there is no default.
    static func voiceLocale(_ parsed: Arguments) throws -> SpeechLocale? {
        guard parsed.given(Self.locale) == nil else { return nil }
        let assets = parsed.value(Self.assets)!.trimmingTrailingSlashes
        guard let voice = try Voices.assetsVoice(parsed, assets: assets) else { return nil }
        let display = "\(VoiceFolders.display(assets, voice: voice))/\(ConfigurationLoader.fileName)"
        let file = VoiceFolders.assetsFolder(assets: URL(fileURLWithPath: assets), voice: voice).appendingPathComponent(ConfigurationLoader.fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return Configuration().locale }
        return try ConfigurationLoader.load(from: file, displayPath: display).locale
    }

    /// Aligned columns: the clip, what is said, how, when it is needed.
    static func text(_ guide: ClipGuide) -> String {
        let rows =
            [["clip", "says", guide.locale.reading.pronunciationTitle ?? "", "needed"]]
            + guide.entries.map { [$0.name, $0.says, $0.pronounced ?? "", needed($0)] }
        let widths = (0..<3).map { column in rows.map { columns($0[column]) }.max() ?? 0 }
        return rows.map { row in
            let cells = (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] + 2 - columns(row[$0])) }
            return (cells.joined() + row[3]).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }.joined(separator: "\n")
    }

    /// Terminal columns of `text`: two for each CJK ideograph, one for anything else.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ((0x3000...0x9FFF).contains($1.value) || (0xF900...0xFAFF).contains($1.value) ? 2 : 1) }
    }

    /// The README's table.
    static func markdown(_ guide: ClipGuide) -> String {
        let pronounced = guide.locale.reading.pronunciationTitle
        let titles = ["clip", "says"] + (pronounced.map { [$0] } ?? []) + ["needed"]
        var lines = ["| " + titles.joined(separator: " | ") + " |", "|" + String(repeating: " --- |", count: titles.count)]
        for entry in guide.entries {
            let cells = ["`\(entry.name)`", entry.says] + (pronounced == nil ? [] : [entry.pronounced ?? ""]) + [needed(entry)]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    static func needed(_ entry: ClipGuide.Entry) -> String {
        entry.need.text + (entry.note.map { ": \($0)" } ?? "")
    }
}
