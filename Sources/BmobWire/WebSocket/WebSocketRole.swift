/// Which end of the connection the codec works for; it decides the masking rules (RFC 6455 §5.1).
package enum WebSocketRole: Sendable, Hashable {
    /// The server: frames received from clients must be masked, frames sent are not.
    case server
    /// The client: frames received from the server must not be masked, frames sent are masked.
    case client
}
