import BmobIO
import BmobWire
import Synchronization

/// Session ids handed out by the socket.io handshake and not yet used. A WebSocket may claim an id once,
/// within the close timeout; an unknown, expired or reused id is refused.
final class SocketIOSessionTable: Sendable {
    /// Unclaimed ids kept at most; beyond it, expired ids are dropped, then new handshakes refused.
    static let capacity = 100_000

    private struct State {
        var expiries: [String: UInt64] = [:]
        var issuedSincePurge = 0
    }

    private let state = Mutex(State())
    /// How long an id stays claimable, in nanoseconds.
    private let lifetime: UInt64

    init(lifetimeSeconds: Int) {
        self.lifetime = UInt64(lifetimeSeconds) * 1_000_000_000
    }

    /// A new id, or `nil` when too many handshakes are waiting to be used.
    func issue() -> String? {
        var generator = SystemRandomNumberGenerator()
        let sid = SocketIOHandshake.makeSID(using: &generator)
        let now = Posix.monotonicNanoseconds()
        return state.withLock { state in
            state.issuedSincePurge += 1
            if state.expiries.count >= Self.capacity || state.issuedSincePurge >= 1024 {
                state.expiries = state.expiries.filter { $0.value > now }
                state.issuedSincePurge = 0
            }
            guard state.expiries.count < Self.capacity else { return nil }
            state.expiries[sid] = now &+ lifetime
            return sid
        }
    }

    /// Uses up an id.
    ///
    /// - Returns: whether the id was issued, unexpired and unused.
    func claim(_ sid: String) -> Bool {
        let now = Posix.monotonicNanoseconds()
        guard let expiry = state.withLock({ $0.expiries.removeValue(forKey: sid) }) else { return false }
        return expiry > now
    }
}
