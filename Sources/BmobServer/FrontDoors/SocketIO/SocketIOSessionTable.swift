package import BmobIO
import BmobCrypto
import BmobWire

/// Session ids handed out by the socket.io handshake and not yet used. A WebSocket may claim an id once,
/// within the id's lifetime; an unknown, expired or reused id is refused.
///
/// The handshake needs no keys, so ids that are never used must not be able to fill the table: each client
/// address may hold a few unused ids at once, ids expire after a short lifetime, and the table as a whole
/// has a capacity. Expired ids are dropped from the front of the issue order (which, the lifetime being
/// the same for all, is expiry order), so purging costs little per handshake.
///
/// Behind a load balancer the WebSocket may reach another node than the handshake did. An id is therefore
/// `<random>-<node>-<expiry>-<signature>`: the issuing node, the expiry in Unix seconds, and an HMAC-SHA256 under
/// the secret every node shares (``AppRegistry/sharedSecret(_:)``). The issuing node decides by its table alone;
/// another node accepts an id whose signature holds and whose expiry is ahead, once. An id grants nothing but a
/// WebSocket for anonymous subscriptions, so that another node could accept it once more is harmless; the
/// ids a node accepted from others are kept until they expire, within the table's capacity.
package final class SocketIOSessionTable: Sendable {
    /// Why a handshake got no id.
    package enum Refusal: Error, Equatable {
        /// The client address already holds its share of unused ids.
        case clientFull
        /// The table holds as many unused ids as its capacity.
        case tableFull
    }

    /// Unused ids kept at most across all clients, unless another capacity is given.
    package static let defaultCapacity = 100_000

    private struct Entry {
        var expiry: UInt64
        var client: ClientAddress?
    }

    private struct State {
        var unclaimed: [String: Entry] = [:]
        /// Other nodes' ids claimed here, with their expiry in Unix seconds.
        var claimedFromOthers: [String: Int64] = [:]
        /// Ids in issue order from `orderStart` on; claimed ones are skipped when the purge reaches them.
        var order: [String] = []
        var orderStart = 0
        /// Unused ids per client (a client without an address counts as one client).
        var perClient: [ClientAddress?: Int] = [:]
    }

    private let state = LockedValue(State())
    /// How long an id stays claimable, in nanoseconds.
    private let lifetime: UInt64
    private let perClientLimit: Int
    private let capacity: Int
    private let clock: @Sendable () -> UInt64
    private let signingKey: [UInt8]
    private let wallClock: @Sendable () -> Int64
    /// This node's name in the ids it issues: random, so that no two nodes (or restarts) share it.
    private let node: String

    /// - Parameters:
    ///   - lifetimeSeconds: how long an id stays usable.
    ///   - perClientLimit: unused ids one client address may hold at once.
    ///   - capacity: unused ids kept at most across all clients.
    ///   - now: monotonic nanoseconds (tests pass a clock they move by hand).
    ///   - signingKey: the secret the nodes of the deployment share; by default one of this table's own.
    ///   - wallClock: Unix seconds, for the expiry other nodes check.
    package init(
        lifetimeSeconds: Int, perClientLimit: Int, capacity: Int = SocketIOSessionTable.defaultCapacity,
        now: @escaping @Sendable () -> UInt64 = { EventLoopClock.system.now },
        signingKey: [UInt8]? = nil,
        wallClock: @escaping @Sendable () -> Int64 = { ServerClock.system.nowSeconds }
    ) {
        self.lifetime = UInt64(max(lifetimeSeconds, 1)) * 1_000_000_000
        self.perClientLimit = perClientLimit
        self.capacity = capacity
        self.clock = now
        self.signingKey = signingKey ?? SecureRandom.bytes(32)
        self.wallClock = wallClock
        var generator = SystemRandomNumberGenerator()
        self.node = String(SocketIOHandshake.makeSID(using: &generator).prefix(8))
    }

    /// A new id for `client`.
    ///
    /// - Throws: ``Refusal`` when the client, or the table, holds too many unused ids.
    package func issue(for client: ClientAddress?) throws(Refusal) -> String {
        var generator = SystemRandomNumberGenerator()
        let sid = signed("\(SocketIOHandshake.makeSID(using: &generator))-\(node)-\(String(wallClock() + Int64(lifetime / 1_000_000_000), radix: 36))")
        let now = clock()
        let refusal: Refusal? = state.withLock { state in
            Self.purge(&state, now: now)
            let held = state.perClient[client, default: 0]
            guard held < perClientLimit else { return .clientFull }
            guard state.unclaimed.count < capacity else { return .tableFull }
            state.unclaimed[sid] = Entry(expiry: now &+ lifetime, client: client)
            state.order.append(sid)
            state.perClient[client] = held + 1
            return nil
        }
        if let refusal { throw refusal }
        return sid
    }

    /// Uses up an id.
    ///
    /// - Returns: whether the id was issued, unexpired and unused.
    package func claim(_ sid: String) -> Bool {
        let now = clock()
        let local: Bool? = state.withLock { state in
            guard let entry = state.unclaimed.removeValue(forKey: sid) else { return nil }
            Self.release(entry.client, in: &state)
            Self.compactOrder(&state)
            return entry.expiry > now
        }
        if let local { return local }
        return claimFromAnotherNode(sid)
    }

    /// `message-<signature>`: the first 16 bytes of the HMAC-SHA256 of `message`, in hex.
    private func signed(_ message: String) -> String {
        message + "-" + Hex.encode(HMACSHA256.authenticationCode(key: signingKey, message: Array(message.utf8)).prefix(16))
    }

    /// Accepts, once, an id another node issued: its signature holds and its expiry is ahead.
    private func claimFromAnotherNode(_ sid: String) -> Bool {
        let parts = sid.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1] != node, let expiry = Int64(parts[2], radix: 36) else { return false }
        let message = parts[0...2].joined(separator: "-")
        guard AppKeys.constantTimeEquals(signed(message), sid) else { return false }
        let now = wallClock()
        guard expiry > now else { return false }
        return state.withLock { state in
            if state.claimedFromOthers.count >= capacity {
                state.claimedFromOthers = state.claimedFromOthers.filter { $0.value > now }
                guard state.claimedFromOthers.count < capacity else { return false }
            }
            return state.claimedFromOthers.updateValue(expiry, forKey: sid) == nil
        }
    }

    /// Drops expired ids from the front of the issue order, up to the first one still usable.
    private static func purge(_ state: inout State, now: UInt64) {
        while state.orderStart < state.order.count {
            let sid = state.order[state.orderStart]
            if let entry = state.unclaimed[sid] {
                guard entry.expiry <= now else { break }
                state.unclaimed[sid] = nil
                release(entry.client, in: &state)
            }
            state.orderStart += 1
        }
        compactOrder(&state)
    }

    private static func release(_ client: ClientAddress?, in state: inout State) {
        guard let held = state.perClient[client] else { return }
        state.perClient[client] = held > 1 ? held - 1 : nil
    }

    /// Keeps the order list in proportion to the ids it tracks: the consumed front goes once it is the larger
    /// part, and claimed ids behind a still-usable one go once they outnumber the unused ids.
    private static func compactOrder(_ state: inout State) {
        if state.orderStart >= 1024, state.orderStart * 2 >= state.order.count {
            state.order.removeFirst(state.orderStart)
            state.orderStart = 0
        }
        if state.order.count - state.orderStart > 2 * state.unclaimed.count + 1024 {
            let unclaimed = state.unclaimed
            state.order = state.order[state.orderStart...].filter { unclaimed[$0] != nil }
            state.orderStart = 0
        }
    }
}
