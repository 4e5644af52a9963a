/// The part of a peer's address that stands for one client, for per-client limits (connections, handshakes).
///
/// An IPv4 peer is its whole address (an IPv4-mapped IPv6 peer, as a dual-stack listener sees IPv4 clients,
/// is its IPv4 address). An IPv6 peer is its /64 network: one host is usually given a whole /64, so counting
/// single IPv6 addresses would let one client take as many slots as it has addresses. The port never counts.
package struct ClientAddress: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case ipv4
        case ipv6Network
    }

    private let kind: Kind
    /// The IPv4 address, or the /64 prefix, in network order.
    private let prefix: [UInt8]

    /// The client `address` belongs to.
    package init(_ address: SocketAddress) {
        let bytes = address.bytes
        switch address.family {
        case .ipv4:
            kind = .ipv4
            prefix = bytes
        case .ipv6:
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                kind = .ipv4
                prefix = Array(bytes[12..<16])
            } else {
                kind = .ipv6Network
                prefix = Array(bytes[0..<8])
            }
        }
    }

    /// `203.0.113.7`, or `2001:db8:1:2::/64`.
    package var description: String {
        switch kind {
        case .ipv4:
            return prefix.map(String.init).joined(separator: ".")
        case .ipv6Network:
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(prefix[$0]) << 8 | UInt16(prefix[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        }
    }
}
