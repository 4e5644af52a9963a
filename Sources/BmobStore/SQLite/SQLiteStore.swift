package import BmobIO
package import BmobWire

/// The embedded ``Store``: one SQLite file per app, in WAL mode.
///
/// One writer thread owns the read-write connection and commits queued writes in groups (see
/// ``write(caller:_:)``); a pool of reader threads, one read-only connection each, serves ``read(_:)``.
/// No SQLite call runs on the calling task's thread. Each class is a table (`objectId`, `createdAt`,
/// `updatedAt`, `acl`, `data` as a JSON object); internal tables start with `__`: `__journal`,
/// `__schema` (the schema registry, cached in memory and updated only after COMMIT), `__relation` (relation
/// members), `__index` (declared indexes), `__class_permission`, the account and verification tables and
/// `__migrations`. Queries compile through ``SQLQueryCompiler`` in the ``SQLiteDialect``. The server opens it
/// through ``StoreFactory`` (``StorageConfiguration/sqlite(synchronous:)``); every SQLite-specific file lives
/// under `BmobStore/SQLite/`.
///
/// Call ``close()`` before dropping the store: it finishes queued writes, checkpoints the WAL and stops
/// the threads.
///
/// ## Topics
/// ### Opening
/// - ``open(_:migrations:)``
/// - ``Configuration``
/// - ``SynchronousMode``
/// ### Inspecting
/// - ``statistics``
/// - ``appliedMigrations()``
/// - ``explain(_:)``
package final class SQLiteStore: Store {
    /// The configuration the store was opened with.
    package let configuration: Configuration
    private let engine: SQLStoreEngine<SQLiteReaderPool>

    private init(configuration: Configuration, registry: SchemaRegistry, writer: SQLWriter<SQLiteConnection>) {
        self.configuration = configuration
        self.engine = SQLStoreEngine(
            writer: writer, readers: SQLiteReaderPool(configuration: configuration, registry: registry))
    }

    /// Opens (creating if needed) the database and runs pending migrations, on the writer thread.
    ///
    /// - Parameters:
    ///   - configuration: Where and how to open.
    ///   - migrations: The migration list; tests append to ``SQLiteMigration/builtin``.
    /// - Throws: ``StoreError``: ``StoreError/Code/io`` when the file cannot be opened or use WAL,
    ///   ``StoreError/Code/incompatible`` when a newer version wrote it.
    package static func open(
        _ configuration: Configuration,
        migrations: [SQLiteMigration] = SQLiteMigration.builtin
    ) async throws -> SQLiteStore {
        let registry = SchemaRegistry(SchemaCatalog())
        let settings = SQLWriterSettings(
            maximumGroupSize: configuration.maximumGroupSize, maximumDocumentBytes: configuration.maximumDocumentBytes,
            clock: configuration.clock)
        let writer = SQLWriter<SQLiteConnection>(settings: settings, registry: registry, threadName: "bmob-sqlite-w") {
            // Folds the WAL back into the database so the file stands alone; best effort.
            connection in try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        do {
            try await writer.open { try openWriterConnection(configuration, migrations: migrations) }
        } catch {
            await writer.close {}
            throw error
        }
        return SQLiteStore(configuration: configuration, registry: registry, writer: writer)
    }

    /// Runs `body` once in a write transaction on the writer thread; returns after COMMIT.
    package func write<T: Sendable>(
        caller: JournalAuthor?,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> T
    ) async throws -> T {
        try await write(caller: caller, rerunnable: false, body)
    }

    /// Writes queued while the writer is busy share one transaction (group commit), so one write's failure
    /// must not touch the others: each runs in its own savepoint, except rerunnable ones, which the writer
    /// runs again after rolling the group back instead (see ``SQLWriter``).
    package func write<T: Sendable>(
        caller: JournalAuthor?,
        rerunnable: Bool,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> T
    ) async throws -> T {
        try await engine.write(caller: caller, rerunnable: rerunnable) { transaction in try body(transaction) } as! T
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReadTransaction) throws -> T) async throws -> T
    {
        try await engine.withReader { transaction in try body(transaction) } as! T
    }

    package func journal(after seq: Int64, limit: Int) async throws -> [JournalEntry] {
        try await engine.withReader { transaction in try transaction.journal(after: seq, limit: limit) } as! [JournalEntry]
    }

    package var committedJournalSeq: Int64 { engine.writer.commits.head }

    package func observeCommits(_ observer: @escaping @Sendable (Int64) -> Void) {
        engine.writer.commits.observe(observer)
    }

    /// One server writes a file, so no other node changes its sessions: `observer` is never called.
    package func observeSessionChanges(_ observer: @escaping @Sendable () -> Void) {}

    /// Names of the migrations the database has applied, in the order they ran.
    /// - Throws: ``StoreError``.
    package func appliedMigrations() async throws -> [String] {
        try await engine.withReader { transaction in try transaction.appliedMigrations() } as! [String]
    }

    /// The SQL a find runs and SQLite's plan for it, on a reader: for tests and diagnostics, to prove that
    /// a query uses a declared index.
    /// - Throws: ``StoreError`` (``StoreError/Code/notFound`` for a class that does not exist), as
    ///   ``StoreReadTransaction/find(_:)``.
    package func explain(_ query: FindQuery) async throws -> SQLiteQueryPlan {
        try await engine.withReader { transaction in try transaction.explain(query) } as! SQLiteQueryPlan
    }

    /// The writer's counters so far.
    package var statistics: StoreWriterStatistics {
        engine.writer.currentStatistics
    }

    /// The reader pool's counters so far.
    package var readerStatistics: ThreadPoolStatistics {
        engine.readers.statistics
    }

    /// Finishes queued writes and in-flight reads, then, on the writer thread, closes the readers,
    /// checkpoints the WAL into the database file and closes the writer. Later calls throw
    /// ``StoreError/Code/closed``; calling it again just waits for the first call to finish.
    /// Its last step joins the writer thread, which has finished its work by then.
    package func close() async {
        await engine.close()
    }

    /// Opens the read-write connection on the writer thread: WAL, synchronous mode, cache, migrations; returns it
    /// with the catalog and the journal's last `seq`.
    private static func openWriterConnection(_ configuration: Configuration, migrations: [SQLiteMigration]) throws
        -> (SQLiteConnection, SchemaCatalog, Int64)
    {
        let connection = try SQLiteConnection(
            path: configuration.path, readOnly: false,
            busyTimeoutMilliseconds: Int32(clamping: configuration.busyTimeoutMilliseconds),
            workLimits: configuration.workLimits)
        // WAL is a property of the file; asking again is cheap. An in-memory database cannot use it.
        let mode = try connection.firstRow("PRAGMA journal_mode = WAL") { $0.text(0) } ?? nil
        guard mode?.lowercased() == "wal" else {
            throw StoreError(.io, "the database cannot use write-ahead logging")
        }
        try connection.execute("PRAGMA synchronous = \(configuration.synchronous.pragmaValue)")
        try connection.execute("PRAGMA cache_size = -\(configuration.cacheSizeKibibytes)")
        try SQLiteMigrator.migrate(connection, migrations, now: configuration.clock())
        return (connection, try SchemaRows.loadCatalog(connection), try JournalRows.lastSeq(connection))
    }
}
