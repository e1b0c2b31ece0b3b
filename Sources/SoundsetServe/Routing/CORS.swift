/// Cross-origin access: announcements are public audio, so any page may fetch them and read their
/// caching headers. `Access-Control-Allow-Origin: *` (no credentials: nothing here depends on a
/// cookie), and a preflight (`OPTIONS`, which a browser sends before a `fetch` with `Range` or
/// `If-None-Match`) answered 204 and cached by the browser for a day.
enum CORS {
    /// Methods a page may use.
    static let methods = "GET, HEAD, OPTIONS"
    /// Request fields a page may send beyond the safelisted ones.
    static let requestHeaders = "Range, If-None-Match, If-Range, X-Request-Id"
    /// Response fields a page may read beyond the safelisted ones (`Content-Length` is safelisted in
    /// today's browsers, named for older ones).
    static let exposedHeaders = "ETag, Content-Length, Content-Range, Accept-Ranges, X-Request-Id"
    /// How long a browser keeps a preflight's answer, in seconds.
    static let maxAge = 86_400

    /// Fields on every response.
    static let headers: [(name: String, value: String)] = [
        ("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", exposedHeaders),
    ]

    /// The answer to a preflight (`OPTIONS`), whatever its target.
    static func preflight() -> HTTPResponse {
        HTTPResponse(
            status: 204,
            headers: [
                ("Access-Control-Allow-Origin", "*"), ("Access-Control-Allow-Methods", methods), ("Access-Control-Allow-Headers", requestHeaders),
                ("Access-Control-Max-Age", String(maxAge)), ("Allow", methods), ("Cache-Control", "public, max-age=\(maxAge)"),
            ])
    }
}
