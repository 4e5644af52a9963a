package import BmobWire

/// What runs a WebSocket after the upgrade: receives its messages and its end. Loop-confined: every call
/// happens on the connection's event loop, and the handler may call the ``WebSocketConnection`` directly.
package protocol WebSocketHandler: AnyObject {
    /// The upgrade is done; the handler may send.
    func webSocketOpened(_ socket: WebSocketConnection)
    /// A complete message arrived.
    func webSocketReceived(_ socket: WebSocketConnection, _ message: WebSocketMessage)
    /// The connection ended (closing handshake, failure, timeout or shutdown). Called exactly once, after
    /// which the connection sends nothing.
    ///
    /// - Parameter code: the peer's close code when it sent one.
    func webSocketClosed(_ socket: WebSocketConnection, code: WebSocketCloseCode?)
    /// The peer sent nothing, not even the pong to the connection's ping, for the ping interval plus the pong
    /// timeout; the connection is about to drop. The handler may send a last message and choose the close code
    /// that goes out before the TCP connection closes.
    ///
    /// - Returns: the close code and reason to send, or `nil` to drop the connection without a close frame.
    func webSocketUnresponsive(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)?
    /// The server is shutting down gracefully and is about to start the closing handshake. The handler may send a
    /// last message and choose the close code (by default 1001, going away).
    ///
    /// - Returns: the close code and reason to send, or `nil` for 1001.
    func webSocketShuttingDown(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)?
}

extension WebSocketHandler {
    /// Drops an unresponsive connection without a close frame.
    package func webSocketUnresponsive(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        nil
    }

    /// Closes with 1001 at shutdown.
    package func webSocketShuttingDown(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        nil
    }
}
