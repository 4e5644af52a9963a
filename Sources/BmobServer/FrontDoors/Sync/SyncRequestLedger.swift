import BmobIO
import BmobWire

/// Mutations by client session and request id, so that each runs once: a client that sends a request id again
/// (on a new socket with the same `sessionId`) gets the first answer, not a second run.
///
/// Entries live ``lifetime`` after they finish, at most ``capacity`` of them (the oldest go first); this node's
/// memory only, so a client that reconnects to another node is not protected (the client itself never re-sends).
final class SyncRequestLedger: Sendable {
    /// What a request id has come to.
    enum Begin: Sendable {
        /// Never seen: run it.
        case new
        /// Running on another socket of the same session.
        case running
        /// Finished: answer this again.
        case done(SyncFunctionResponse)
    }

    private struct Key: Hashable {
        let session: String
        let requestId: Int64
    }

    private enum Entry {
        case running
        case done(SyncFunctionResponse, finished: ContinuousClock.Instant)
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were begun, for eviction.
        var order: [Key] = []
        var head = 0
    }

    private let state = LockedValue(State())
    static let capacity = 100_000
    static let lifetime: Duration = .seconds(600)

    init() {}

    /// Marks the request running unless it has been seen.
    func begin(session: String, requestId: Int64) -> Begin {
        let key = Key(session: session, requestId: requestId)
        let now = ContinuousClock.now
        return state.withLock { state in
            switch state.entries[key] {
            case .running?:
                return .running
            case .done(let response, let finished)? where now - finished < Self.lifetime:
                return .done(response)
            default:
                break
            }
            Self.evict(&state, now: now)
            state.entries[key] = .running
            state.order.append(key)
            return .new
        }
    }

    /// Records the request's answer.
    func finish(session: String, requestId: Int64, _ response: SyncFunctionResponse) {
        let key = Key(session: session, requestId: requestId)
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.entries[key] != nil else { return }
            state.entries[key] = .done(response, finished: now)
        }
    }

    private static func evict(_ state: inout State, now: ContinuousClock.Instant) {
        while state.head < state.order.count {
            let key = state.order[state.head]
            switch state.entries[key] {
            case nil:
                break
            case .running?:
                // A running request stays (it finishes soon); the ones behind it wait their turn.
                return
            case .done(_, let finished)?:
                guard now - finished >= lifetime || state.entries.count >= capacity else { return }
                state.entries[key] = nil
            }
            state.head += 1
        }
        if state.head > 1024, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }
}
