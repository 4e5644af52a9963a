/// A frame's opcode (RFC 6455 §5.2). Values the RFC reserves (3–7, 0xB–0xF) have no case: the decoder
/// rejects them with ``WebSocketCloseCode/protocolError``.
package enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// A later fragment of a text or binary message.
    case continuation = 0x0
    /// The first (or only) frame of a UTF-8 text message.
    case text = 0x1
    /// The first (or only) frame of a binary message.
    case binary = 0x2
    /// Starts or answers the closing handshake.
    case close = 0x8
    /// A keep-alive probe; answered by a pong with the same payload.
    case ping = 0x9
    /// The answer to a ping, or an unsolicited heartbeat.
    case pong = 0xA

    /// Whether this is a control opcode (close, ping, pong): at most 125 payload bytes, never fragmented.
    package var isControl: Bool { rawValue & 0x8 != 0 }
}
