import SoundsetRuntime

/// What a request may change of the set's announcement: the URL's query (`prefix`, `suffix`, `join`,
/// `whole`), each left out for the set's own.
public struct AnnouncementOptions: Sendable, Hashable {
    /// The clip before the amount: nil for the set's, `.some(nil)` for none (`prefix=none`).
    public var prefix: String??
    /// The clip after the amount, as `prefix`.
    public var suffix: String??
    /// How clips are joined: nil for the set's.
    public var join: AnnouncementSettings.Join?
    /// Play the whole announcement, without the announcer's rules (no banner shortening, no lead-in).
    public var whole: Bool

    public init(prefix: String?? = nil, suffix: String?? = nil, join: AnnouncementSettings.Join? = nil, whole: Bool = false) {
        self.prefix = prefix
        self.suffix = suffix
        self.join = join
        self.whole = whole
    }

    /// The query keys read, in the order the help lists them.
    static let keys = ["prefix", "suffix", "join", "whole"]

    /// The options in `query`.
    /// - Throws: `RequestProblem` (400) for an unknown or repeated key, a prefix or suffix that is
    ///   not a clip name, a join other than speech or file, or a whole other than 0 or 1.
    init(query: [(name: String, value: String)]) throws(RequestProblem) {
        self.init()
        var seen = Set<String>()
        for (name, value) in query {
            guard Self.keys.contains(name) else {
                throw RequestProblem(
                    400, "unknown query parameter '\(ClipNameRules.printable(name))'",
                    hint: "the parameters are \(Self.keys.joined(separator: ", ")), e.g. ?prefix=none&join=file")
            }
            guard seen.insert(name).inserted else {
                throw RequestProblem(400, "the query parameter \(name) is given more than once", hint: "give each parameter once")
            }
            switch name {
            case "prefix", "suffix":
                let clip: String?
                if value.isEmpty || value == "none" {
                    clip = nil
                } else {
                    if let reason = ClipNameRules.problem(with: value) {
                        throw RequestProblem(
                            400, "\(name) '\(ClipNameRules.printable(value))' is not a clip name: \(reason)",
                            hint: "name a clip of the set (GET /v1/set lists them), or none")
                    }
                    clip = value
                }
                if name == "prefix" { prefix = .some(clip) } else { suffix = .some(clip) }
            case "join":
                guard let parsed = AnnouncementSettings.Join(rawValue: value) else {
                    throw RequestProblem(400, "join must be speech or file, not '\(ClipNameRules.printable(value))'", hint: "e.g. ?join=file")
                }
                join = parsed
            default:
                guard value == "0" || value == "1" else {
                    throw RequestProblem(400, "whole must be 0 or 1, not '\(ClipNameRules.printable(value))'", hint: "e.g. ?whole=1")
                }
                whole = value == "1"
            }
        }
    }

    /// The set's announcement settings with these options applied, as `soundset render` applies its
    /// flags: another join brings its own default gap; the set's own join keeps the set's gap.
    func settings(of manifest: Manifest) -> AnnouncementSettings {
        var settings = manifest.announcement ?? AnnouncementSettings()
        if let prefix { settings.prefix = prefix }
        if let suffix { settings.suffix = suffix }
        if let join {
            if join != settings.join { settings.gapMs = join.defaultGapMs }
            settings.join = join
        }
        return settings
    }

    /// What identifies the announcement these options give from `manifest`'s set: the settings that
    /// change its sound, resolved, so `?prefix=received` and no prefix share it when the set's
    /// prefix is `received`.
    func key(of manifest: Manifest) -> String {
        let settings = settings(of: manifest)
        var parts = [
            "prefix=\(settings.prefix ?? "-")", "suffix=\(settings.suffix ?? "-")", "join=\(settings.join.rawValue)", "gapMs=\(settings.gapMs)",
            "whole=\(whole ? 1 : 0)",
        ]
        if !whole {
            parts += ["delivery=\(settings.delivery.rawValue)", "bannerSeconds=\(settings.bannerSeconds)", "leadInMs=\(settings.leadInMs)"]
        }
        return parts.joined(separator: ";")
    }
}
