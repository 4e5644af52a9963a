import BmobIO

/// The single writer: a thread that owns the read-write connection and commits queued writes in groups.
///
/// Callers ``enqueue(_:)`` jobs from any thread. The thread drains the queue: every job queued meanwhile
/// (up to the group size) runs in its own SAVEPOINT inside one `BEGIN IMMEDIATE … COMMIT`. A job that
/// throws rolls back only its savepoint and gets its own error at once; the others are resumed only after
/// COMMIT returned, so an acknowledged write is in the WAL. If COMMIT fails, every job of the group gets
/// that error.
final class SQLiteWriter: @unchecked Sendable {
    // Invariant: the queue state (`pending`, `drainScheduled`, `closeRequested`, `closeWaiters`, `isClosed`,
    // `statistics`) is only touched inside `lock.withLock`. The thread state (`connection`, `catalog`) is only
    // touched on the pool's single thread; the connection traps if used anywhere else.
    private let lock = Lock()
    private var pending: [SQLiteWriteJob] = []
    private var pendingHead = 0
    private var drainScheduled = false
    private var closeRequested = false
    private var isClosed = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var statistics = SQLiteStore.Statistics()

    private let pool = ThreadPool(threadCount: 1, name: "bmob-sqlite-w")
    private var connection: SQLiteConnection?
    private var catalog = SchemaCatalog()

    private let configuration: SQLiteStore.Configuration
    private let registry: SchemaRegistry

    init(configuration: SQLiteStore.Configuration, registry: SchemaRegistry) {
        self.configuration = configuration
        self.registry = registry
    }

    /// Opens the connection on the writer thread: WAL, synchronous mode, migrations, and the catalog,
    /// which it publishes to the registry.
    func open(migrations: [SQLiteMigration]) async throws {
        try await pool.run { _ in
            let connection = try SQLiteConnection(
                path: self.configuration.path, readOnly: false,
                busyTimeoutMilliseconds: Int32(clamping: self.configuration.busyTimeoutMilliseconds))
            // WAL is a property of the file; setting it again is cheap. An in-memory database cannot use it.
            let mode = try connection.firstRow("PRAGMA journal_mode = WAL") { $0.text(0) }
            guard mode?.lowercased() == "wal" else {
                throw StoreError(.io, "the database cannot use write-ahead logging")
            }
            try connection.execute("PRAGMA synchronous = \(self.configuration.synchronous.pragmaValue)")
            try SQLiteMigrator.migrate(connection, migrations, now: self.configuration.clock())
            self.catalog = try SQLiteSchemaRows.loadCatalog(connection)
            self.registry.publish(self.catalog)
            self.connection = connection
        }
    }

    /// Counters so far.
    var currentStatistics: SQLiteStore.Statistics {
        lock.withLock { statistics }
    }

    /// Queues a job; the writer thread picks it up with whatever else is queued. The store calls this only
    /// before ``close(finally:)``.
    func enqueue(_ job: SQLiteWriteJob) {
        let schedule = lock.withLock {
            precondition(!closeRequested, "a write was queued after close")
            pending.append(job)
            statistics.enqueuedWrites += 1
            defer { drainScheduled = true }
            return !drainScheduled
        }
        if schedule { pool.submit { _ in self.drain() } }
    }

    /// Lets queued jobs finish, then, on the writer thread, runs `finally` (the store closes its readers
    /// there), checkpoints the WAL, closes the connection and stops the thread. Safe to call more than once.
    func close(finally: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, schedule) = lock.withLock {
                if isClosed { return (true, false) }
                closeWaiters.append(continuation)
                guard !closeRequested else { return (false, false) }
                closeRequested = true
                defer { drainScheduled = true }
                return (false, !drainScheduled)
            }
            if resumeNow { continuation.resume() }
            if schedule { pool.submit { _ in self.drain(finally: finally) } } else { closeHook.set(finally) }
        }
        // The thread has finished its last work item; joining it returns at once.
        pool.shutdown()
    }
}
