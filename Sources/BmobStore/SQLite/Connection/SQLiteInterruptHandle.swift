import CSQLite

/// The one thing another thread may do to a connection: `sqlite3_interrupt`, which SQLite documents as
/// safe from any thread.
struct SQLiteInterruptHandle: StatementInterrupting, @unchecked Sendable {
    // Invariant: only `sqlite3_interrupt` is called on `handle`, and only while its connection is open and
    // running the read that asked for it (``StoreReadTicket`` serialises the two under its lock).
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    /// Makes the connection's running statement fail with `SQLITE_INTERRUPT` as soon as possible.
    func interrupt() {
        sqlite3_interrupt(handle)
    }
}
