import CSQLite

/// A prepared statement, persistent like the store's cached ones.
final class Statement {
    let database: Database
    let handle: OpaquePointer

    init(_ database: Database, _ sql: String) {
        self.database = database
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            fail("\(String(cString: sqlite3_errmsg(database.handle))) in: \(sql)")
        }
        handle = prepared
    }

    deinit {
        sqlite3_finalize(handle)
    }

    func bind(_ index: Int32, _ text: String) {
        let code = text.utf8CString.withUnsafeBufferPointer { buffer in
            CSQLite_bind_text(handle, index, buffer.baseAddress, Int32(buffer.count - 1))
        }
        check(code)
    }

    func bind(_ index: Int32, _ integer: Int64) {
        check(sqlite3_bind_int64(handle, index, integer))
    }

    func bindNull(_ index: Int32) {
        check(sqlite3_bind_null(handle, index))
    }

    /// Steps once; `true` when a row is available.
    @discardableResult
    func step() -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        check(code == SQLITE_DONE ? SQLITE_OK : code)
        return false
    }

    /// Runs an INSERT; `false` when the primary key is taken (the bindings stay, for another try).
    func insert() -> Bool {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        if code == SQLITE_CONSTRAINT | (6 << 8) { return false }  // SQLITE_CONSTRAINT_PRIMARYKEY
        check(code == SQLITE_DONE ? SQLITE_OK : code)
        sqlite3_clear_bindings(handle)
        return true
    }

    /// Runs to completion and resets.
    func run() {
        while step() {}
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Makes the statement ready to run again, keeping its bindings.
    func reset() {
        sqlite3_reset(handle)
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }

    private func check(_ code: Int32) {
        guard code == SQLITE_OK else {
            fail("SQLite error \(code): \(String(cString: sqlite3_errmsg(database.handle)))")
        }
    }
}
