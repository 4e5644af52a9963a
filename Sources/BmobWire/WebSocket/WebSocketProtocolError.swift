/// Why the peer's bytes broke the WebSocket protocol, with the close code to send before closing.
///
/// ``description`` names the rule only, never payload bytes, so it is safe to log.
package struct WebSocketProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code of the close frame that fails the connection: 1002, 1007 or 1009.
    package var closeCode: WebSocketCloseCode
    /// A short English reason, also usable as the close frame's reason (ASCII, under 123 bytes).
    package var reason: String

    /// An error with the code to close with and why.
    ///
    /// - Parameters:
    ///   - closeCode: the close code to send.
    ///   - reason: a short ASCII explanation.
    package init(_ closeCode: WebSocketCloseCode, _ reason: String) {
        self.closeCode = closeCode
        self.reason = reason
    }

    /// The code and reason, e.g. `1002: unmasked client frame`.
    package var description: String { "\(closeCode): \(reason)" }
}
