import BmobWire

/// The SQL for the `__journal` table. Its `seq` is the rowid: nothing ever deletes a journal row, so each new
/// row takes the highest number plus one and a committed number is never reused; rows of a rolled-back savepoint
/// give their numbers back, so committed rows stay contiguous.
enum JournalRows {
    /// The table as migration 0001 made it, with `AUTOINCREMENT`; ``dropAutoincrement`` (0008) rebuilds it in
    /// its current form.
    static let createTable = """
        CREATE TABLE "__journal" (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            className TEXT NOT NULL,
            objectId TEXT,
            op TEXT NOT NULL,
            "before" TEXT,
            "after" TEXT,
            caller TEXT,
            time INTEGER NOT NULL
        );
        CREATE INDEX "__journal_object" ON "__journal" (className, objectId, seq);
        """

    /// Rebuilds a journal made by ``createTable`` without `AUTOINCREMENT`. The keyword only adds a promise for
    /// deleted rows, which the journal never has, and costs every insert a read and a write of
    /// `sqlite_sequence`. Numbers and rows are kept as they are.
    static let dropAutoincrement = """
        CREATE TABLE "__journal_next" (
            seq INTEGER PRIMARY KEY,
            className TEXT NOT NULL,
            objectId TEXT,
            op TEXT NOT NULL,
            "before" TEXT,
            "after" TEXT,
            caller TEXT,
            time INTEGER NOT NULL
        );
        INSERT INTO "__journal_next" (seq, className, objectId, op, "before", "after", caller, time)
            SELECT seq, className, objectId, op, "before", "after", caller, time FROM "__journal" ORDER BY seq;
        DROP TABLE "__journal";
        ALTER TABLE "__journal_next" RENAME TO "__journal";
        CREATE INDEX "__journal_object" ON "__journal" (className, objectId, seq);
        DELETE FROM sqlite_sequence WHERE name = '__journal';
        """

    /// Migration 0009: the door a change came through, beside its caller.
    static let addDoor = #"ALTER TABLE "__journal" ADD COLUMN door TEXT;"#

    private static let table = SQLTableName.journal.quoted

    /// Built once: the writer runs it for every change.
    /// The columns an appended row sets, in the order of the values ``SQLStoreConnection/appendJournal(_:)``
    /// is given; each engine draws `seq` its own way.
    static let appendColumns = #"className, objectId, op, "before", "after", caller, door, time"#

    /// Appends one row in the connection's current transaction; returns its `seq`.
    static func append(
        _ connection: some SQLStoreConnection,
        className: String,
        objectId: String?,
        op: JournalOperation,
        before: JSONValue?,
        after: JSONValue?,
        author: JournalAuthor?,
        time: Int64
    ) throws -> Int64 {
        try append(
            connection, className: className, objectId: objectId, op: op, beforeJSON: before?.jsonBytes,
            afterJSON: after?.jsonBytes, author: author, time: time)
    }

    /// Appends one row whose documents are already JSON text (UTF-8 bytes); returns its `seq`.
    static func append(
        _ connection: some SQLStoreConnection,
        className: String,
        objectId: String?,
        op: JournalOperation,
        beforeJSON: [UInt8]?,
        afterJSON: [UInt8]?,
        author: JournalAuthor?,
        time: Int64
    ) throws -> Int64 {
        try connection.appendJournal(
            values(
                className: className, objectId: objectId, op: op, beforeJSON: beforeJSON, afterJSON: afterJSON,
                author: author, time: time))
    }

    /// The values of one journal row, in ``SQLStoreConnection/appendJournal(_:)``'s order.
    static func values(
        className: String, objectId: String?, op: JournalOperation, beforeJSON: [UInt8]?, afterJSON: [UInt8]?,
        author: JournalAuthor?, time: Int64
    ) -> [SQLValue] {
        [
            .text(className), SQLValue(objectId), .text(op.rawValue), SQLValue(utf8: beforeJSON),
            SQLValue(utf8: afterJSON), SQLValue(author?.caller), SQLValue(author?.door), .integer(time),
        ]
    }

    static func lastSeq(_ connection: some SQLStoreConnection) throws -> Int64 {
        try connection.firstRow("SELECT COALESCE(MAX(seq), 0) FROM \(table)") { $0.int64(0) } ?? 0
    }

    /// The columns ``entry(_:)`` reads, in its order.
    static let entryColumns = #"seq, className, objectId, op, "before", "after", caller, time, door"#

    static func entries(_ connection: some SQLStoreConnection, after seq: Int64, limit: Int) throws -> [JournalEntry] {
        try connection.rows(
            "SELECT \(entryColumns) FROM \(table) WHERE seq > ? ORDER BY seq LIMIT ?",
            [.integer(seq), .integer(Int64(max(0, limit)))], entry)
    }

    /// One row selected with ``entryColumns``.
    static func entry(_ row: some SQLRow) throws -> JournalEntry {
        JournalEntry(
            seq: row.int64(0),
            className: row.text(1) ?? "",
            objectId: row.text(2),
            op: JournalOperation(rawValue: row.text(3) ?? ""),
            before: try ObjectRows.parseJSON(row, column: 4),
            after: try ObjectRows.parseJSON(row, column: 5),
            caller: row.text(6), door: row.text(8),
            time: row.int64(7))
    }
}
