import BmobIO

/// PostgreSQL reader threads, one connection each, opened lazily on its own thread and replaced when lost.
///
/// Every statement of a read sees one snapshot: since writers draw journal `seq`s in commit order under the app's
/// lock, a snapshot always holds a prefix of the journal. A read first runs without a transaction, which is one
/// snapshot as long as it runs one statement (most reads: a query, an object by id), and saves PostgreSQL the
/// `BEGIN` and `ROLLBACK` that cost it more than a short query; a read that asks for a second statement runs
/// again, from its start, as one `REPEATABLE READ READ ONLY` transaction. Behind a transaction-mode pooler
/// (``PostgresStore/Configuration/behindTransactionPooler``) every read is a transaction, whose `SET LOCAL`s
/// carry the settings a session cannot keep there. `statement_timeout` bounds each statement's work (from
/// ``StoreWorkLimits/queryWork``), and a cancelled task sends PostgreSQL a cancel request for the running
/// statement.
///
/// A read that meets a missing table (another node dropped a class after this node's catalog was published)
/// reloads the catalog and runs once more: PostgreSQL aborts the transaction at the failed statement, so the
/// read cannot go on as SQLite's does.
final class PostgresReaderPool: SQLReaderPool, @unchecked Sendable {
    // Invariant: the slots are ``ReaderThreads``'s, each touched by its own thread only.
    private let threads: ReaderThreads<Slot>
    private let configuration: PostgresStore.Configuration
    private let registry: SchemaRegistry

    init(configuration: PostgresStore.Configuration, registry: SchemaRegistry) {
        self.configuration = configuration
        self.registry = registry
        threads = ReaderThreads(count: configuration.readerCount, name: "bmob-pg-r") { Slot() }
    }

    func submit<T>(
        ticket: StoreReadTicket,
        _ body: @escaping @Sendable (SQLReadTransaction<PostgresConnection>) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        threads.submit({ slot in try self.perform(slot, ticket: ticket, body) }, completion: completion)
    }

    func shutdown() {
        threads.shutdown(discard)
    }

    /// Runs `body` without a transaction first (unless behind a pooler), then in one when it needs a snapshot; a
    /// missing table reloads the catalog and runs it once more in a transaction.
    private func perform<T>(
        _ slot: Slot,
        ticket: StoreReadTicket,
        _ body: (SQLReadTransaction<PostgresConnection>) throws -> T
    ) throws -> T {
        do {
            if !configuration.behindTransactionPooler {
                do {
                    return try attempt(slot, ticket: ticket, autocommit: true, body)
                } catch let error as StoreError where error.code == .readNeedsSnapshot && !ticket.isCancelled {}
            }
            return try attempt(slot, ticket: ticket, autocommit: false, body)
        } catch let error as StoreError where error.postgresState == .undefinedTable && !ticket.isCancelled {
            try refreshCatalog(slot)
            return try attempt(slot, ticket: ticket, autocommit: false, body)
        }
    }

    /// Runs `body` once: without a transaction (`autocommit`, throwing ``StoreError/Code/readNeedsSnapshot`` when it
    /// asked for a second statement, whatever it answered) or in one.
    private func attempt<T>(
        _ slot: Slot,
        ticket: StoreReadTicket,
        autocommit: Bool,
        _ body: (SQLReadTransaction<PostgresConnection>) throws -> T
    ) throws -> T {
        let connection = try connection(in: slot)
        if let cancel = slot.cancel {
            guard ticket.start(cancel) else { throw CancellationError() }
        } else if ticket.isCancelled {
            throw CancellationError()
        }
        defer { ticket.finish() }
        do {
            if autocommit {
                connection.beginAutocommitRead()
            } else {
                // The transaction begins with the read's first statement, in the same round trip.
                connection.beginWithFirstStatement(beginStatements(connection))
            }
            let transaction = SQLReadTransaction(connection: connection, catalog: registry.committed, ticket: ticket)
            defer { transaction.invalidate() }
            let value: T
            do {
                value = try body(transaction)
            } catch {
                if autocommit, connection.endAutocommitRead() { throw Self.needsSnapshot }
                throw error
            }
            if autocommit {
                if connection.endAutocommitRead() { throw Self.needsSnapshot }
            } else if !connection.endDeferredBegin() {
                // A read-only transaction has nothing to lose: ROLLBACK ends it as well as COMMIT would, and the
                // read need not wait for it (the connection reads its answer before its next statement).
                try connection.sendWithoutWaiting("ROLLBACK")
            }
            return value
        } catch {
            _ = connection.endAutocommitRead()
            _ = connection.endDeferredBegin()
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
    private func refreshCatalog(_ slot: Slot) throws {
        let connection = try connection(in: slot)
        do {
            try connection.execute(beginSQL(connection))
            let catalog = try SchemaRows.loadCatalog(connection)
            let head = try JournalRows.lastSeq(connection)
            try connection.execute("ROLLBACK")
            registry.publish(catalog, asOf: head)
        } catch {
            if connection.isBroken { discard(slot) } else { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    private func beginSQL(_ connection: PostgresConnection) -> String {
        beginStatements(connection).joined(separator: "; ")
    }

    private static let needsSnapshot = StoreError(.readNeedsSnapshot, "the read runs again in a transaction")

    /// A read's transaction: one snapshot, read only. Behind a transaction-mode pooler it also sets the app's
    /// schema and the statement timeout, per transaction (the pooler keeps no session settings); otherwise the
    /// session has them (``connection(in:)``).
    private func beginStatements(_ connection: PostgresConnection) -> [String] {
        let begin = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        guard configuration.behindTransactionPooler else { return [begin] }
        return [
            begin, "SET LOCAL search_path TO \(connection.schema ?? "public")",
            "SET LOCAL statement_timeout = \(configuration.statementTimeoutMilliseconds)",
        ]
    }

    private func discard(_ slot: Slot) {
        slot.connection?.close()
        slot.connection = nil
        slot.cancel = nil
    }

    private func connection(in slot: Slot) throws -> PostgresConnection {
        if let connection = slot.connection, !connection.isBroken { return connection }
        discard(slot)
        let connection = try PostgresConnection(url: configuration.url, applicationName: "bmob-reader")
        try connection.use(schema: configuration.schema)
        if !configuration.behindTransactionPooler {
            try connection.execute("SET statement_timeout = \(configuration.statementTimeoutMilliseconds)")
        }
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
