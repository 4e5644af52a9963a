import BmobIO
import BmobServer
import Synchronization
import Testing

/// Issue 14, item 5: the table of unused socket.io handshake ids, on a clock the test moves by hand.
@Suite("Security: realtime handshake table") struct RealtimeHandshakeTableSecurityTests {
    /// Monotonic nanoseconds moved by hand.
    final class ManualClock: Sendable {
        private let nanoseconds = Mutex<UInt64>(1_000_000_000)
        func advance(seconds: Double) { nanoseconds.withLock { $0 += UInt64(seconds * 1e9) } }
        var read: @Sendable () -> UInt64 { { self.nanoseconds.withLock { $0 } } }
    }

    static let one = ClientAddress(SocketAddress(host: "203.0.113.1", port: 1000)!)
    static let two = ClientAddress(SocketAddress(host: "203.0.113.2", port: 1000)!)

    @Test func eachClientHoldsAtMostItsShareAndClaimingFreesASlot() throws {
        let table = SocketIOSessionTable(lifetimeSeconds: 10, perClientLimit: 3, now: ManualClock().read)
        let sids = try (0..<3).map { _ in try table.issue(for: Self.one) }
        #expect(Set(sids).count == 3)
        #expect(throws: SocketIOSessionTable.Refusal.clientFull) { try table.issue(for: Self.one) }
        _ = try table.issue(for: Self.two)
        #expect(table.claim(sids[1]))
        #expect(!table.claim(sids[1]), "an id is used once")
        _ = try table.issue(for: Self.one)
        #expect(throws: SocketIOSessionTable.Refusal.clientFull) { try table.issue(for: Self.one) }
    }

    @Test func idsExpireAfterTheirLifetimeAndFreeTheirSlots() throws {
        let clock = ManualClock()
        let table = SocketIOSessionTable(lifetimeSeconds: 10, perClientLimit: 2, now: clock.read)
        let early = try table.issue(for: Self.one)
        clock.advance(seconds: 5)
        let late = try table.issue(for: Self.one)
        #expect(throws: SocketIOSessionTable.Refusal.clientFull) { try table.issue(for: Self.one) }
        clock.advance(seconds: 5)
        // The first id is 10 s old: expired, and its slot is free again; the second still works.
        let fresh = try table.issue(for: Self.one)
        #expect(!table.claim(early))
        #expect(table.claim(late))
        clock.advance(seconds: 10)
        #expect(!table.claim(fresh))
    }

    @Test func theTableAsAWholeIsBoundedAndRecoversAsIdsExpire() throws {
        let clock = ManualClock()
        let table = SocketIOSessionTable(lifetimeSeconds: 2, perClientLimit: 100, capacity: 8, now: clock.read)
        // Hostile: many addresses, none of which ever opens a WebSocket.
        for index in 0..<8 {
            _ = try table.issue(for: ClientAddress(SocketAddress(host: "198.51.100.\(index)", port: 1)!))
        }
        #expect(throws: SocketIOSessionTable.Refusal.tableFull) { try table.issue(for: Self.one) }
        clock.advance(seconds: 2)
        _ = try table.issue(for: Self.one)
    }

    /// Unix seconds moved by hand, for the expiry other nodes check.
    final class WallClock: Sendable {
        private let seconds = Mutex<Int64>(1_800_000_000)
        func advance(_ delta: Int64) { seconds.withLock { $0 += delta } }
        var read: @Sendable () -> Int64 { { self.seconds.withLock { $0 } } }
    }

    @Test("another node of the deployment (same secret) accepts an id once, until its expiry; forgeries never")
    func idsCrossNodesThatShareTheSecret() throws {
        let wall = WallClock()
        let key = Array("the deployment's secret".utf8)
        func node(_ key: [UInt8], capacity: Int = 100) -> SocketIOSessionTable {
            SocketIOSessionTable(
                lifetimeSeconds: 10, perClientLimit: 3, capacity: capacity, now: ManualClock().read, signingKey: key,
                wallClock: wall.read)
        }
        let (a, b, c) = (node(key), node(key), node(key))
        let stranger = node(Array("another deployment".utf8))
        let sid = try a.issue(for: Self.one)
        #expect(sid.utf8.count <= 128)
        #expect(b.claim(sid))
        #expect(!b.claim(sid), "once per node")
        #expect(!stranger.claim(sid), "another secret")
        // Any change to the id breaks its signature: a later expiry, another node name, another random part.
        let parts = sid.split(separator: "-").map(String.init)
        #expect(parts.count == 4)
        for forged in [
            [parts[0], parts[1], String(Int64(parts[2], radix: 36)! + 1000, radix: 36), parts[3]],
            [parts[0], "othernod", parts[2], parts[3]],
            ["x" + parts[0].dropFirst(), parts[1], parts[2], parts[3]],
            [parts[0], parts[1], parts[2], String(parts[3].reversed())],
            [parts[0], parts[1], parts[2]],
        ] {
            #expect(!c.claim(forged.joined(separator: "-")), "\(forged)")
        }
        // The issuing node decides by its table alone: claimed there already, so refused there.
        #expect(a.claim(sid))
        #expect(!a.claim(sid))
        // Past its expiry, no node accepts it.
        let late = try a.issue(for: Self.two)
        wall.advance(10)
        #expect(!c.claim(late))
    }

    @Test func idsClaimedFromOtherNodesAreBounded() throws {
        let wall = WallClock()
        let key = Array("k".utf8)
        let issuer = SocketIOSessionTable(
            lifetimeSeconds: 5, perClientLimit: 100, capacity: 100, now: ManualClock().read, signingKey: key,
            wallClock: wall.read)
        let other = SocketIOSessionTable(
            lifetimeSeconds: 5, perClientLimit: 100, capacity: 4, now: ManualClock().read, signingKey: key,
            wallClock: wall.read)
        let sids = try (0..<5).map { _ in try issuer.issue(for: Self.one) }
        #expect(sids.prefix(4).allSatisfy { other.claim($0) })
        #expect(!other.claim(sids[4]), "full: refused rather than grown")
        // Once those expire, their room is reused.
        wall.advance(5)
        let fresh = try issuer.issue(for: Self.two)
        #expect(other.claim(fresh))
    }

    @Test func manyHandshakesThatAreUsedAtOnceNeverFillTheTable() throws {
        // Claimed ids are skipped by the purge and dropped from its order list; the table keeps working.
        let clock = ManualClock()
        let table = SocketIOSessionTable(lifetimeSeconds: 10, perClientLimit: 1, capacity: 4, now: clock.read)
        let unused = try table.issue(for: Self.two)
        for _ in 0..<5000 {
            #expect(table.claim(try table.issue(for: Self.one)))
            clock.advance(seconds: 0.001)
        }
        #expect(table.claim(unused))
    }

    @Test func ipv6ClientsAreCountedByTheirSlash64() throws {
        let table = SocketIOSessionTable(lifetimeSeconds: 10, perClientLimit: 1, now: ManualClock().read)
        _ = try table.issue(for: ClientAddress(SocketAddress(host: "2001:db8:1:2::1", port: 1)!))
        #expect(throws: SocketIOSessionTable.Refusal.clientFull) {
            try table.issue(for: ClientAddress(SocketAddress(host: "2001:db8:1:2:ffff::9", port: 2)!))
        }
        _ = try table.issue(for: ClientAddress(SocketAddress(host: "2001:db8:1:3::1", port: 1)!))
        // An IPv4 client seen through a dual-stack listener is its IPv4 address.
        _ = try table.issue(for: ClientAddress(SocketAddress(host: "::ffff:203.0.113.1", port: 1)!))
        #expect(throws: SocketIOSessionTable.Refusal.clientFull) { try table.issue(for: Self.one) }
    }
}
