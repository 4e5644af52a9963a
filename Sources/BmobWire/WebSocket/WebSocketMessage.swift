/// A complete data message, reassembled from its fragments.
package enum WebSocketMessage: Sendable, Hashable {
    /// A text message; its bytes were checked to be UTF-8.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
