import CLibPQ
import BmobIO

/// Asks the server to cancel whatever statement a connection is running; usable from any thread (libpq's
/// `PQcancel` is thread-safe), as a task's cancellation handler needs.
final class PostgresCancelHandle: StatementInterrupting, @unchecked Sendable {
    // Invariant: `cancel` is only touched inside `lock.withLock`; `PQfreeCancel` runs in `deinit`, when no other
    // reference exists.
    private let lock = Lock()
    private let cancel: OpaquePointer

    init(_ cancel: OpaquePointer) {
        self.cancel = cancel
    }

    deinit {
        PQfreeCancel(cancel)
    }

    /// Sends the cancel request; best effort (the statement may have finished already).
    func interrupt() {
        lock.withLock {
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &message, Int32(message.count))
        }
    }
}
