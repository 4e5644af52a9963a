package import BmobWire

/// What a ``WebSocketTransport`` reports once it is open.
package enum WebSocketTransportEvent: Sendable {
    /// A complete message from the peer.
    case message(WebSocketMessage)
    /// The connection is over; nothing follows.
    case closed(WebSocketTransportClosure)
}
