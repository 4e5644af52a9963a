package import BmobWire

/// What an ``HTTPServer`` serves: turns requests into responses, and decides how errors look.
package protocol HTTPResponder: Sendable {
    /// The largest body accepted for a request with this head, checked before the body is read
    /// (`nil`: the server's default). A larger body is answered with 413 without reading it.
    func bodyLimit(for head: HTTPRequestHead) -> Int?

    /// Answers one request. Errors conforming to ``HTTPResponseError`` become their response; others a 500.
    func respond(to request: HTTPRequest) async throws -> HTTPResponse

    /// The response for a failure found by the server itself: malformed request, a limit, a timeout, a
    /// handler that threw something unknown. The server closes the connection after it.
    func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse
}

extension HTTPResponder {
    package func bodyLimit(for head: HTTPRequestHead) -> Int? { nil }

    package func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        .text(message + "\n", status: status)
    }
}
