import BmobIO

/// PostgreSQL reader threads, one connection each, opened lazily on its own thread and replaced when lost.
///
/// A read runs as one `REPEATABLE READ READ ONLY` transaction, so every statement of it sees one snapshot: since
/// writers draw journal `seq`s in commit order under the app's lock, a snapshot always holds a prefix of the
/// journal. `statement_timeout` bounds each statement's work (from ``StoreWorkLimits/queryWork``), and a cancelled
/// task sends PostgreSQL a cancel request for the running statement.
///
/// A read that meets a missing table (another node dropped a class after this node's catalog was published)
/// reloads the catalog and runs once more: PostgreSQL aborts the transaction at the failed statement, so the
/// read cannot go on as SQLite's does.
final class PostgresReaderPool: SQLReaderPool, @unchecked Sendable {
    // Invariant: `slots[i]` is only touched by the pool thread with index `i`, and by ``shutdown()`` after every
    // pool thread was joined. The array never changes after `init`.
    private let slots: [Slot]
    private let pool: ThreadPool
    private let configuration: PostgresStore.Configuration
    private let registry: SchemaRegistry

    init(configuration: PostgresStore.Configuration, registry: SchemaRegistry) {
        let count = max(1, configuration.readerCount)
        self.configuration = configuration
        self.registry = registry
        slots = (0..<count).map { _ in Slot() }
        pool = ThreadPool(threadCount: count, name: "bmob-pg-r")
    }

    func submit<T>(
        ticket: StoreReadTicket,
        _ body: @escaping @Sendable (SQLReadTransaction<PostgresConnection>) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        pool.submit { index in
            completion(Result { try self.perform(index: index, ticket: ticket, body) })
        }
    }

    func shutdown() {
        pool.shutdown()
        for slot in slots {
            slot.connection?.close()
            slot.connection = nil
            slot.cancel = nil
        }
    }

    private func perform<T>(
        index: Int,
        ticket: StoreReadTicket,
        _ body: (SQLReadTransaction<PostgresConnection>) throws -> T
    ) throws -> T {
        do {
            return try attempt(index: index, ticket: ticket, body)
        } catch let error as StoreError where error.postgresState == .undefinedTable && !ticket.isCancelled {
            try refreshCatalog(index: index)
            return try attempt(index: index, ticket: ticket, body)
        }
    }

    private func attempt<T>(
        index: Int,
        ticket: StoreReadTicket,
        _ body: (SQLReadTransaction<PostgresConnection>) throws -> T
    ) throws -> T {
        let slot = slots[index]
        let connection = try connection(at: index)
        if let cancel = slot.cancel {
            guard ticket.start(cancel) else { throw CancellationError() }
        } else if ticket.isCancelled {
            throw CancellationError()
        }
        defer { ticket.finish() }
        do {
            try connection.execute(beginSQL(connection))
            let transaction = SQLReadTransaction(connection: connection, catalog: registry.committed, ticket: ticket)
            defer { transaction.invalidate() }
            let value = try body(transaction)
            // A read-only transaction has nothing to lose: ROLLBACK ends it as well as COMMIT would.
            try connection.execute("ROLLBACK")
            return value
        } catch {
            if connection.isBroken {
                discard(slot)
            } else if connection.isInTransaction {
                try? connection.execute("ROLLBACK")
            }
            if ticket.isCancelled, (error as? StoreError)?.postgresState == .queryCanceled {
                throw CancellationError()
            }
            throw error
        }
    }

    /// Reloads the schema catalog from the database and publishes it, after a read found a table missing.
    private func refreshCatalog(index: Int) throws {
        let connection = try connection(at: index)
        do {
            try connection.execute(beginSQL(connection))
            let catalog = try SchemaRows.loadCatalog(connection)
            let head = try JournalRows.lastSeq(connection)
            try connection.execute("ROLLBACK")
            registry.publish(catalog, asOf: head)
        } catch {
            if connection.isBroken { discard(slots[index]) } else { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func beginSQL(_ connection: PostgresConnection) -> String {
        let schema = connection.schema ?? "public"
        return "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL search_path TO \(schema); "
            + "SET LOCAL statement_timeout = \(configuration.statementTimeoutMilliseconds)"
    }

    private func discard(_ slot: Slot) {
        slot.connection?.close()
        slot.connection = nil
        slot.cancel = nil
    }

    private func connection(at index: Int) throws -> PostgresConnection {
        let slot = slots[index]
        if let connection = slot.connection, !connection.isBroken { return connection }
        discard(slot)
        let connection = try PostgresConnection(url: configuration.url, applicationName: "bmob-reader")
        try connection.use(schema: configuration.schema)
        slot.connection = connection
        slot.cancel = connection.makeCancelHandle()
        return connection
    }

    /// One thread's connection, opened on first use, and the handle that cancels its statements.
    private final class Slot {
        var connection: PostgresConnection?
        var cancel: PostgresCancelHandle?
    }
}
