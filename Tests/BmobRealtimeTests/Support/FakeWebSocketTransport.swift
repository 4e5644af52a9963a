import BmobCore
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
        to url: URL, headers: [HTTPField], timeout: Duration, onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
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

/// The in-memory server side of ``FakeWebSocketTransport``s: a handshake that counts requests and the
/// transports of each attempt, plus the environment that wires a ``BmobEvent`` to them.
///
/// Invariant for `@unchecked Sendable`: every mutable member is only touched while `lock` is held.
final class FakeRealtimeServer: @unchecked Sendable {
    static let appKey = "fake-app"
    private let lock = NSLock()
    private var madeTransports: [FakeWebSocketTransport] = []
    private var handshakeURLs: [URL] = []
    private var initialized: Bool

    init(initialized: Bool = true) {
        self.initialized = initialized
    }

    /// Makes later attempts find an initialized app.
    func initialize() { lock.withLock { initialized = true } }

    var transports: [FakeWebSocketTransport] { lock.withLock { madeTransports } }
    var handshakes: [URL] { lock.withLock { handshakeURLs } }

    func environment(reconnectDelay: Duration = .milliseconds(100)) -> BmobEventEnvironment {
        BmobEventEnvironment(
            resolveApp: { [self] () throws(BmobEventFailure) in
                guard lock.withLock({ initialized }) else { throw .notInitialized }
                return (Self.appKey, BmobIOAddress(isSecure: false, host: "127.0.0.1", port: 3010))
            },
            makeTransport: { [self] in
                let transport = FakeWebSocketTransport()
                lock.withLock { madeTransports.append(transport) }
                return transport
            },
            fetchHandshake: { [self] url, _ throws(BmobEventFailure) in
                lock.withLock { handshakeURLs.append(url) }
                return SocketIOHandshake(sid: "sid\(lock.withLock { handshakeURLs.count })", heartbeatTimeout: 60, closeTimeout: 60)
            },
            milliseconds: { 1_700_000_000_000 },
            reconnectDelay: reconnectDelay)
    }

    /// Waits for the transport of the `index`th attempt to be connected.
    func transport(_ index: Int) async throws -> FakeWebSocketTransport {
        try await waitUntil(timeout: 5, "transport \(index)") {
            let transports = self.transports
            return transports.count > index && transports[index].connected ? transports[index] : nil
        }
    }
}
