package import BmobRealtime
package import BmobWire
package import Foundation

/// A WebSocket transport that plays the server in memory, for the realtime clients' tests (`BirdRealtime`'s edge,
/// `OnebaseClient`'s sync server): it records the text messages the client sends and lets the test push messages
/// and closures.
///
/// ``close(code:reason:)`` (the client closing) reports the closure on another thread, as real transports do; the
/// server's ``serverSends(_:)`` and ``serverCloses(_:)`` call the client on the test's thread. Once closed either
/// way, the transport records nothing more and reports no second closure.
///
/// Invariant for `@unchecked Sendable`: every mutable member is read and written only while `lock` is held;
/// `onEvent` is called after it is released.
package final class ScriptedWebSocketTransport: WebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let failsToConnect: Bool
    private var onEvent: (@Sendable (WebSocketTransportEvent) -> Void)?
    private var texts: [String] = []
    private var closeCode: WebSocketCloseCode?
    private var connectedURL: URL?

    /// A transport.
    ///
    /// - Parameter failsToConnect: whether ``connect(to:headers:timeout:onEvent:)`` throws (the server refuses).
    package init(failsToConnect: Bool = false) {
        self.failsToConnect = failsToConnect
    }

    /// Records `url` and the client's event handler; throws `connectionFailed` when made to fail.
    package func connect(
        to url: URL, headers: [HTTPField], timeout: RealtimeDuration,
        onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws {
        if failsToConnect { throw WebSocketTransportError(.connectionFailed, "refused") }
        lock.withLock {
            connectedURL = url
            self.onEvent = onEvent
        }
    }

    /// Records a text message, unless the transport is closed; binary messages are dropped.
    package func send(_ message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        lock.withLock { if closeCode == nil { texts.append(text) } }
    }

    /// The client closes: reports the closure with `code` on a global queue, once.
    package func close(code: WebSocketCloseCode, reason: String) {
        if let handler = takeHandlerClosing(with: code) {
            DispatchQueue.global().async { handler(.closed(WebSocketTransportClosure(code: code))) }
        }
    }

    /// The URL the client connected to, if it did.
    package var url: URL? { lock.withLock { connectedURL } }
    /// The text messages the client sent, in order.
    package var sentTexts: [String] { lock.withLock { texts } }
    /// Whether the client connected (and so the server can send).
    package var connected: Bool { lock.withLock { onEvent != nil } }
    /// The code the transport closed with, by either side; nil while open.
    package var closedWith: WebSocketCloseCode? { lock.withLock { closeCode } }
    /// Whether either side closed the transport.
    package var isClosed: Bool { closedWith != nil }

    /// The server sends a text message.
    ///
    /// - Parameter text: the message.
    package func serverSends(_ text: String) { lock.withLock { onEvent }?(.message(.text(text))) }

    /// The server sends a binary message.
    ///
    /// - Parameter bytes: the message.
    package func serverSendsBinary(_ bytes: [UInt8]) { lock.withLock { onEvent }?(.message(.binary(bytes))) }

    /// The server closes (or the connection drops) with `code`: reports the closure on this thread, once.
    ///
    /// - Parameter code: the close code (1006 for a dropped connection).
    package func serverCloses(_ code: UInt16) {
        let code = WebSocketCloseCode(rawValue: code)
        takeHandlerClosing(with: code)?(.closed(WebSocketTransportClosure(code: code)))
    }

    /// Marks the transport closed with `code`; returns the handler to report it to, or nil when it was closed before.
    private func takeHandlerClosing(with code: WebSocketCloseCode) -> (@Sendable (WebSocketTransportEvent) -> Void)? {
        lock.withLock {
            guard closeCode == nil else { return nil }
            closeCode = code
            return onEvent
        }
    }
}
