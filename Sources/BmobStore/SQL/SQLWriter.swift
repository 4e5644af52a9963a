#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BmobIO

/// A store's writer on either engine: a thread that owns the read-write connection and commits queued writes in
/// groups.
///
/// Callers ``enqueue(_:)`` jobs from any thread. The thread drains the queue: every job queued meanwhile
/// (up to the group size) runs in its own SAVEPOINT inside one transaction (``SQLStoreConnection/beginWrite()``).
/// A job that throws rolls back only its savepoint and gets its own error at once; the others are resumed only
/// after COMMIT returned, so an acknowledged write is durable. If COMMIT fails, every job of the group gets that
/// error.
final class SQLWriter<Connection: SQLStoreConnection>: @unchecked Sendable {
    // Invariant: the queue state (`pending`, `drainScheduled`, `closeRequested`, `closeAction`, `isClosed`,
    // `closeWaiters`, `statistics`) is only touched inside `lock.withLock`. The thread state (`connection`,
    // `catalog`) is only touched on the pool's single thread; the connection traps if used anywhere else.
    private let lock = Lock()
    private var pending: [StoreWriteJob] = []
    private var drainScheduled = false
    private var closeRequested = false
    private var closeAction: (@Sendable () -> Void)?
    private var isClosed = false
    private var closeWaiters: [CheckedContinuation<Void, Never>] = []
    private var statistics = StoreWriterStatistics()

    private let pool: ThreadPool
    private var connection: Connection?
    private var opener: (@Sendable () throws -> (Connection, SchemaCatalog, Int64))?
    private var catalog = SchemaCatalog()

    private let settings: SQLWriterSettings
    private let registry: SchemaRegistry
    /// Runs on the writer thread before the connection closes (SQLite checkpoints its WAL).
    private let beforeClose: @Sendable (Connection) -> Void
    /// Told the journal head after each commit that appended journal rows.
    let commits: StoreCommitFeed

    init(
        settings: SQLWriterSettings, registry: SchemaRegistry, threadName: String,
        beforeClose: @escaping @Sendable (Connection) -> Void = { _ in }
    ) {
        self.settings = settings
        self.registry = registry
        self.beforeClose = beforeClose
        self.pool = ThreadPool(threadCount: 1, name: threadName)
        self.commits = StoreCommitFeed()
    }

    /// Opens the connection on the writer thread with `open`, which brings the database up to date and returns
    /// the connection, the catalog (published to the registry) and the journal's last `seq`.
    ///
    /// `open` runs again, on the writer thread, when the connection was lost (a database server restarting):
    /// the next group reconnects before it begins, and fails with the connection error while it cannot.
    func open(_ open: @escaping @Sendable () throws -> (Connection, SchemaCatalog, Int64)) async throws {
        try await pool.run { _ in
            let (connection, catalog, lastSeq) = try open()
            self.opener = open
            self.catalog = catalog
            self.registry.publish(catalog, asOf: lastSeq)
            self.commits.start(at: lastSeq)
            self.connection = connection
        }
    }

    /// Replaces a lost connection (or one that could not be replaced last time) with a new one from the opening
    /// function, on the writer thread.
    private func reconnectIfBroken() throws {
        if let connection, !connection.isBroken { return }
        guard let opener else { return }
        connection?.close()
        connection = nil
        let (reopened, catalog, lastSeq) = try opener()
        self.catalog = catalog
        registry.publish(catalog, asOf: lastSeq)
        commits.committed(through: lastSeq)
        self.connection = reopened
    }

    /// Counters so far.
    var currentStatistics: StoreWriterStatistics {
        lock.withLock { statistics }
    }

    /// Queues a job; the writer thread picks it up with whatever else is queued. The store calls this only
    /// before ``close(finally:)``.
    func enqueue(_ job: StoreWriteJob) {
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
    /// there), checkpoints the WAL, closes the connection and stops the thread. Safe to call more than once;
    /// only the first call's `finally` runs.
    func close(finally: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (resumeNow, schedule) = lock.withLock {
                if isClosed { return (true, false) }
                closeWaiters.append(continuation)
                guard !closeRequested else { return (false, false) }
                closeRequested = true
                closeAction = finally
                defer { drainScheduled = true }
                return (false, !drainScheduled)
            }
            if resumeNow { continuation.resume() }
            if schedule { pool.submit { _ in self.drain() } }
        }
        // The thread has finished its last work item, so joining it returns at once.
        pool.shutdown()
    }

    private enum Step {
        case group([StoreWriteJob])
        case close(@Sendable () -> Void)
        case idle
    }

    /// The writer thread's loop over the queue; returns when the queue is empty or the store closed.
    private func drain() {
        while true {
            // Give the threads producing writes a moment to queue more before this group starts: on a busy
            // core, waking the writer preempts them after one job, and each group costs a commit.
            sched_yield()
            let step: Step = lock.withLock {
                if !pending.isEmpty {
                    let count = min(pending.count, max(1, settings.maximumGroupSize))
                    defer { pending.removeFirst(count) }
                    return .group(Array(pending.prefix(count)))
                }
                if let action = closeAction {
                    closeAction = nil
                    return .close(action)
                }
                drainScheduled = false
                return .idle
            }
            switch step {
            case .group(let jobs):
                var remaining = jobs[...]
                var savepointEach = false
                while !remaining.isEmpty {
                    (remaining, savepointEach) = runTransaction(remaining, savepointEach: savepointEach)
                }
            case .close(let action):
                finishClose(action)
                return
            case .idle:
                return
            }
        }
    }

    /// Runs jobs in one transaction. Returns the jobs to run in a new one, and whether each of those needs its
    /// own savepoint:
    /// - when the engine rolled the whole transaction back by itself (SQLite does on an I/O error or a full
    ///   disk), the jobs it did not get to;
    /// - when a job without a savepoint failed after changing the database, or left the transaction unable to
    ///   commit (PostgreSQL aborts it at a failed statement), the transaction is rolled back and every other job
    ///   of it runs again, each in a savepoint this time (so a group is run at most twice).
    ///
    /// A savepoint per job (SAVEPOINT, RELEASE) is a visible part of a create's cost. A job runs without
    /// one when it is rerunnable and so is every job that succeeded before it in this transaction: then a
    /// failure can be undone by rolling back everything and running the others again. A job that fails
    /// without having changed anything (``SQLStoreConnection/changeMark``; most failures are validation errors)
    /// needs no undoing at all.
    ///
    /// A job without a savepoint may have its writes sent without waiting (``SQLStoreConnection/defersWrites``);
    /// when one of them fails, the next statement or the commit says so (``StoreError/Code/deferredWriteFailed``)
    /// without saying whose it was, and the transaction is rolled back and run again, each job in a savepoint.
    private func runTransaction(
        _ jobs: ArraySlice<StoreWriteJob>, savepointEach: Bool
    ) -> (remaining: ArraySlice<StoreWriteJob>, savepointEach: Bool) {
        do {
            try reconnectIfBroken()
        } catch {
            fail(jobs, error)
            return ([], false)
        }
        guard let connection else {
            fail(jobs, StoreError.closed())
            return ([], false)
        }
        do {
            if try connection.beginWrite() {
                // Another node wrote since this writer's last transaction: its catalog may be stale.
                self.catalog = try SchemaRows.loadCatalog(connection)
            }
        } catch {
            if connection.isInTransaction { try? connection.rollback() }
            fail(jobs, error)
            return ([], false)
        }
        var catalog = self.catalog
        var succeeded: [StoreWriteJob] = []
        var failedCount = 0
        var journalHead: Int64 = 0
        // Whether every job that succeeded so far in this transaction may run again.
        var allRerunnable = true
        var index = jobs.startIndex
        while index < jobs.endIndex {
            let job = jobs[index]
            index += 1
            let transaction = SQLWriteTransaction(
                connection: connection, catalog: catalog, caller: job.caller, time: settings.clock(),
                maximumDocumentBytes: settings.maximumDocumentBytes)
            let savepoint = savepointEach || !(job.rerunnable && allRerunnable)
            // Only a job without a savepoint needs to know whether its failure changed anything.
            let mark = savepoint ? nil : connection.changeMark
            // `$regex` steps are limited per evaluation on the writer too; a new job starts with a clean slate.
            connection.resetWorkBudget()
            connection.defersWrites = !savepoint
            defer { connection.defersWrites = false }
            do {
                if savepoint { try connection.run("SAVEPOINT job", []) }
                try job.perform(transaction)
                transaction.invalidate()
                if savepoint { try connection.run("RELEASE job", []) }
                catalog = transaction.catalog
                journalHead = max(journalHead, transaction.journalHead)
                succeeded.append(job)
                allRerunnable = allRerunnable && job.rerunnable
            } catch let error as StoreError where error.code == .deferredWriteFailed {
                // An earlier write of this transaction failed, or this job's: run them all again, each in a
                // savepoint, where a failure is its own job's (every job that succeeded here is rerunnable, and
                // this one is or has not started: a savepoint's job defers nothing, and its SAVEPOINT reads what
                // was deferred before it).
                transaction.invalidate()
                try? connection.rollback()
                lock.withLock {
                    statistics.failedWrites += failedCount
                    statistics.rerunGroups += 1
                }
                return (ArraySlice(succeeded + jobs[(index - 1)...]), true)
            } catch {
                transaction.invalidate()
                job.fail(error)
                failedCount += 1
                // The rollback that follows is not the job's work, and must not report its error.
                connection.resetWorkBudget()
                guard connection.isInTransaction else {
                    // The engine ended the transaction: the group's earlier writes are gone with it.
                    fail(succeeded, error, alreadyCounted: failedCount)
                    return (jobs[index...], false)
                }
                if savepoint {
                    do {
                        try connection.run("ROLLBACK TO job", [])
                        try connection.run("RELEASE job", [])
                    } catch {
                        try? connection.rollback()
                        fail(succeeded, error, alreadyCounted: failedCount)
                        return (jobs[index...], false)
                    }
                } else if let mark, connection.changeMark != mark || connection.isInFailedTransaction {
                    // Its changes cannot be undone alone: undo everything, and run the others again (each
                    // succeeded job here is rerunnable, or this job would have had a savepoint).
                    try? connection.rollback()
                    fail([], error, alreadyCounted: failedCount)
                    lock.withLock { statistics.rerunGroups += 1 }
                    return (ArraySlice(succeeded + jobs[index...]), true)
                }
            }
        }
        do {
            try connection.commitWrite(journalHead: journalHead)
        } catch where error.code == .deferredWriteFailed {
            try? connection.rollback()
            lock.withLock {
                statistics.failedWrites += failedCount
                statistics.rerunGroups += 1
            }
            return (ArraySlice(succeeded), true)
        } catch {
            if connection.isInTransaction { try? connection.rollback() }
            fail(succeeded, error, alreadyCounted: failedCount)
            return ([], false)
        }
        // Publish the schema before resuming anyone, so a caller's next read sees what it just recorded.
        self.catalog = catalog
        registry.publish(catalog, asOf: max(journalHead, commits.head))
        lock.withLock {
            statistics.transactions += 1
            statistics.recordGroup(size: succeeded.count)
            statistics.committedWrites += succeeded.count
            statistics.failedWrites += failedCount
        }
        // The head moves before anyone resumes, so a caller that saw its write finish also sees the head past it.
        if journalHead > 0 {
            commits.committed(through: journalHead)
        }
        // Resumed as one burst: each caller's loop is woken once for the group, not once per write.
        EventLoop.batchingWakeups {
            for job in succeeded {
                job.resume()
            }
        }
        return ([], false)
    }

    /// Fails jobs and counts them, with `alreadyCounted` jobs of the same transaction that failed on their own.
    private func fail(_ jobs: some Sequence<StoreWriteJob>, _ error: any Error, alreadyCounted: Int = 0) {
        var count = alreadyCounted
        for job in jobs {
            job.fail(error)
            count += 1
        }
        lock.withLock { statistics.failedWrites += count }
    }

    /// Runs on the writer thread once the queue is empty after ``close(finally:)``.
    private func finishClose(_ action: @Sendable () -> Void) {
        action()
        opener = nil
        if let connection {
            beforeClose(connection)
            connection.close()
        }
        connection = nil
        let waiters = lock.withLock {
            isClosed = true
            defer { closeWaiters = [] }
            return closeWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }
}
