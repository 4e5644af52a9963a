/// The request line and header fields of one HTTP/1.x request, with its message framing decided.
package struct HTTPRequestHead: Sendable, Equatable {
    package var method: HTTPMethod
    /// The request-target exactly as sent (origin form: path and optional `?query`).
    package var target: String
    package var version: HTTPVersion
    package var headers: HTTPHeaders
    /// The declared body length, when the body is framed by `Content-Length`.
    package var contentLength: Int?
    /// Whether the body uses chunked transfer coding.
    package var isChunked: Bool
    /// UTF-8 length of the path part of `target` (before `?`), found while decoding.
    private let pathLength: Int

    package init(
        method: HTTPMethod,
        target: String,
        pathLength: Int? = nil,
        version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(),
        contentLength: Int? = nil,
        isChunked: Bool = false
    ) {
        self.method = method
        self.target = target
        self.pathLength = pathLength ?? target.utf8.firstIndex(of: UInt8(ascii: "?")).map { target.utf8.distance(from: target.startIndex, to: $0) } ?? target.utf8.count
        self.version = version
        self.headers = headers
        self.contentLength = contentLength
        self.isChunked = isChunked
    }

    /// The target before any `?`.
    package var path: Substring {
        target[..<target.utf8.index(target.startIndex, offsetBy: pathLength)]
    }

    /// The target after the first `?`, or an empty string.
    package var query: Substring {
        let end = target.utf8.index(target.startIndex, offsetBy: pathLength)
        return end == target.endIndex ? "" : target[target.utf8.index(after: end)...]
    }

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3).
    package var keepAlive: Bool {
        if version == .http1_1 {
            return !headers.containsToken("close", in: "Connection")
        }
        return headers.containsToken("keep-alive", in: "Connection")
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    package var expectsContinue: Bool {
        version == .http1_1 && headers["Expect"].map { HTTPHeaders.namesEqual($0, "100-continue") } == true
            && (isChunked || (contentLength ?? 0) > 0)
    }

    /// Whether a body follows the head.
    package var hasBody: Bool {
        isChunked || (contentLength ?? 0) > 0
    }
}
