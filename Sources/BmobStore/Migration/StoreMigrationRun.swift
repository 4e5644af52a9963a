import BmobWire

/// One run of a ``StoreMigration``: the read-only SQLite connection, the PostgreSQL connection on the app's schema,
/// the report and the progress so far. Confined to the thread that made it, like its connections.
final class StoreMigrationRun {
    let migration: StoreMigration
    let sqlite: SQLiteConnection
    let postgres: PostgresConnection
    var report: StoreMigrationReport
    /// Rows handled so far, and rows in the SQLite database.
    var copiedRows = 0
    var totalRows = 0

    /// Opens both sides: SQLite read-only inside one read transaction (every page sees one snapshot), and
    /// PostgreSQL with the app's schema created and migrated.
    init(_ migration: StoreMigration) throws {
        self.migration = migration
        self.report = StoreMigrationReport(applicationId: migration.applicationId)
        sqlite = try SQLiteConnection(
            path: migration.sqlitePath, readOnly: true, busyTimeoutMilliseconds: 5_000,
            workLimits: StoreWorkLimits(queryWork: Int.max / 4))
        do {
            try Self.checkMigrated(sqlite)
            try sqlite.execute("BEGIN")
            postgres = try PostgresConnection(url: migration.postgresURL, applicationName: "bmob-migrate")
        } catch {
            sqlite.close()
            throw error
        }
        do {
            let schema = PostgresSchemaName(applicationId: migration.applicationId)
            try PostgresMigrator.migrate(postgres, schema, PostgresMigration.builtin, now: migration.clock())
            try postgres.use(schema: schema)
        } catch {
            postgres.close()
            sqlite.close()
            throw error
        }
    }

    /// Closes both connections.
    func close() {
        if sqlite.isInTransaction { try? sqlite.execute("COMMIT") }
        sqlite.close()
        postgres.close()
    }

    /// Copies every table, then counts both sides.
    func copy(progress: (StoreMigrationProgress) -> Void) throws -> StoreMigrationReport {
        let classTables = try sqlite.classTableNames().map(StoreMigrationTable.classTable)
        let before: [StoreMigrationTable] = [.schema, .classPermission] + classTables + [.relation]
        let after: [StoreMigrationTable] = [.credential, .session, .smsCode, .emailToken]
        let names = before.map(\.name) + ["__index"] + after.map(\.name) + ["__rate_event", "__journal"]
        var sqliteCounts: [String: Int] = [:]
        for name in names {
            sqliteCounts[name] = try count(sqlite, name)
        }
        totalRows = sqliteCounts.values.reduce(0, +)
        try checkJournalNotAhead()

        for table in classTables {
            try postgres.createClassTable(try SQLTableName(className: table.name))
        }
        for table in before {
            try copy(table, progress: progress)
        }
        try copyIndexes(progress: progress)
        for table in after {
            try copy(table, progress: progress)
        }
        try moveSmsSequence()
        try copyRateEvents(progress: progress)
        try copy(.journal, progress: progress)

        for name in names {
            report.counts.append(
                StoreMigrationTableCount(table: name, sqliteRows: sqliteCounts[name] ?? 0, postgresRows: try count(postgres, name)))
        }
        return report
    }

    /// Copies a keyed table in pages ordered by its key, each page one `INSERT … ON CONFLICT (key) DO NOTHING`;
    /// when PostgreSQL refuses a page, its rows are inserted one by one and the refused ones reported.
    func copy(_ table: StoreMigrationTable, progress: (StoreMigrationProgress) -> Void) throws {
        let columns = table.columns.joined(separator: ", ")
        let order = table.key.joined(separator: ", ")
        let keyTuple = table.key.count == 1 ? table.key[0] : "(\(order))"
        let placeholders = table.key.count == 1 ? "?" : "(\(table.key.map { _ in "?" }.joined(separator: ", ")))"
        let first = "SELECT \(columns) FROM \(table.quoted) ORDER BY \(order) LIMIT ?"
        let next = "SELECT \(columns) FROM \(table.quoted) WHERE \(keyTuple) > \(placeholders) ORDER BY \(order) LIMIT ?"
        let width = Int32(table.columns.count)
        let keyPositions = table.keyPositions
        var last: [SQLValue]?
        progress(current(table.name))
        while true {
            let limit = SQLValue.integer(Int64(migration.pageSize))
            let rows = try sqlite.rows(last == nil ? first : next, (last ?? []) + [limit]) { row in
                (0..<width).map { row.value($0) }
            }
            guard let lastRow = rows.last else { break }
            try insert(rows, into: table)
            last = keyPositions.map { lastRow[$0] }
            try handled(rows.count, table: table.name, progress: progress)
            if rows.count < migration.pageSize { break }
        }
    }

    /// Inserts rows into `table` on PostgreSQL, skipping those whose key is there; a refused page is retried row by
    /// row so that only the refused rows are lost, and reported.
    func insert(_ rows: [[SQLValue]], into table: StoreMigrationTable) throws {
        let tuple = "(\(table.columns.map { _ in "?" }.joined(separator: ", ")))"
        let head = "INSERT INTO \(table.quoted) (\(table.columns.joined(separator: ", "))) VALUES "
        let tail = " ON CONFLICT (\(table.key.joined(separator: ", "))) DO NOTHING"
        let page = head + Array(repeating: tuple, count: rows.count).joined(separator: ", ") + tail
        guard try attempt(page, rows.flatMap { $0 }) != nil else { return }
        // Some row was refused: find which.
        for row in rows {
            if let error = try attempt(head + tuple + tail, row) {
                report.fail(
                    StoreMigrationFailure(
                        table: table.name, key: Self.describe(table.keyPositions.map { row[$0] }), message: error.description))
            }
        }
    }

    /// Runs one statement on PostgreSQL and returns its error when it only concerns the rows it names (a refused
    /// value); throws the errors that end the run.
    func attempt(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> StoreError? {
        do {
            try postgres.run(sql, arguments)
            return nil
        } catch {
            if Self.isFatal(error) { throw error }
            return error
        }
    }

    /// Refuses a schema whose journal goes past the SQLite database's: a server wrote to it, and copying rows under
    /// its `seq`s and objectIds would mix two histories.
    func checkJournalNotAhead() throws {
        let sqliteHead = try JournalRows.lastSeq(sqlite)
        let postgresHead = try JournalRows.lastSeq(postgres)
        guard postgresHead <= sqliteHead else {
            throw StoreError(
                .incompatible,
                "the PostgreSQL schema's journal is ahead of the SQLite database's (seq \(postgresHead) > \(sqliteHead)): "
                    + "a server wrote to it; migrate into a fresh schema")
        }
    }

    /// Moves PostgreSQL's `smsId` sequence past the copied ids, so that new codes do not collide with them.
    func moveSmsSequence() throws {
        try postgres.firstRow(
            """
            SELECT setval(pg_get_serial_sequence('"__sms_code"', 'smsid'), max(smsId)) FROM "__sms_code"
            HAVING max(smsId) IS NOT NULL
            """
        ) { _ in () }
    }

    /// Counts after `rows` more rows were handled, and stops when the test hook says so.
    func handled(_ rows: Int, table: String, progress: (StoreMigrationProgress) -> Void) throws {
        copiedRows += rows
        progress(current(table))
        if let stop = migration.stopAfterRows, copiedRows >= stop {
            throw StoreError(.closed, "the migration stopped after \(copiedRows) rows, as asked")
        }
    }

    /// The progress now, on `table`.
    func current(_ table: String) -> StoreMigrationProgress {
        StoreMigrationProgress(
            applicationId: migration.applicationId, table: table, copiedRows: copiedRows, totalRows: totalRows)
    }

    /// The rows of a table.
    func count(_ connection: some SQLStoreConnection, _ table: String) throws -> Int {
        Int(try connection.firstRow("SELECT count(*) FROM \"\(table)\"") { $0.int64(0) } ?? 0)
    }

    /// Whether an error ends the run rather than one row: the connection or the database is gone.
    static func isFatal(_ error: StoreError) -> Bool {
        [.unavailable, .closed, .full, .corrupt].contains(error.code)
    }

    /// A key as text for the report: its values joined by `, `, each cut to 80 characters, NULs shown as `\0`.
    static func describe(_ key: [SQLValue]) -> String {
        key.map { value -> String in
            let text: String =
                switch value {
                case .null: "NULL"
                case .integer(let number): String(number)
                case .real(let number): String(number)
                case .text(let text): text
                case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
                }
            let shown = text.unicodeScalars.map { $0 == "\u{0}" ? "\\0" : String($0) }.joined()
            return shown.count > 80 ? String(shown.prefix(80)) + "…" : shown
        }
        .joined(separator: ", ")
    }

    /// Refuses a database that this version's ``SQLiteMigration`` list has not fully migrated: the copy reads the
    /// latest layout, and a read-only connection cannot migrate it.
    static func checkMigrated(_ connection: SQLiteConnection) throws {
        let applied = Set(try MigrationRows.appliedNames(connection))
        let known = Set(SQLiteMigration.builtin.map(\.name))
        guard applied.isSubset(of: known) else {
            throw StoreError(.incompatible, "the SQLite database was written by a newer version of bmob")
        }
        guard applied == known else {
            throw StoreError(
                .incompatible,
                "the SQLite database was made by an older version of bmob: start this version's server on it once, "
                    + "stop it, then migrate")
        }
    }
}
