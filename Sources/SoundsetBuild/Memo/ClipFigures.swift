/// A clip file's figures as its build found them: what the manifest says of it, and the limiting the
/// level search saw before encoding.
public struct ClipFigures: Codable, Sendable, Equatable {
    /// The set's level the file was finished at, as the bits of the Double.
    public var levelBits: UInt64
    /// The limiting the level search saw before encoding (a clip the encoding pushed over the
    /// ceiling is finished again under a lower one, with more limiting).
    public var searchLimitingDb: Double
    public var gainDb: Double
    public var limitingDb: Double
    public var frames: Int
    public var loudness: Double
    public var truePeak: Double
    /// sha256 of the file's bytes.
    public var sha256: String
}
