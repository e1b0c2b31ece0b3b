import Foundation
import SoundsetRuntime
import SoundsetSetFolder

/// Reads `soundset.json`, checking every key, type and range, and reporting every problem at once.
public enum ConfigurationLoader {
    /// The configuration file's name inside the assets folder.
    public static let fileName = "soundset.json"

    /// Loads the configuration from `assets/soundset.json`, or the defaults when there is none.
    /// - Parameter displayPath: how the file is named in problems, e.g. `Assets/soundset.json`.
    /// - Throws: `BuildFailure` listing every problem.
    public static func load(from url: URL, displayPath: String) throws(BuildFailure) -> Configuration {
        // A voice of several (`Assets/voices/<voice>/soundset.json`) may be held to one level.
        let sameLevel = VoiceFolders.sameLevel(forVoiceAssets: url.deletingLastPathComponent())
        let data: Data
        do { data = try RegularFile.read(url, maxBytes: 1 << 20) } catch {
            if error.kind == .missing {
                var defaults = Configuration()
                if let sameLevel { defaults.loudness.target = sameLevel }
                return defaults
            }
            throw BuildFailure([BuildProblem(displayPath, ForwardedProblem.failed(error.reason))])
        }
        return try parse(data, displayPath: displayPath, sameLevel: sameLevel)
    }

    /// Parses configuration bytes.
    /// - Parameter sameLevel: the level every voice is held to (`sameLevel` beside `voices/`),
    ///   which is then the loudness target, and which the file may not set too.
    /// - Throws: `BuildFailure` listing every problem.
    public static func parse(_ data: Data, displayPath: String, sameLevel: Double? = nil) throws(BuildFailure) -> Configuration {
        let parsed: JSONParser.Parsed
        do { parsed = try JSONParser.parse(Array(data)) } catch {
            throw BuildFailure([BuildProblem(displayPath, ConfigurationProblem.invalidJSON(position: "\(error.position)", reason: error.reason))])
        }
        var reader = ConfigurationReader(displayPath: displayPath)
        for problem in parsed.problems { reader.fileProblem(.parsed(position: "\(problem.position)", message: problem.message)) }
        var configuration = Configuration()
        reader.read(parsed.value, at: [], into: &configuration)
        // The gap's default is the join's: 25 ms between words' speech, none between files.
        if parsed.value.member(at: ["announcement", "gapMs"]) == nil {
            configuration.announcement.gapMs = configuration.announcement.join.defaultGapMs
        }
        if let sameLevel {
            if parsed.value.member(at: ["loudness", "target"]) != nil {
                reader.problem("loudness.target", .heldBySameLevel(level: sameLevel))
            }
            configuration.loudness.target = sameLevel
        }
        if configuration.loudness.target >= configuration.loudness.truePeak {
            if let sameLevel {
                reader.problem("loudness.truePeak", .sameLevelNotBelowPeak(level: sameLevel))
            } else {
                reader.problem("loudness.target", .targetNotBelowPeak)
            }
        }
        guard reader.problems.isEmpty else { throw BuildFailure(reader.problems) }
        return configuration
    }
}
