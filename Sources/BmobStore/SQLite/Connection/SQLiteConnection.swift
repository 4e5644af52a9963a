import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection handle, confined to the thread that opened it.
///
/// The store opens the writer connection on the writer thread and each reader connection on its pool
/// thread, and every use checks that it runs there (a wrong-thread use is a programmer error and traps).
/// Connections use SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`): confinement replaces SQLite's mutex.
/// Statements are prepared once and cached by SQL text; values are always bound, never interpolated.
/// Every connection carries the query functions of ``SQLiteFunctions`` (`bmob_distance`, `bmob_regexp`) and a
/// ``SQLiteWorkBudget``: `$regex` evaluations are held to their step limit everywhere, and a read-only
/// connection also stops any read that does more work than ``StoreWorkLimits/queryWork``.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private let owner: pthread_t
    /// The work of the current read or write job; reset with ``SQLiteWorkBudget/reset()`` before each.
    let workBudget: SQLiteWorkBudget
    /// Above 256 cached statements the cache is emptied; it only fills with per-class statements.
    private var statements = SQLiteStatementCache<SQLiteStatement>(limit: 256)
    /// The class-table SQL texts built last (``ObjectRows``).
    var classSQL = ClassSQL()
    /// The page cache size last added to ``SQLiteMemory/pageCacheBytes``.
    private var reportedCacheBytes = 0

    /// Opens the database at `path`; a read-write connection creates the file if it is missing. A read-only
    /// connection limits each read to `workLimits.queryWork` steps.
    init(
        path: String, readOnly: Bool, busyTimeoutMilliseconds: Int32,
        workLimits: StoreWorkLimits = StoreWorkLimits()
    ) throws(StoreError) {
        _ = Self.processSetup
        owner = pthread_self()
        workBudget = SQLiteWorkBudget(limits: workLimits, limitsQueries: readOnly)
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            var error = Self.error(code: code, handle: opened, sql: nil)
            error.message = "cannot open the database"
            sqlite3_close_v2(opened)
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        let registered = SQLiteFunctions.register(opened, budget: workBudget)
        guard registered == SQLITE_OK else {
            var error = Self.error(code: registered, handle: opened, sql: nil)
            error.message = "cannot register the store's SQL functions"
            sqlite3_close_v2(opened)
            throw error
        }
        if readOnly {
            // Unretained: the connection owns the budget and closes the handle before releasing it.
            sqlite3_progress_handler(
                opened, SQLiteWorkBudget.progressInterval,
                { pointer in
                    guard let pointer else { return 0 }
                    let budget = Unmanaged<SQLiteWorkBudget>.fromOpaque(pointer).takeUnretainedValue()
                    return budget.chargeInstructions() ? 0 : 1
                },
                Unmanaged.passUnretained(workBudget).toOpaque())
        }
        handle = opened
    }

    deinit {
        close()
    }

    /// Process-wide SQLite settings, applied once before the first connection opens (`sqlite3_config` only
    /// works before SQLite initializes). Memory statistics are off: nothing here reads them, and keeping them
    /// takes a global mutex on every allocation SQLite makes (dozens per write).
    private static let processSetup: Void = {
        _ = CSQLite_config_memstatus(0)
    }()

    /// Finalizes cached statements and closes the handle. Safe to call more than once; the connection may
    /// be closed from another thread once its own thread is done with it (the store joins that thread first).
    func close() {
        statements.removeAll()
        SQLiteMemory.adjustPageCaches(by: -reportedCacheBytes)
        reportedCacheBytes = 0
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    /// Tells ``SQLiteMemory`` how much the page cache holds now; called on the connection's thread after each
    /// transaction (a few dozen instructions).
    func reportCacheUse() {
        guard let handle else { return }
        var current: Int32 = 0
        var highest: Int32 = 0
        guard sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0) == SQLITE_OK else { return }
        let delta = Int(current) - reportedCacheBytes
        if delta != 0 {
            SQLiteMemory.adjustPageCaches(by: delta)
            reportedCacheBytes = Int(current)
        }
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode). An I/O or full-disk error can end a
    /// transaction by itself; the writer checks this after a failed job.
    var isInTransaction: Bool {
        sqlite3_get_autocommit(checkedHandle()) == 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int {
        Int(sqlite3_changes(checkedHandle()))
    }

    /// A handle that another thread may use to interrupt this connection.
    var interruptHandle: SQLiteInterruptHandle {
        SQLiteInterruptHandle(checkedHandle())
    }

    /// Grows whenever a statement may have changed the database: rows inserted, updated or deleted
    /// (`sqlite3_total_changes64`), or any ``execute(_:)`` (DDL). Equal before and after some work means
    /// the work left the database as it was, so it has nothing to roll back.
    var changeMark: Int64 {
        sqlite3_total_changes64(checkedHandle()) &+ executedCount
    }

    private var executedCount: Int64 = 0

    /// Runs SQL text that takes no parameters (DDL, pragmas, transaction control), uncached.
    func execute(_ sql: String) throws(StoreError) {
        executedCount &+= 1
        let handle = checkedHandle()
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw Self.error(code: code, handle: handle, sql: sql) }
    }

    /// The rowid of the last row inserted on this connection (for `__journal`, its `seq`).
    var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(checkedHandle())
    }

    /// Runs one statement to completion; returns how many rows it inserted, updated or deleted.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> Int {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
        return changes
    }

    /// Runs a query and maps each row.
    func rows<T>(
        _ sql: String,
        _ arguments: [SQLValue] = [],
        _ map: (SQLiteStatement) throws -> T
    ) throws -> [T] {
        try withStatement(sql, arguments) { statement in
            var result: [T] = []
            while try statement.step() {
                result.append(try map(statement))
            }
            return result
        }
    }

    /// Runs a query and maps its first row, if any.
    func firstRow<T>(
        _ sql: String,
        _ arguments: [SQLValue] = [],
        _ map: (SQLiteStatement) throws -> T
    ) throws -> T? {
        try withStatement(sql, arguments) { statement in
            try statement.step() ? try map(statement) : nil
        }
    }

    /// Drops cached statements, for instance after a table was dropped.
    func discardStatements() {
        statements.removeAll()
    }

    /// Lends the cached statement for `sql` with `arguments` bound, and resets it afterwards.
    func withStatement<T, E: Error>(
        _ sql: String,
        _ arguments: [SQLValue],
        _ body: (SQLiteStatement) throws(E) -> T
    ) throws -> T {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try body(statement)
    }

    private func cachedStatement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        if let statement = statements.statement(for: sql) { return statement }
        let handle = checkedHandle()
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw Self.error(code: code, handle: handle, sql: sql) }
        let statement = SQLiteStatement(prepared, sql: sql, budget: workBudget)
        statements.insert(statement, for: sql)
        return statement
    }

    private func checkedHandle() -> OpaquePointer {
        precondition(pthread_equal(owner, pthread_self()) != 0, "SQLiteConnection used off the thread that opened it")
        guard let handle else { preconditionFailure("SQLiteConnection used after close") }
        return handle
    }

    /// Builds the store error for a failed SQLite call: a safe message from the code, and SQLite's own
    /// message with the SQL text as debug-only detail. A statement over one of SQLite's size limits (too deep,
    /// too many values, columns or terms, too big) is the query's fault, not the server's: it becomes
    /// ``StoreError/Code/invalidQuery`` (Bmob 102) rather than an internal error.
    static func error(code: Int32, handle: OpaquePointer?, sql: String?, fileID: String = #fileID, line: Int = #line)
        -> StoreError
    {
        let resultCode = SQLiteResultCode(rawValue: code)
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? ""
        if let limit = SQLiteLimitFailure(code: resultCode, message: message) {
            var error = StoreError.invalidQuery(limit.clientMessage)
            error.sqliteCode = resultCode
            error.detail = sql.map { "\(message) in: \($0)" } ?? message
            return error
        }
        let storeCode: StoreError.Code =
            switch resultCode.primary {
            case .busy, .locked: .busy
            case .corrupt, .notADatabase: .corrupt
            case .ioError, .cantOpen: .io
            case .full: .full
            case .readOnly: .readOnly
            default: .internal
            }
        var error = StoreError(storeCode, "database error", fileID: fileID, line: line)
        error.sqliteCode = resultCode
        var detail = message
        if let sql { detail += " in: \(sql)" }
        error.detail = detail
        return error
    }
}

@available(*, unavailable, message: "a connection is confined to the thread that opened it")
extension SQLiteConnection: Sendable {}
