/// Where a ``BirdRealtime`` connection is in its lifecycle, as ``BirdRealtime/onConnectionStateChange(_:)``
/// reports it.
///
/// ```
/// initialized → connecting → connected ⇄ unavailable (waiting to reconnect) → connecting → …
///                                     ↘ failed (a refusal, 4000–4099)    ↘ disconnected (by the app)
/// ```
public enum BirdConnectionState: String, Sendable, Hashable, CustomStringConvertible {
    /// Made, not connected yet.
    case initialized
    /// Opening the WebSocket and waiting for the edge's `bird:connection_established`.
    case connecting
    /// Connected: subscriptions and signin are live.
    case connected
    /// The connection dropped; the client waits out its backoff before reconnecting.
    case unavailable
    /// The edge refused the connection (close code 4000–4099); the client stopped and reported the code on
    /// ``BirdRealtime/onError(_:)``. Call ``BirdRealtime/connect()`` to try again.
    case failed
    /// The app called ``BirdRealtime/disconnect()``.
    case disconnected

    /// The state's name, such as `connected`.
    public var description: String { rawValue }
}
