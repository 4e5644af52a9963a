import BmobIO

/// Read-only connections, one per thread of a pool, each opened lazily on its own thread.
///
/// A read runs as `BEGIN … COMMIT` on whichever thread is free, so it sees one WAL snapshot and never
/// waits for the writer. Each read starts with a fresh ``SQLiteWorkBudget``: one that does more work than
/// ``StoreWorkLimits`` allow fails with the budget's error and leaves the thread to the next read.
final class SQLiteReaderPool: SQLReaderPool, @unchecked Sendable {
    // Invariant: the slots are ``ReaderThreads``'s, each touched by its own thread only.
    private let threads: ReaderThreads<Slot>
    private let configuration: SQLiteStore.Configuration
    private let registry: SchemaRegistry

    init(configuration: SQLiteStore.Configuration, registry: SchemaRegistry) {
        self.configuration = configuration
        self.registry = registry
        threads = ReaderThreads(count: configuration.readerCount, name: "bmob-sqlite-r") { Slot() }
    }

    /// Queues a read; `completion` receives its result on the reader thread.
    func submit<T>(
        ticket: StoreReadTicket,
        _ body: @escaping @Sendable (SQLReadTransaction<SQLiteConnection>) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        threads.submit({ slot in try self.perform(slot, ticket: ticket, body) }, completion: completion)
    }

    var statistics: ThreadPoolStatistics { threads.statistics }

    /// Waits for queued reads, stops the threads and closes the connections. Blocks: call it on the writer
    /// thread (``SQLiteStore/close()`` does).
    func shutdown() {
        threads.shutdown { slot in
            slot.connection?.close()
            slot.connection = nil
        }
    }

    private func perform<T>(
        _ slot: Slot,
        ticket: StoreReadTicket,
        _ body: (SQLReadTransaction<SQLiteConnection>) throws -> T
    ) throws -> T {
        let connection = try connection(in: slot)
        guard ticket.start(connection.interruptHandle) else { throw CancellationError() }
        defer { ticket.finish() }
        connection.resetWorkBudget()
        do {
            try connection.run("BEGIN")
            let transaction = SQLReadTransaction(connection: connection, catalog: registry.committed, ticket: ticket)
            defer { transaction.invalidate() }
            let value = try body(transaction)
            // A caller that caught the budget's error (to try something else, say) must not answer with a
            // partial result: a read over its budget fails as a whole.
            if let exhausted = connection.workBudget.error { throw exhausted }
            // Ending the transaction is not the query's work: the budget must not stop it.
            connection.resetWorkBudget()
            // A read-only transaction has nothing to lose: if COMMIT fails, ROLLBACK ends it all the same.
            do {
                try connection.run("COMMIT")
            } catch {
                try connection.run("ROLLBACK")
            }
            connection.reportCacheUse()
            return value
        } catch {
            // The error already says whether the budget stopped the read; the ROLLBACK must run regardless, or
            // the connection would stay inside this transaction for the next read.
            connection.resetWorkBudget()
            if connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
            if ticket.isCancelled, (error as? StoreError)?.sqliteCode == .interrupt { throw CancellationError() }
            throw error
        }
    }

    private func connection(in slot: Slot) throws -> SQLiteConnection {
        if let connection = slot.connection { return connection }
        let connection = try SQLiteConnection(
            path: configuration.path, readOnly: true,
            busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds),
            workLimits: configuration.workLimits)
        try connection.execute("PRAGMA cache_size = -\(configuration.cacheSizeKibibytes)")
        slot.connection = connection
        return connection
    }

    /// One thread's connection, opened on first use.
    private final class Slot {
        var connection: SQLiteConnection?
    }
}
