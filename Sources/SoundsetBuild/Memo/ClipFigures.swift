/// A clip file's figures as its build found them: what the manifest says of it.
public struct ClipFigures: Codable, Sendable, Equatable {
    /// The set's level the file was finished at, as the bits of the Double.
    public var levelBits: UInt64
    public var gainDb: Double
    public var limitingDb: Double
    public var frames: Int
    public var loudness: Double
    public var truePeak: Double
    /// sha256 of the file's bytes.
    public var sha256: String
}
