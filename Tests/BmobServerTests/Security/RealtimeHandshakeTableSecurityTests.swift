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
