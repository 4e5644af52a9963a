import BmobIO
import Testing

/// Which peers count as one client for per-client limits.
@Suite struct ClientAddressTests {
    private func client(_ host: String, port: UInt16 = 1) -> ClientAddress {
        ClientAddress(SocketAddress(host: host, port: port)!)
    }

    @Test func ipv4PeersAreTheirWholeAddressWhateverThePort() {
        #expect(client("203.0.113.7", port: 1) == client("203.0.113.7", port: 2))
        #expect(client("203.0.113.7") != client("203.0.113.8"))
        #expect(client("203.0.113.7").description == "203.0.113.7")
    }

    @Test func ipv6PeersAreTheirSlash64() {
        #expect(client("2001:db8:1:2::1") == client("2001:db8:1:2:abcd::9"))
        #expect(client("2001:db8:1:2::1") != client("2001:db8:1:3::1"))
        #expect(client("2001:db8:1:2::1").description == "2001:db8:1:2::/64")
    }

    @Test func ipv4MappedPeersAreTheirIPv4Address() {
        #expect(client("::ffff:203.0.113.7") == client("203.0.113.7"))
        #expect(client("::ffff:203.0.113.7") != client("::ffff:203.0.113.8"))
    }
}
