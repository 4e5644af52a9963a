package import BmobIO

/// A Bmob app's database: objects by class, the schema registry and the journal, with account and verification
/// records beside them.
///
/// The interface knows no SQL and no engine types: ``SQLiteStore`` implements it today, a PostgreSQL store next
/// (see ``StorageConfiguration`` and ``StoreFactory``). Work happens in closures that receive a transaction valid
/// only inside them: ``write(caller:_:)`` runs on the store's writer, ``read(_:)`` on a pooled reader with a
/// consistent snapshot. Engine failures reach callers as ``StoreError`` codes.
///
/// ## The journal's order
///
/// Every committed write appends journal entries in its own transaction, each with a `seq`. Readers (realtime
/// feeds, history, other nodes) tail the journal with ``journal(after:limit:)``, keeping the largest `seq` they
/// have seen as their cursor. Two rules make that lossless, and every engine keeps them:
///
/// 1. `seq` grows in commit order: an entry committed after another has a larger `seq`, and `seq`s are never
///    reused.
/// 2. No gap is filled later: once a reader has been given an entry with `seq = n` (by ``journal(after:limit:)``,
///    ``StoreCoreReadTransaction/lastJournalSeq()`` or ``committedJournalSeq``), no entry with a `seq` below `n`
///    appears afterwards. Entries are returned only when no uncommitted transaction holds a smaller `seq`.
///
/// A sequence alone breaks rule 2 under concurrent writers: one writer draws 7, a second draws 8 and commits
/// first, and a reader that saw 8 never sees 7. An engine therefore draws `seq`s in commit order or hides entries
/// above the smallest `seq` still in flight. ``SQLiteStore`` has one writer at a time (the database's write lock,
/// across processes too) that draws each `seq` as the largest plus one inside its transaction, so every snapshot
/// holds a prefix of the journal. A PostgreSQL store draws its `seq`s at the end of each write transaction, under a
/// transaction-scoped advisory lock on the app's journal that is released only once the commit is visible, so
/// concurrent writers on any number of nodes draw them in commit order.
///
/// ## Topics
/// ### Transactions
/// - ``write(caller:_:)``
/// - ``write(caller:rerunnable:_:)``
/// - ``read(_:)``
/// ### Journal
/// - ``journal(after:limit:)``
/// - ``committedJournalSeq``
/// - ``observeCommits(_:)``
/// ### Lifecycle
/// - ``close()``
package protocol Store: Sendable {
    /// The writer's counters so far (queue, group commits), for metrics.
    var statistics: StoreWriterStatistics { get }

    /// The reader pool's counters so far (reads, and reads that waited for a busy reader), for metrics.
    var readerStatistics: ThreadPoolStatistics { get }

    /// Runs `body` in one write transaction and returns once it has committed.
    ///
    /// The data changes and the journal rows of `body` commit together or not at all. When `body` throws,
    /// none of its changes (data, journal rows, recorded fields) remain, and the error is rethrown. Once
    /// this returns, the write survives a process crash. Writes are not cancelled once queued.
    ///
    /// - Parameters:
    ///   - caller: Who makes the change and through which door, recorded in each journal row.
    ///   - body: The work; it runs on the writer, not on the calling task, once.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or a ``StoreError`` (``StoreError/Code/closed`` after ``close()``).
    func write<T: Sendable>(
        caller: JournalAuthor?,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> T
    ) async throws -> T

    /// Runs `body` in one write transaction and returns once it has committed, as ``write(caller:_:)``
    /// does; a `rerunnable` body may run more than once.
    ///
    /// Both forms are requirements: a protocol-extension `write(caller:_:)` forwarding to this one crashed at
    /// run time (Swift 6.3.1: a throwing body, reached through `any Store` from another module).
    ///
    /// - Parameters:
    ///   - caller: Who makes the change and through which door, recorded in each journal row.
    ///   - rerunnable: `body` has no effect outside the transaction it is given: its only effects are calls on
    ///     that transaction, and what it returns depends only on what it reads there. The store may then roll
    ///     back its work and run it again (for instance when a write sharing its transaction fails), and may
    ///     skip the per-write savepoint such bodies do not need. Only the last run's result is returned.
    ///   - body: The work; it runs on the writer, not on the calling task.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or a ``StoreError`` (``StoreError/Code/closed`` after ``close()``).
    func write<T: Sendable>(
        caller: JournalAuthor?,
        rerunnable: Bool,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> T
    ) async throws -> T

    /// Runs `body` on a reader that sees a snapshot of committed data.
    ///
    /// Cancelling the calling task interrupts the read: `body`'s next store call throws `CancellationError`.
    ///
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, `CancellationError`, or a ``StoreError``.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReadTransaction) throws -> T) async throws -> T

    /// Committed journal entries with `seq` greater than `seq`, in `seq` order, at most `limit` of them, following
    /// the rules in "The journal's order": an entry with a smaller `seq` than the last one returned never appears
    /// later, so the last `seq` returned is the next call's cursor.
    ///
    /// - Throws: A ``StoreError``.
    func journal(after seq: Int64, limit: Int) async throws -> [JournalEntry]

    /// The `seq` of the last committed journal entry (0 for an empty journal). Read it before waiting for
    /// commits: every entry committed afterwards has a larger `seq`, and every entry up to it can be read.
    var committedJournalSeq: Int64 { get }

    /// Calls `observer` with the new journal head after every commit that appended journal rows (across
    /// server nodes: after such a commit is noticed). It runs on the store's thread: keep it short, such as
    /// waking a task that then reads ``journal(after:limit:)``.
    func observeCommits(_ observer: @escaping @Sendable (Int64) -> Void)

    /// Calls `observer` when another server node sharing the store ended sessions, changed a password, removed a
    /// user or changed roles, so that the caller drops sessions it cached. On the store's thread: keep it short.
    /// An engine with one node never calls it.
    func observeSessionChanges(_ observer: @escaping @Sendable () -> Void)

    /// Finishes queued writes, then closes the store: later calls throw ``StoreError/Code/closed``.
    func close() async
}
