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
}
