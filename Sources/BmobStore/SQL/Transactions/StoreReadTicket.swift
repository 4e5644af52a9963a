import BmobIO

/// Links one read to the task that asked for it, so that cancelling the task interrupts the read.
///
/// A read that has not started yet is skipped; a running one gets its engine's interrupt for its current
/// statement (`sqlite3_interrupt`, PostgreSQL's cancel request), and its next store call throws `CancellationError`. The interrupt only ever reaches the
/// connection while this read runs on it, because ``start(_:)``, ``finish()`` and ``cancel()`` share a lock.
final class StoreReadTicket: @unchecked Sendable {
    // Invariant: `cancelled` and `running` are only touched inside `lock.withLock`.
    private let lock = Lock()
    private var cancelled = false
    private var running: (any StatementInterrupting)?

    /// Marks the read as running on a connection; `false` when it was cancelled before it started.
    func start(_ handle: any StatementInterrupting) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            running = handle
            return true
        }
    }

    /// Marks the read as done with its connection, which may then serve another read.
    func finish() {
        lock.withLock { running = nil }
    }

    /// Called from the task's cancellation handler, on any thread.
    func cancel() {
        lock.withLock {
            cancelled = true
            running?.interrupt()
        }
    }

    /// Whether the task was cancelled.
    var isCancelled: Bool {
        lock.withLock { cancelled }
    }

    /// Throws `CancellationError` once the task was cancelled; called before each statement, because an
    /// interrupt that arrives between statements is cleared by SQLite when the next one starts.
    func checkCancelled() throws {
        if isCancelled { throw CancellationError() }
    }
}
