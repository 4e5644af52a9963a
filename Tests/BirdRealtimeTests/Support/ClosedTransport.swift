import BmobRealtime
import BmobWire
import Foundation

/// A transport whose connection never opens (for clients that must not reach the network).
final class ClosedTransport: WebSocketTransport, Sendable {
    func connect(
        to url: URL, headers: [HTTPField], timeout: RealtimeDuration,
        onEvent: @escaping @Sendable (WebSocketTransportEvent) -> Void
    ) async throws {
        throw WebSocketTransportError(.connectionFailed, "no network in this test")
    }
    func send(_ message: WebSocketMessage) {}
    func close(code: WebSocketCloseCode, reason: String) {}
}
