/// A Bmob app's database: objects by class, the schema registry and the journal.
///
/// The interface knows no SQL and no engine types, so ``SQLiteStore`` and a PostgreSQL store can sit
/// behind it. Work happens in closures that receive a transaction valid only inside them: ``write(caller:_:)``
/// runs on the store's writer, ``read(_:)`` on a pooled reader with a consistent snapshot.
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
    /// Runs `body` in one write transaction and returns once it has committed.
    ///
    /// The data changes and the journal rows of `body` commit together or not at all. When `body` throws,
    /// none of its changes (data, journal rows, recorded fields) remain, and the error is rethrown. Once
    /// this returns, the write survives a process crash. Writes are not cancelled once queued.
    ///
    /// - Parameters:
    ///   - caller: Who makes the change, recorded in each journal row.
    ///   - body: The work; it runs on the writer, not on the calling task, once.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or a ``StoreError`` (``StoreError/Code/closed`` after ``close()``).
    func write<T: Sendable>(
        caller: String?,
        _ body: @escaping @Sendable (any StoreWriteTransaction) throws -> T
    ) async throws -> T

    /// Runs `body` in one write transaction and returns once it has committed, as ``write(caller:_:)``
    /// does; a `rerunnable` body may run more than once.
    ///
    /// Both forms are requirements: a protocol-extension `write(caller:_:)` forwarding to this one crashed at
    /// run time (Swift 6.3.1: a throwing body, reached through `any Store` from another module).
    ///
    /// - Parameters:
    ///   - caller: Who makes the change, recorded in each journal row.
    ///   - rerunnable: `body` has no effect outside the transaction it is given: its only effects are calls on
    ///     that transaction, and what it returns depends only on what it reads there. The store may then roll
    ///     back its work and run it again (for instance when a write sharing its transaction fails), and may
    ///     skip the per-write savepoint such bodies do not need. Only the last run's result is returned.
    ///   - body: The work; it runs on the writer, not on the calling task.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or a ``StoreError`` (``StoreError/Code/closed`` after ``close()``).
    func write<T: Sendable>(
        caller: String?,
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

    /// Journal entries with `seq` greater than `seq`, in order, at most `limit` of them.
    ///
    /// - Throws: A ``StoreError``.
    func journal(after seq: Int64, limit: Int) async throws -> [JournalEntry]

    /// The `seq` of the last committed journal row (0 for an empty journal). Read it before waiting for
    /// commits: every entry committed afterwards has a larger `seq`.
    var committedJournalSeq: Int64 { get }

    /// Calls `observer` with the new journal head after every commit that appended journal rows (across
    /// server nodes: after such a commit is noticed). It runs on the store's thread: keep it short, such as
    /// waking a task that then reads ``journal(after:limit:)``.
    func observeCommits(_ observer: @escaping @Sendable (Int64) -> Void)

    /// Finishes queued writes, then closes the store: later calls throw ``StoreError/Code/closed``.
    func close() async
}
