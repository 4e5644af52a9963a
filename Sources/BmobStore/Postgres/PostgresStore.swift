package import BmobIO
import BmobWire

/// The ``Store`` for several server nodes: one PostgreSQL database, a schema per app (``PostgresSchemaName``).
///
/// It has SQLite's shape (``SQLStoreEngine``): one writer thread per app and node commits queued writes in groups
/// (``SQLWriter``), a pool of reader threads serves ``read(_:)``, and no libpq call runs on the calling task's
/// thread. Each class is a table (`objectId`, `createdAt`, `updatedAt`, `acl` and `data` as `jsonb`); internal
/// tables start with `__`, as on SQLite (``PostgresMigration``). Queries compile through ``SQLQueryCompiler`` in
/// ``PostgresDialect``.
///
/// Many writers, on many nodes: each write transaction takes the app's advisory lock as it begins and holds it
/// until its commit is visible, and draws journal `seq`s as the largest plus one, so `seq`s grow in commit order
/// and readers (`REPEATABLE READ`) always see a prefix of the journal (the rules in ``Store``). The lock also tells
/// a writer when another node wrote in between, so it reloads its schema catalog first. A commit notifies the
/// app's channel; every node's ``PostgresJournalListener`` then reads the new head, moves the commit feed and
/// reloads the catalog when schemas changed.
///
/// When PostgreSQL goes away, calls fail with ``StoreError/Code/unavailable`` (Bmob 503) and lost connections are
/// replaced on their next use.
package final class PostgresStore: Store {
    /// The configuration the store was opened with.
    package let configuration: Configuration
    private let engine: SQLStoreEngine<PostgresReaderPool>
    private let listener: PostgresJournalListener

    private init(configuration: Configuration, registry: SchemaRegistry, writer: SQLWriter<PostgresConnection>) {
        self.configuration = configuration
        self.engine = SQLStoreEngine(
            writer: writer, readers: PostgresReaderPool(configuration: configuration, registry: registry))
        self.listener = PostgresJournalListener(
            configuration: configuration, registry: registry, commits: writer.commits)
    }

    /// Connects, creates the app's schema if needed and runs pending migrations, on the writer thread.
    ///
    /// - Throws: ``StoreError``: ``StoreError/Code/unavailable`` when the server cannot be reached,
    ///   ``StoreError/Code/incompatible`` when a newer version wrote the schema or the database is not UTF-8.
    package static func open(_ configuration: Configuration) async throws -> PostgresStore {
        let registry = SchemaRegistry(SchemaCatalog())
        let settings = SQLWriterSettings(
            maximumGroupSize: configuration.maximumGroupSize, maximumDocumentBytes: configuration.maximumDocumentBytes,
            clock: configuration.clock)
        let writer = SQLWriter<PostgresConnection>(settings: settings, registry: registry, threadName: "bmob-pg-w")
        do {
            try await writer.open { try openWriterConnection(configuration) }
        } catch {
            await writer.close {}
            throw error
        }
        let store = PostgresStore(configuration: configuration, registry: registry, writer: writer)
        store.listener.start()
        return store
    }

    package func write<T: Sendable>(
        caller: JournalAuthor?,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> T
    ) async throws -> T {
        try await write(caller: caller, rerunnable: false, body)
    }

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

    /// `observer` runs on the journal listener's thread when a `sessions` notification arrives (this node's own
    /// too: it has forgotten what they announce already, and forgetting again is harmless).
    package func observeSessionChanges(_ observer: @escaping @Sendable () -> Void) {
        listener.observeSessionChanges(observer)
    }

    /// The writer's counters so far.
    package var statistics: StoreWriterStatistics {
        engine.writer.currentStatistics
    }

    /// The reader pool's counters so far.
    package var readerStatistics: ThreadPoolStatistics {
        engine.readers.statistics
    }

    /// Stops the journal listener, finishes queued writes and in-flight reads, and closes every connection.
    package func close() async {
        await engine.close { [listener] in listener.stop() }
    }

    /// Opens the writer's connection: the app's schema, migrations, the catalog and the journal's last `seq`.
    private static func openWriterConnection(_ configuration: Configuration) throws
        -> (PostgresConnection, SchemaCatalog, Int64)
    {
        let connection = try PostgresConnection(url: configuration.url, applicationName: "bmob-writer")
        do {
            try PostgresMigrator.migrate(
                connection, configuration.schema, PostgresMigration.builtin, now: configuration.clock())
            try connection.use(schema: configuration.schema)
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            let catalog = try SchemaRows.loadCatalog(connection)
            let head = try JournalRows.lastSeq(connection)
            try connection.execute("COMMIT")
            connection.lastSeenSeq = head
            return (connection, catalog, head)
        } catch {
            connection.close()
            throw error
        }
    }
}
