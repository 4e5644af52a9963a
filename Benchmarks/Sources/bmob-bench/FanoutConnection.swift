/// One subscriber of the fan-out benchmark: its socket, where it is in the setup, and what it received.
/// Kept small, since the benchmark holds ten thousand; owned by the receive loop's thread.
final class FanoutConnection {
    /// Where the connection is in its life.
    enum State {
        /// Not started yet.
        case idle
        /// TCP connect for socket.io's `GET /socket.io/1/` in progress, the request waiting in the outbox.
        case handshakeConnecting
        /// Request sent; reading the session id.
        case handshakeReading
        /// TCP connect for the WebSocket upgrade in progress.
        case upgradeConnecting
        /// Upgrade request sent; reading the 101 response.
        case upgradeReading
        /// WebSocket open; waiting for the server's `client_send_data` event or `pusher:connection_established`.
        case awaitingReady
        /// `client_sub` sent with an ack id, or `pusher:subscribe`; waiting for the ack or
        /// `pusher_internal:subscription_succeeded`.
        case subscribing
        /// Subscribed: counting deliveries.
        case subscribed
        /// Closed after an error (counted once, when it happened).
        case failed

        /// Whether the connection still holds a setup slot.
        var isSettingUp: Bool {
            switch self {
            case .handshakeConnecting, .handshakeReading, .upgradeConnecting, .upgradeReading, .awaitingReady,
                .subscribing:
                true
            case .idle, .subscribed, .failed:
                false
            }
        }
    }

    /// Its socket and the bytes in and out; its token is its index among the benchmark's connections.
    let socket: BenchmarkWebSocket
    var state = State.idle
    /// Deliveries of measured events.
    var received = 0
    /// The highest `seq` received, to count deliveries that arrive out of order or twice.
    var lastSeq = 0
    /// Whether the probe event (seq 0) arrived.
    var gotProbe = false

    /// A connection not yet started.
    ///
    /// - Parameter token: its index among the benchmark's connections.
    init(token: Int) {
        socket = BenchmarkWebSocket(token: token)
    }
}
