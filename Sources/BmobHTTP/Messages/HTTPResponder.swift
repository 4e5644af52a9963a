package import BmobWire

/// What an ``HTTPServer`` serves: turns requests into responses, and decides how errors look.
package protocol HTTPResponder: Sendable {
    /// How the body of a request with this head is received: its limit, checked before the body is read (a
    /// larger declared body is answered 413 without reading it), and whether the handler gets it streamed.
    /// By default the limit is ``bodyLimit(for:)``'s and the body is not streamed.
    func bodyPolicy(for head: HTTPRequestHead) -> HTTPRequestBodyPolicy

    /// The largest body accepted for a request with this head (`nil`: the server's default); used by the
    /// default ``bodyPolicy(for:)``.
    func bodyLimit(for head: HTTPRequestHead) -> Int?

    /// Answers one request. Errors conforming to ``HTTPResponseError`` become their response; others a 500.
    func respond(to request: HTTPRequest) async throws -> HTTPResponse

    /// The response for a failure found by the server itself: malformed request, a limit, a timeout, a
    /// handler that threw something unknown. The server closes the connection after it.
    func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse
}

extension HTTPResponder {
    package func bodyPolicy(for head: HTTPRequestHead) -> HTTPRequestBodyPolicy {
        HTTPRequestBodyPolicy(limit: bodyLimit(for: head))
    }

    package func bodyLimit(for head: HTTPRequestHead) -> Int? { nil }

    package func errorResponse(status: HTTPStatus, message: String) -> HTTPResponse {
        .text(message + "\n", status: status)
    }
}
