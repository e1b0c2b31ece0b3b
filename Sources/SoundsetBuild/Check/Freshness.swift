import SoundsetFindings
import SoundsetRuntime

/// Whether a built set is fresh against what it was built from: the one definition, which the
/// build's shortcuts (a set found up to date by stamps, or by hashes) and `soundset check` both
/// ask. A set is fresh when this soundset built it, with the same output settings (the settings
/// digest, `Configuration.hash`, which leaves out keys at their defaults), from exactly the
/// recordings there are now, byte for byte.
enum Freshness {
    /// One way a set is not fresh.
    enum Staleness: Equatable, Sendable {
        /// Another soundset built it (its version).
        case tool(String)
        /// `soundset.json`'s output settings differ from the ones it was built with.
        case settings
        /// A recording the set does not hold, by file name.
        case added(String)
        /// A recording whose bytes differ from the ones the set was built from.
        case changed(String)
        /// A recording the set holds that is no longer there.
        case removed(String)
        /// A recording that is there but could not be read: whether it changed is unknown.
        case unreadable(String)
    }

    /// How `manifest` is stale against output settings whose digest is `settingsHash` (nil when
    /// `soundset.json` cannot be read: then it is not compared) and `recordings`, each recording's
    /// sha256 by file name (nil for one that is there but could not be read: the caller says why);
    /// empty when it is fresh. Recordings in the order of their names.
    static func staleness(of manifest: Manifest, settingsHash: String?, recordings: [String: String?]) -> [Staleness] {
        var found: [Staleness] = []
        if manifest.toolVersion != ToolVersion.current { found.append(.tool(manifest.toolVersion)) }
        if let settingsHash, settingsHash != manifest.configurationHash { found.append(.settings) }
        let built = Dictionary(manifest.clips.map { ($0.source.file, $0.source.sha256) }, uniquingKeysWith: { a, _ in a })
        for (name, sha256) in recordings.sorted(by: { $0.key < $1.key }) {
            guard let recorded = built[name] else {
                found.append(sha256 == nil ? .unreadable(name) : .added(name))
                continue
            }
            guard let sha256 else {
                found.append(.unreadable(name))
                continue
            }
            if recorded != sha256 { found.append(.changed(name)) }
        }
        for name in built.keys.sorted() where recordings.index(forKey: name) == nil { found.append(.removed(name)) }
        return found
    }

    /// Whether `manifest` is fresh.
    static func isFresh(_ manifest: Manifest, settingsHash: String, recordings: [String: String]) -> Bool {
        staleness(of: manifest, settingsHash: settingsHash, recordings: recordings.mapValues { $0 }).isEmpty
    }
}
