import SoundsetRuntime
import SoundsetSetFolder

/// What a build changed in the set, clip by clip, against the set it replaced: what a designer
/// reads after an incremental build (`rebuilt 7 (recording changed), 17 unchanged`).
public struct BuildChanges: Sendable, Codable, Equatable {
    /// Why a clip's file is new.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        case new = "new"
        case recording = "recording changed"
        case configuration = "configuration changed"
        case tool = "soundset changed"
        case level = "set level changed"
    }

    /// Clips whose file changed for one reason.
    public struct Rebuilt: Sendable, Codable, Equatable {
        public var reason: Reason
        public var clips: [String]
    }

    /// Clips whose file changed, by reason, in the order of `Reason.allCases`.
    public var rebuilt: [Rebuilt]
    /// Clips whose file is byte for byte the one before.
    public var unchanged: [String]
    /// Clips the set had and no longer has.
    public var removed: [String]
    /// What differs in the manifest besides the clips' sounds (a recording renamed or re-encoded to
    /// the same audio, an announcement setting, soundset's version); empty when nothing does.
    public var manifestChanges: [String]

    /// Compares `manifest` with the one it replaces (nil for a first build: every clip is new).
    public init(_ manifest: Manifest, replacing previous: Manifest?) {
        let before = Dictionary((previous?.clips ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var byReason: [Reason: [String]] = [:]
        var unchanged: [String] = []
        for clip in manifest.clips {
            guard let old = before[clip.name] else {
                byReason[.new, default: []].append(clip.name)
                continue
            }
            if old.sha256 == clip.sha256 {
                unchanged.append(clip.name)
            } else if old.source.sha256 != clip.source.sha256 {
                byReason[.recording, default: []].append(clip.name)
            } else if previous?.configurationHash != manifest.configurationHash {
                byReason[.configuration, default: []].append(clip.name)
            } else if previous?.toolVersion != manifest.toolVersion {
                byReason[.tool, default: []].append(clip.name)
            } else {
                byReason[.level, default: []].append(clip.name)
            }
        }
        rebuilt = Reason.allCases.compactMap { reason in byReason[reason].map { Rebuilt(reason: reason, clips: $0) } }
        self.unchanged = unchanged
        let names = Set(manifest.clips.map(\.name))
        removed = (previous?.clips ?? []).map(\.name).filter { !names.contains($0) }
        manifestChanges = Self.differences(manifest, previous)
    }

    /// What else differs between the two manifests, in words.
    private static func differences(_ manifest: Manifest, _ previous: Manifest?) -> [String] {
        guard let previous else { return [] }
        var said: [String] = []
        if previous.toolVersion != manifest.toolVersion { said.append("soundset \(manifest.toolVersion) built it") }
        let sources = Dictionary(previous.clips.map { ($0.name, $0.source.file) }, uniquingKeysWith: { a, _ in a })
        let renamed = manifest.clips.filter { clip in sources[clip.name].map { $0 != clip.source.file } ?? false }
        if !renamed.isEmpty {
            said.append(
                "recordings renamed ("
                    + renamed.map { "\(ClipName.printable(sources[$0.name]!)) → \(ClipName.printable($0.source.file))" }.joined(separator: ", ") + ")")
        }
        if previous.announcement != manifest.announcement { said.append("announcement settings") }
        if previous.reading != manifest.reading { said.append("reading settings") }
        // Anything else outside the clips (the set's level, its format) changed the clips' files too.
        return said
    }

    /// `rebuilt 7 (recording changed), 17 unchanged`, with `, 2 removed (9, long)` when clips
    /// went; `no clip changed (17 unchanged)` when the new set's clips are the old ones (and what
    /// else changed in the manifest, if anything did).
    public var summary: String {
        let count = rebuilt.reduce(0) { $0 + $1.clips.count }
        let gone = removed.isEmpty ? nil : "\(removed.count) removed (\(removed.map(ClipName.printable).joined(separator: ", ")))"
        if count == 0 {
            if let gone { return "\(gone), \(unchanged.count) unchanged" }
            let manifest = manifestChanges.isEmpty ? "" : "; the manifest did: " + manifestChanges.joined(separator: ", ")
            return "no clip changed (\(unchanged.count) unchanged)" + manifest
        }
        let reasons =
            rebuilt.count == 1 ? rebuilt[0].reason.rawValue : rebuilt.map { "\($0.clips.count) \($0.reason.rawValue)" }.joined(separator: ", ")
        return (["rebuilt \(count) (\(reasons))", "\(unchanged.count) unchanged"] + (gone.map { [$0] } ?? [])).joined(separator: ", ")
    }

    /// Why each rebuilt clip's file changed, by clip name.
    public var reasons: [String: Reason] {
        var reasons: [String: Reason] = [:]
        for group in rebuilt { for clip in group.clips { reasons[clip] = group.reason } }
        return reasons
    }
}
