package import BmobWire

/// How a WebSocket connection ended.
package struct WebSocketTransportClosure: Sendable {
    /// The close code: the peer's after a closing handshake (1005 when its close frame had none), the code
    /// this end sent when it failed the connection, or 1006 when the connection dropped without a handshake.
    package var code: WebSocketCloseCode
    /// The reason that came with ``code``.
    package var reason: String
    /// Why the connection failed, or `nil` after a completed closing handshake.
    package var error: WebSocketTransportError?

    /// A closure.
    ///
    /// - Parameters:
    ///   - code: the close code.
    ///   - reason: the close reason.
    ///   - error: the failure, or `nil` for a clean close.
    package init(code: WebSocketCloseCode, reason: String = "", error: WebSocketTransportError? = nil) {
        self.code = code
        self.reason = reason
        self.error = error
    }

    /// Whether the closing handshake completed.
    package var isClean: Bool { error == nil }
}
