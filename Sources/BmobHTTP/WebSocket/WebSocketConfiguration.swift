/// Limits and timers of the WebSocket connections a route accepts.
package struct WebSocketConfiguration: Sendable {
    /// The largest message accepted over all its fragments; a larger one closes the connection with 1009.
    package var maximumMessageSize: Int
    /// Outbound bytes allowed to wait for a slow reader. A send that would queue more closes the connection
    /// with 1008 instead, so one stalled client cannot grow the server's memory without bound.
    package var maximumQueuedBytes: Int
    /// Silence from the peer after which the server sends a ping.
    package var pingInterval: Duration
    /// Time after that ping in which anything (the pong, a message) must arrive; otherwise the connection is
    /// considered dead and closed.
    package var pongTimeout: Duration
    /// How long the server waits for the peer's close frame after sending its own.
    package var closeTimeout: Duration

    /// The defaults: 1 MiB messages, 1 MiB of queued output, a ping after 30 s of silence, 30 s for an
    /// answer, 5 s for the closing handshake.
    package init(
        maximumMessageSize: Int = 1 << 20,
        maximumQueuedBytes: Int = 1 << 20,
        pingInterval: Duration = .seconds(30),
        pongTimeout: Duration = .seconds(30),
        closeTimeout: Duration = .seconds(5)
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.maximumQueuedBytes = maximumQueuedBytes
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        self.closeTimeout = closeTimeout
    }
}
