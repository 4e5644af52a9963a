package import BmobWire

/// A response: status, headers and a body, complete in ``body`` or produced while it is sent
/// (``bodyStream``). `Content-Length` (or chunked framing), `Date` and `Connection` are added by the server.
package struct HTTPResponse: Sendable {
    package var status: HTTPStatus
    package var headers: HTTPHeaders
    package var body: [UInt8]
    /// A body written while it is sent, for large or slow bodies (files, ranges, generated output); when set,
    /// ``body`` is ignored. See ``streaming(status:headers:length:produce:)`` and ``file(_:for:contentType:headers:)``.
    package var bodyStream: HTTPResponseBodyStream?
    /// Close the connection after this response even if the client wants to keep it.
    package var closeConnection: Bool
    /// For a `101 Switching Protocols` answer to a WebSocket upgrade: what runs on the connection afterwards
    /// (see ``webSocket(accepting:configuration:makeHandler:)``).
    package var upgrade: WebSocketUpgrade?

    package init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeConnection = closeConnection
        self.upgrade = nil
        self.bodyStream = nil
    }

    /// A JSON response (`Content-Type: application/json; charset=utf-8`).
    package static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: value.jsonBytes)
    }

    /// A response whose body is JSON text already encoded, with any `extraHeaders` after its content type
    /// (made in one array, not grown by a later `add`).
    package static func json(bytes: [UInt8], status: HTTPStatus = .ok, extraHeaders: [HTTPField] = []) -> HTTPResponse {
        var fields: [HTTPField] = []
        fields.reserveCapacity(1 + extraHeaders.count)
        fields.append(HTTPField(name: "Content-Type", value: "application/json; charset=utf-8"))
        fields.append(contentsOf: extraHeaders)
        return HTTPResponse(status: status, headers: HTTPHeaders(fields), body: bytes)
    }

    /// A plain-text response.
    package static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
