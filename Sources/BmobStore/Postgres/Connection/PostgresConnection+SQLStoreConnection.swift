extension PostgresConnection: SQLStoreConnection {
    static var dialect: PostgresDialect { PostgresDialect() }

    /// `__index`'s identity column.
    static var insertionOrder: String { "position" }

    /// Begins the writer's transaction in one round trip: the app's schema first on the search path for this
    /// transaction (so that a transaction-mode pooler may hand out any server connection), the app's advisory lock
    /// (writers on every node take turns, so `seq`s are drawn in commit order; the lock is released only once the
    /// commit is visible), and the journal's entries since the last one this connection saw: their head, and
    /// whether another node changed a schema meanwhile. The head, read under the lock, lets the transaction's
    /// appends number themselves (``knownJournalHead``).
    ///
    /// - Returns: Whether a journal entry since this connection's last transaction changed a schema (`schema`,
    ///   `dropClass`), so that the writer reloads its catalog; other nodes' object writes need no reload.
    func beginWrite() throws(StoreError) -> Bool {
        guard let schema else { preconditionFailure("beginWrite before use(schema:)") }
        // Only the entries since the last seen one are read (by the primary key): their head, and whether any
        // changed a schema.
        let seen = lastSeenSeq
        let (head, schemaChanged) = try executeReturning(
            """
            BEGIN; SET LOCAL search_path TO \(schema); SELECT pg_advisory_xact_lock(\(lockKey));
            SELECT COALESCE(max(seq), \(seen)), COALESCE(bool_or(op IN ('schema', 'dropClass')), false)
            FROM "__journal" WHERE seq > \(seen)
            """
        ) { ($0.int64(0), $0.bool(1)) } ?? (seen, false)
        lastSeenSeq = head
        knownJournalHead = head
        return schemaChanged
    }

    /// `COMMIT`, after `pg_notify` on the app's channel with the new journal head when the transaction appended to
    /// the journal: the notification is delivered with the commit, and wakes the other nodes' listeners.
    /// Joined to the transaction's deferred writes when there are any (one round trip for their answers and the
    /// commit).
    func commitWrite(journalHead: Int64) throws(StoreError) {
        let notify = (journalHead > 0 ? notifyChannel : nil).map { "SELECT pg_notify('\($0)', '\(journalHead)')" }
        if try !commitDeferred(notify: notify) {
            try execute([notify, "COMMIT"].compactMap { $0 }.joined(separator: "; "))
        }
        lastSeenSeq = max(lastSeenSeq, journalHead)
    }

    /// `ROLLBACK`; a deferred write's failure is dropped with the transaction.
    func rollback() throws(StoreError) {
        try execute("ROLLBACK")
    }

    /// `pg_notify` on the app's channel with the payload `sessions`, delivered with the commit (and dropped with a
    /// rollback); every node's ``PostgresJournalListener`` passes it on.
    func announceSessionChange() throws(StoreError) {
        guard let notifyChannel else { return }
        try run("SELECT pg_notify(?, ?)", [.text(notifyChannel), .text(PostgresJournalListener.sessionsPayload)])
    }

    /// Nothing to reset: a statement's work is bounded by `statement_timeout` on readers.
    func resetWorkBudget() {}

    /// `objectId text COLLATE "C"` (objectIds order by code point, as on SQLite), `jsonb` documents.
    func createClassTable(_ table: SQLTableName) throws(StoreError) {
        try execute(
            """
            CREATE TABLE IF NOT EXISTS \(table.quoted) (
                objectId text COLLATE "C" PRIMARY KEY,
                createdAt bigint NOT NULL,
                updatedAt bigint NOT NULL,
                acl jsonb,
                data jsonb NOT NULL
            )
            """)
    }

    func dropClassTable(_ table: SQLTableName) throws(StoreError) {
        try execute("DROP TABLE \(table.quoted)")
        classSQL = ClassSQL()
    }

    func classTableExists(_ table: SQLTableName) throws(StoreError) -> Bool {
        try readFirstRow("SELECT to_regclass(?) IS NOT NULL", [.text(table.quoted)]) { $0.bool(0) } ?? false
    }

    func classTableNames() throws(StoreError) -> [String] {
        try readRows("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename") {
            $0.text(0) ?? ""
        }
        .filter(SQLTableName.isClassTable)
    }

    /// SQLSTATE 42P01, undefined table.
    func mayBeMissingTable(_ error: StoreError) -> Bool {
        error.postgresState == .undefinedTable
    }

    /// Already mapped when the statement failed (``PostgresErrorMapping``).
    func constraintError(_ error: StoreError) -> StoreError {
        error
    }

    /// The next `seq` after ``knownJournalHead`` when the writer's transaction knows it, otherwise the largest one
    /// plus one, drawn under the app's advisory lock, which the writer's transaction holds.
    func appendJournal(_ values: [SQLValue]) throws(StoreError) -> Int64 {
        if let head = knownJournalHead {
            try run(Self.appendNumberedJournalSQL, [.integer(head + 1)] + values)
            return appended(head + 1)
        }
        guard let seq = try readFirstRow(Self.appendJournalSQL, values, { $0.int64(0) }) else {
            throw StoreError(.internal, "the journal returned no seq")
        }
        return appended(seq)
    }

    /// Both in one statement, a data-modifying `WITH` (run once whether or not it is read): one round trip per
    /// create instead of two. With the journal's head known and ``defersWrites``, not even that: the statement
    /// goes without waiting (``sendDeferred(_:_:)``), and its answer comes with the next one's.
    func insertJournaled(_ insert: String, _ values: [SQLValue], journal: [SQLValue]) throws(StoreError) -> Int64 {
        if let head = knownJournalHead {
            let sql = "WITH bmob_inserted AS (\(insert)) " + Self.appendNumberedJournalSQL
            let arguments = values + [.integer(head + 1)] + journal
            if defersWrites {
                try sendDeferred(sql, arguments)
            } else {
                try run(sql, arguments)
            }
            return appended(head + 1)
        }
        guard let seq = try readFirstRow("WITH bmob_inserted AS (\(insert)) " + Self.appendJournalSQL, values + journal, { $0.int64(0) })
        else { throw StoreError(.internal, "the journal returned no seq") }
        return appended(seq)
    }

    /// Records `seq` as the journal's head in this transaction, and returns it. It becomes the last seen `seq`
    /// only with the commit (a rollback takes it back).
    private func appended(_ seq: Int64) -> Int64 {
        knownJournalHead = seq
        return seq
    }

    private static let appendNumberedJournalSQL = """
        INSERT INTO \(SQLTableName.journal.quoted) (seq, \(JournalRows.appendColumns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    private static let appendJournalSQL = """
        INSERT INTO \(SQLTableName.journal.quoted) (seq, \(JournalRows.appendColumns))
        VALUES ((SELECT COALESCE(max(seq), 0) + 1 FROM \(SQLTableName.journal.quoted)), ?, ?, ?, ?, ?, ?, ?, ?)
        RETURNING seq
        """
}
