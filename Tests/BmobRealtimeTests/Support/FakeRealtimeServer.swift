import BmobCore
import BmobRealtime
import BmobWire
import Foundation

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

    func environment(reconnectDelay: RealtimeDuration = .milliseconds(100)) -> BmobEventEnvironment {
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
