package import BmobWire

extension SocketIOPacket {
    /// The text the SDK sends for this packet: `2::` for a heartbeat, as socket.io 0.9 clients write it,
    /// and the canonical ``encoded`` form for everything else.
    package var clientText: String {
        self == .heartbeat ? "2::" : encoded
    }
}
