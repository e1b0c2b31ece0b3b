import Foundation

/// One HTTP request as a front hands it over: nothing decoded, nothing trusted.
public struct HTTPRequest: Sendable {
    /// The method as sent, e.g. `GET`.
    public var method: String
    /// The request target as sent, percent-escapes and query included (`/v1/set?x=1`).
    public var target: String
    /// The header fields, names lower-cased; a field sent twice keeps its values joined by `, `.
    public var headers: [String: String]

    public init(method: String, target: String, headers: [String: String] = [:]) {
        self.method = method
        self.target = target
        self.headers = headers
    }
}

/// A response's body: bytes allocated once and never changed, so a cached response is handed to
/// any number of connections without a copy (a front keeps the body alive until it is sent).
public final class ResponseBody: @unchecked Sendable {
    // @unchecked: `bytes` is written once in `init` and only read afterwards.
    private let bytes: UnsafeMutableRawBufferPointer

    /// Copies `data` into the body.
    public init(_ data: Data) {
        bytes = .allocate(byteCount: max(1, data.count), alignment: 16)
        count = data.count
        data.copyBytes(to: bytes)
    }

    deinit { bytes.deallocate() }

    /// The number of bytes.
    public let count: Int

    /// The bytes, valid while the body lives.
    public var pointer: UnsafeRawPointer { UnsafeRawPointer(bytes.baseAddress!) }

    /// The bytes as `Data` (a copy).
    public var data: Data { Data(bytes: pointer, count: count) }

    /// The empty body.
    public static let empty = ResponseBody(Data())
}

/// One HTTP response: a status, its header fields in order, and a body.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields in the order they are sent. `Content-Length` and `Date` are the front's.
    public var headers: [(name: String, value: String)]
    public var body: ResponseBody
    /// A `HEAD` answered before its body is made (an MP3 not encoded yet): sent without
    /// `Content-Length`, which RFC 9110 §9.3.2 allows for a field known only once the content is
    /// made; the front then closes the connection, as a response of unknown length ends.
    public var lengthUnknown = false
    /// The length of a body not attached, for a `304` or the answer to a `HEAD` (answered without
    /// composing the body, its length known from an earlier one): sent as `Content-Length`, with no
    /// body. Nil: the length is `body`'s. Never set on an answer that sends its body.
    public var bodyLength: Int?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header field `name` (any case), when there is one.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
