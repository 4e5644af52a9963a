package import BmobWire

extension HTTPResponse {
    /// Accepts a WebSocket upgrade: the `101 Switching Protocols` response, after which the server runs the
    /// handler `makeHandler` returns on the connection.
    ///
    /// - Parameters:
    ///   - head: the upgrade request's head, checked by ``WebSocketHandshake/accept(_:)``.
    ///   - configuration: limits and timers of the connection.
    ///   - makeHandler: makes the handler, on the connection's loop.
    /// - Throws: ``WebSocketHandshakeError`` when the request is not a valid upgrade; answer it with the
    ///   error's status.
    package static func webSocket(
        accepting head: HTTPRequestHead,
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        makeHandler: @escaping @Sendable () -> any WebSocketHandler
    ) throws(WebSocketHandshakeError) -> HTTPResponse {
        let accept = try WebSocketHandshake.accept(head)
        let responseHead = WebSocketHandshake.response(accept: accept)
        var response = HTTPResponse(status: responseHead.status, headers: responseHead.headers)
        response.upgrade = WebSocketUpgrade(configuration: configuration, makeHandler: makeHandler)
        return response
    }
}
