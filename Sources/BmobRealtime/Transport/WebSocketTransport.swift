package import BmobWire
package import Foundation

/// A WebSocket client connection, as ``BmobEvent`` uses it: open with a URL and extra header fields, send
/// messages, receive messages and the end of the connection through one callback, close with a code.
///
/// Two implementations: ``POSIXWebSocketTransport`` (every platform but Apple's: POSIX sockets, BmobWire's
/// codec, OpenSSL for `wss`) and, on Apple platforms, one over `URLSessionWebSocketTask`. An instance opens
/// one connection only; make a new one to reconnect.
package protocol WebSocketTransport: AnyObject, Sendable {
    /// Opens the connection: TCP (and TLS for `wss`), then the opening handshake.
    ///
    /// Once it returns, `onEvent` receives every message in order, then exactly one
    /// ``WebSocketTransportEvent/closed(_:)``. Calls never overlap, come from the transport's own thread or
    /// queue, and must return quickly; they may start before `connect` returns to its caller. When
    /// `connect` throws, `onEvent` is never called.
    ///
    /// - Parameters:
    ///   - url: a `ws://` or `wss://` URL.
    ///   - headers: extra request header fields, such as `Origin`.
    ///   - timeout: how long connecting and the opening handshake may take.
    ///   - onEvent: receives messages and the closure.
    /// - Throws: ``WebSocketTransportError`` when the connection cannot be opened, or was closed meanwhile.
    func connect(
        to url: URL, headers: [HTTPField], timeout: RealtimeDuration,
        onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws

    /// Queues a message; messages go out in the order of the calls. Dropped once the connection is closing.
    ///
    /// - Parameter message: a text or binary message.
    func send(_ message: WebSocketMessage)

    /// Starts the closing handshake (or abandons a connection still being opened). The closure arrives
    /// through `onEvent` once the peer answers or a timeout passes.
    ///
    /// - Parameters:
    ///   - code: the status code to send; must be ``WebSocketCloseCode/isSendable``.
    ///   - reason: a short UTF-8 reason.
    func close(code: WebSocketCloseCode, reason: String)
}
