/// A connection of one engine as the store's engine-neutral code uses it: the row helpers (objects, schema,
/// indexes, relations, accounts, verification, journal), the read and write transactions and the writer's group
/// commit run on either engine through it. Confined to the thread that opened it, like the connections
/// themselves.
///
/// Statements mark parameters with `?` on every engine. What differs between engines and is not plain SQL lives
/// here as requirements: the dialect, class tables' DDL, how a missing table shows, how the journal draws `seq`s,
/// and how a transaction begins.
protocol SQLStoreConnection: AnyObject, SendableMetatype {
    associatedtype Row: SQLRow
    associatedtype Dialect: SQLDialect

    /// The engine's spelling of queries.
    static var dialect: Dialect { get }

    /// The column that orders rows of `__index` by insertion.
    static var insertionOrder: String { get }

    /// Closes the connection.
    func close()

    /// Runs SQL text without parameters (DDL, transaction control).
    func execute(_ sql: String) throws(StoreError)

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> Int

    /// Runs a query and maps each row.
    func rows<T>(_ sql: String, _ arguments: [SQLValue], _ map: (Row) throws -> T) throws -> [T]

    /// Runs a query and maps its first row, if any.
    func firstRow<T>(_ sql: String, _ arguments: [SQLValue], _ map: (Row) throws -> T) throws -> T?

    /// The texts of the class table row statements used last (``ObjectRows``).
    var classSQL: ClassSQL { get set }

    /// Whether the connection to the database was lost, so that its owner replaces it.
    var isBroken: Bool { get }

    /// Whether a transaction is open.
    var isInTransaction: Bool { get }

    /// Whether the open transaction can no longer commit (PostgreSQL aborts it at the first failed statement;
    /// SQLite never does), so that only a rollback helps.
    var isInFailedTransaction: Bool { get }

    /// Grows whenever a statement may have changed the database; equal before and after some work means the
    /// work has nothing to roll back.
    var changeMark: Int64 { get }

    /// Starts the writer's transaction.
    ///
    /// - Returns: Whether another writer (another server node) may have changed the schema since this
    ///   connection's last transaction, so that the writer reloads its catalog before running jobs.
    func beginWrite() throws(StoreError) -> Bool

    /// Rolls the writer's transaction back.
    func rollback() throws(StoreError)

    /// Whether the writer allows the engine to send a job's writes without waiting for their answers (for jobs
    /// without a savepoint): a failure then surfaces at a later statement or at the commit as
    /// ``StoreError/Code/deferredWriteFailed``, and the writer runs the group again, each job in a savepoint.
    var defersWrites: Bool { get set }

    /// Commits the writer's transaction; `journalHead` is the last `seq` it appended (0 for none), which an engine
    /// shared by several server nodes announces to the others.
    func commitWrite(journalHead: Int64) throws(StoreError)

    /// Lets the next job's work start with a fresh per-statement budget (SQLite's `$regex` steps).
    func resetWorkBudget()

    /// Creates a class table if it does not exist.
    func createClassTable(_ table: SQLTableName) throws(StoreError)

    /// Drops a class table.
    func dropClassTable(_ table: SQLTableName) throws(StoreError)

    /// Whether a class table exists in what this connection sees now.
    func classTableExists(_ table: SQLTableName) throws(StoreError) -> Bool

    /// The names of the class tables (internal tables fail ``SQLTableName/isClassTable(_:)``).
    func classTableNames() throws(StoreError) -> [String]

    /// Whether `error` may mean that a table the statement names does not exist.
    func mayBeMissingTable(_ error: StoreError) -> Bool

    /// The error a failed `CREATE UNIQUE INDEX` or write becomes: ``StoreError/Code/duplicate`` for a unique
    /// index violation, ``StoreError/Code/objectIdTaken`` for a primary key's; others pass through.
    func constraintError(_ error: StoreError) -> StoreError

    /// Tells the other server nodes, once the open transaction commits, that sessions or the users and roles
    /// behind them changed, so that they drop what they cached (nothing on an engine with one node).
    func announceSessionChange() throws(StoreError)

    /// Appends one journal row in the open transaction and returns its `seq`.
    func appendJournal(_ values: [SQLValue]) throws(StoreError) -> Int64

    /// Runs `insert` (one `INSERT` with `values`) and appends its journal row (``appendJournal(_:)``'s `journal`
    /// values); returns the row's `seq`. An engine may send both as one statement (PostgreSQL: one round trip).
    func insertJournaled(_ insert: String, _ values: [SQLValue], journal: [SQLValue]) throws(StoreError) -> Int64
}

extension SQLStoreConnection {
    /// The insert, then the journal row: two statements.
    func insertJournaled(_ insert: String, _ values: [SQLValue], journal: [SQLValue]) throws(StoreError) -> Int64 {
        try run(insert, values)
        return try appendJournal(journal)
    }

    /// Runs one statement without parameters and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String) throws(StoreError) -> Int {
        try run(sql, [])
    }

    /// Runs a query without parameters and maps each row.
    func rows<T>(_ sql: String, _ map: (Row) throws -> T) throws -> [T] {
        try rows(sql, [], map)
    }

    /// Runs a query without parameters and maps its first row, if any.
    func firstRow<T>(_ sql: String, _ map: (Row) throws -> T) throws -> T? {
        try firstRow(sql, [], map)
    }

    /// ``rows(_:_:_:)`` for a `map` that cannot fail: only the engine's ``StoreError`` comes out.
    func readRows<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (Row) -> T) throws(StoreError) -> [T] {
        do {
            return try rows(sql, arguments, map)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// ``firstRow(_:_:_:)`` for a `map` that cannot fail: only the engine's ``StoreError`` comes out.
    func readFirstRow<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (Row) -> T) throws(StoreError) -> T? {
        do {
            return try firstRow(sql, arguments, map)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The statement's own error; anything else (which a map that cannot fail never throws) as internal.
    private static func storeError(_ error: any Error) -> StoreError {
        error as? StoreError ?? StoreError(.internal, "reading a result failed", underlying: error)
    }
}
