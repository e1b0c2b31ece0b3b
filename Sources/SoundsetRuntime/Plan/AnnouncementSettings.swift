/// Defaults for plans: `announcement` in `soundset.json` and the manifest.
public struct AnnouncementSettings: Codable, Sendable, Equatable {
    /// Clip played before the amount, e.g. `received` (收款到账); nil for none.
    public var prefix: String?
    /// Clip played after the amount; nil for none.
    public var suffix: String?
    /// Silence between two clips, milliseconds.
    public var gapMs: Double

    public init(prefix: String? = nil, suffix: String? = nil, gapMs: Double = 0) {
        self.prefix = prefix
        self.suffix = suffix
        self.gapMs = gapMs
    }
}
