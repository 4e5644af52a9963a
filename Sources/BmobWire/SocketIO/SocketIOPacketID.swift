/// The id of a socket.io 0.9 packet that asks to be acknowledged: `5:12::…` or `5:12+::…`.
///
/// Without `+` the receiver acknowledges on receipt, with an ack carrying no arguments; with `+`
/// (``ackWithData``) the receiver's handler answers, and its arguments travel in the ack.
package struct SocketIOPacketID: Sendable, Hashable {
    /// The largest id accepted: 2^53 − 1, the last integer a JavaScript peer counts exactly.
    ///
    /// Longer digit strings are rejected as ``SocketIOError/Code/idTooLarge`` instead of overflowing.
    package static let maximum: UInt64 = 9_007_199_254_740_991

    /// The number, at most ``maximum``.
    package let value: UInt64
    /// Whether the id was followed by `+`: the ack should carry the handler's arguments.
    package let ackWithData: Bool

    /// Creates an id.
    ///
    /// - Parameters:
    ///   - value: The number; more than ``maximum`` is a programmer error.
    ///   - ackWithData: Whether the ack should carry data (the `+` suffix).
    package init(_ value: UInt64, ackWithData: Bool = false) {
        precondition(value <= Self.maximum, "socket.io packet id above 2^53 - 1")
        self.value = value
        self.ackWithData = ackWithData
    }
}
