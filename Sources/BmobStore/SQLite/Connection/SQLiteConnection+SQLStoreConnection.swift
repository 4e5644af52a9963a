extension SQLiteStatement: SQLRow {}

extension SQLiteConnection: SQLStoreConnection {
    static var dialect: SQLiteDialect { SQLiteDialect() }

    /// SQLite's implicit `rowid`.
    static var insertionOrder: String { "rowid" }

    /// A file does not go away.
    var isBroken: Bool { false }

    /// SQLite never aborts a transaction on a failed statement; it rolls it back entirely instead (I/O errors, a
    /// full disk), which ``isInTransaction`` shows.
    var isInFailedTransaction: Bool { false }

    /// `BEGIN IMMEDIATE`: takes the database's write lock now, so that the group never fails to upgrade later.
    /// One store writes a file, so its catalog is never stale.
    func beginWrite() throws(StoreError) -> Bool {
        try run("BEGIN IMMEDIATE")
        return false
    }

    func commitWrite(journalHead: Int64) throws(StoreError) {
        try run("COMMIT")
        reportCacheUse()
    }

    func rollback() throws(StoreError) {
        try run("ROLLBACK")
    }

    /// Every statement answers at once on an embedded engine: nothing to defer.
    var defersWrites: Bool {
        get { false }
        set {}
    }

    /// One server writes a file: no other node caches its sessions.
    func announceSessionChange() throws(StoreError) {}

    func resetWorkBudget() {
        workBudget.reset()
    }

    func createClassTable(_ table: SQLTableName) throws(StoreError) {
        try execute(
            """
            CREATE TABLE IF NOT EXISTS \(table.quoted) (
                objectId TEXT PRIMARY KEY NOT NULL,
                createdAt INTEGER NOT NULL,
                updatedAt INTEGER NOT NULL,
                acl TEXT,
                data TEXT NOT NULL
            )
            """)
    }

    /// Drops the table, and the cached statements that named it.
    func dropClassTable(_ table: SQLTableName) throws(StoreError) {
        try execute("DROP TABLE \(table.quoted)")
        discardStatements()
    }

    func classTableExists(_ table: SQLTableName) throws(StoreError) -> Bool {
        try readFirstRow("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table.name)]) { _ in
            true
        } ?? false
    }

    func classTableNames() throws(StoreError) -> [String] {
        try readRows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) ?? "" }
            .filter(SQLTableName.isClassTable)
    }

    /// `SQLITE_ERROR`, which "no such table" is.
    func mayBeMissingTable(_ error: StoreError) -> Bool {
        error.sqliteCode?.primary == .error
    }

    func constraintError(_ error: StoreError) -> StoreError {
        if error.sqliteCode == .constraintPrimaryKey {
            return StoreError(.objectIdTaken, "an object with this objectId already exists", underlying: error)
        }
        if error.sqliteCode == .constraintUnique {
            return StoreError(.duplicate, "unique index cannot has duplicate value", underlying: error)
        }
        return error
    }

    /// The row's `seq` is its rowid: the largest plus one, drawn under the database's write lock.
    func appendJournal(_ values: [SQLValue]) throws(StoreError) -> Int64 {
        try run(Self.appendJournalSQL, values)
        return lastInsertRowID
    }

    private static let appendJournalSQL =
        "INSERT INTO \(SQLTableName.journal.quoted) (\(JournalRows.appendColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
}
