/// Where the client's one WebSocket is, as ``OnebaseClient/onConnectionChange`` reports it.
///
/// ```
/// connecting → open → closed → connecting (backing off, then dialling) → open → …
/// ```
public enum OnebaseConnectionState: String, Sendable, Hashable, CustomStringConvertible {
    /// Dialling, or waiting out the backoff before dialling again.
    case connecting
    /// The socket is open; live queries, calls and the token go over it.
    case open
    /// The socket closed. The client reconnects by itself unless the server sent a fatal error or the client was
    /// released.
    case closed

    /// The state's name, such as `open`.
    public var description: String { rawValue }
}
