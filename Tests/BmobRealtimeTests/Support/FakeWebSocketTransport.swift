import BmobRealtime
import BmobWire
import Foundation

/// A transport that plays the server in memory: it records what the client sends and lets the test push
/// messages and closures. Made by ``FakeRealtimeServer``.
///
/// Invariant for `@unchecked Sendable`: every mutable member is only touched while `lock` is held.
final class FakeWebSocketTransport: WebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var onEvent: (@Sendable (WebSocketTransportEvent) -> Void)?
    private(set) var url: URL?
    private(set) var headers: [HTTPField] = []
    private var sentTexts: [String] = []
    private var closeCode: WebSocketCloseCode?
    private var isClosed = false

    func connect(
        to url: URL, headers: [HTTPField], timeout: RealtimeDuration, onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws {
        lock.withLock {
            self.url = url
            self.headers = headers
            self.onEvent = onEvent
        }
    }

    func send(_ message: WebSocketMessage) {
        guard case .text(let text) = message else { return }
        lock.withLock {
            if !isClosed { sentTexts.append(text) }
        }
    }

    func close(code: WebSocketCloseCode, reason: String) {
        let handler = lock.withLock { () -> (@Sendable (WebSocketTransportEvent) -> Void)? in
            guard !isClosed else { return nil }
            isClosed = true
            closeCode = code
            return onEvent
        }
        // Like a real transport, report from another thread, never from inside the caller's call.
        if let handler {
            DispatchQueue.global().async { handler(.closed(WebSocketTransportClosure(code: code))) }
        }
    }

    /// What the client sent, in order.
    var sent: [String] { lock.withLock { sentTexts } }
    /// The code the client closed with, if it did.
    var closedWith: WebSocketCloseCode? { lock.withLock { closeCode } }
    /// Whether the connection is closed.
    var closed: Bool { lock.withLock { isClosed } }
    /// Whether the client connected.
    var connected: Bool { lock.withLock { onEvent != nil } }

    /// The server sends a text message.
    func serverSends(_ text: String) {
        lock.withLock { onEvent }?(.message(.text(text)))
    }

    /// The connection drops without a close frame.
    func drop() {
        let handler = lock.withLock { () -> (@Sendable (WebSocketTransportEvent) -> Void)? in
            guard !isClosed else { return nil }
            isClosed = true
            return onEvent
        }
        handler?(.closed(WebSocketTransportClosure(code: .abnormalClosure, error: WebSocketTransportError(.connectionLost, "dropped"))))
    }
}
