import Foundation

/// The last build's file of a clip, to place into the new set instead of finishing the clip again.
public struct ReusedFile: Sendable {
    public var summary: ClipSummary
    public var figures: ClipFigures
    /// The file in the output folder.
    public var url: URL
}
