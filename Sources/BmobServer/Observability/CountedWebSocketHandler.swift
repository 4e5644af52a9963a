import BmobHTTP
import BmobWire

/// Forwards to the handler a door made, and keeps its kind's open-WebSocket gauge: one up when opened, one
/// down when closed (called exactly once, ``WebSocketHandler/webSocketClosed(_:code:)``).
final class CountedWebSocketHandler: WebSocketHandler {
    private let inner: any WebSocketHandler
    private let gauge: MetricGauge
    /// Whether the gauge was raised: a connection closed before it opened must not lower it.
    private var counted = false

    init(_ inner: any WebSocketHandler, gauge: MetricGauge) {
        self.inner = inner
        self.gauge = gauge
    }

    func webSocketOpened(_ socket: WebSocketConnection) {
        gauge.add(1)
        counted = true
        inner.webSocketOpened(socket)
    }

    func webSocketReceived(_ socket: WebSocketConnection, _ message: WebSocketMessage) {
        inner.webSocketReceived(socket, message)
    }

    func webSocketClosed(_ socket: WebSocketConnection, code: WebSocketCloseCode?) {
        if counted { gauge.add(-1) }
        counted = false
        inner.webSocketClosed(socket, code: code)
    }

    func webSocketUnresponsive(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        inner.webSocketUnresponsive(socket)
    }

    func webSocketShuttingDown(_ socket: WebSocketConnection) -> (code: WebSocketCloseCode, reason: String)? {
        inner.webSocketShuttingDown(socket)
    }
}
