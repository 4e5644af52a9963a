import BmobIO

/// The writer's news for journal readers: the `seq` of the last committed journal row, and observers called
/// after each commit that appended rows (realtime hubs wake up from it instead of polling).
final class StoreCommitFeed: Sendable {
    private struct State {
        var head: Int64 = 0
        var observers: [@Sendable (Int64) -> Void] = []
    }

    // Invariant: `state` is only touched inside `lock.withLock`; observers are called outside the lock.
    private let lock = Lock()
    private nonisolated(unsafe) var state = State()

    /// Sets the head found when the database was opened.
    func start(at head: Int64) {
        lock.withLock { state.head = head }
    }

    /// The `seq` of the last committed journal row; 0 for an empty journal.
    var head: Int64 {
        lock.withLock { state.head }
    }

    /// Adds an observer, called on the writer thread after every commit with journal rows.
    func observe(_ observer: @escaping @Sendable (Int64) -> Void) {
        lock.withLock { state.observers.append(observer) }
    }

    /// Called by the writer after COMMIT, and on PostgreSQL by the journal listener after other nodes' commits; a
    /// head already reached (the listener and the writer both hear of a local commit) tells no one again.
    func committed(through seq: Int64) {
        let observers: [@Sendable (Int64) -> Void] = lock.withLock {
            guard seq > state.head else { return [] }
            state.head = seq
            return state.observers
        }
        for observer in observers {
            observer(seq)
        }
    }
}
