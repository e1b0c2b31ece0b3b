/// A failure reported by libsndfile, with the file it concerns and libsndfile's own message.
public struct SoundFileError: Error, CustomStringConvertible, Equatable {
    /// The path of the file the operation was about.
    public var path: String
    /// libsndfile's error code (`sf_error`), or 0 when soundset found the problem itself.
    public var code: Int
    /// The reason, as libsndfile words it (`sf_strerror`) or as soundset found it.
    public var reason: String

    public init(path: String, code: Int = 0, reason: String) {
        self.path = path
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
