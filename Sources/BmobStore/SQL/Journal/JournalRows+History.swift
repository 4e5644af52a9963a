import BmobWire

/// The SQL behind history, deleted objects, restore and retention, and the pruning of old entries.
///
/// One object's changes come from the `(className, objectId, seq)` index. A class's changes (and its deleted
/// objects) are read newest first along the journal's own order, its `seq` key, keeping the class's rows until
/// the page is full: no index of its own, which would cost every write an insert (about a tenth of a create's
/// time, measured), and the `(className, …)` index is kept out of the plan on purpose (`className || ''`): with
/// it the engine would gather and sort every change of the class to answer twenty. A class whose changes are
/// rare in a long journal costs a longer walk, bounded by the query work limit (102).
extension JournalRows {
    private static let objectOps = "('create', 'update', 'delete')"

    /// The entries `query` selects, newest first.
    static func history(_ connection: some SQLStoreConnection, _ query: JournalQuery) throws -> [JournalEntry] {
        var sql = "SELECT \(entryColumns) FROM \(SQLTableName.journal.quoted) WHERE "
        var values: [SQLValue] = [.text(query.className)]
        if let objectId = query.objectId {
            sql += "className = ? AND objectId = ?"
            values.append(.text(objectId))
        } else {
            sql += "className || '' = ? AND objectId IS NOT NULL"
        }
        if let operation = query.operation {
            sql += " AND op = ?"
            values.append(.text(operation.rawValue))
        } else {
            sql += " AND op IN \(objectOps)"
        }
        if let since = query.since {
            sql += " AND time >= ?"
            values.append(.integer(since))
        }
        if let until = query.until {
            sql += " AND time <= ?"
            values.append(.integer(until))
        }
        if let caller = query.caller {
            sql += " AND caller = ?"
            values.append(.text(caller))
        }
        sql += " ORDER BY seq DESC LIMIT \(max(0, query.limit))"
        if query.skip > 0 { sql += " OFFSET \(query.skip)" }
        return try connection.rows(sql, values, entry)
    }

    /// The delete entries of `className` whose object was not brought back since (no later create or update
    /// of the same id), newest first.
    static func deleted(_ connection: some SQLStoreConnection, className: String, skip: Int, limit: Int) throws -> [JournalEntry] {
        let table = SQLTableName.journal.quoted
        var sql = """
            SELECT \(entryColumns) FROM \(table) AS j
            WHERE j.className || '' = ? AND j.op = 'delete' AND j.objectId IS NOT NULL
            AND NOT EXISTS (
                SELECT 1 FROM \(table) AS later
                WHERE later.className = j.className AND later.objectId = j.objectId AND later.seq > j.seq
                AND later.op IN \(objectOps))
            ORDER BY j.seq DESC LIMIT \(max(0, limit))
            """
        if skip > 0 { sql += " OFFSET \(skip)" }
        return try connection.rows(sql, [.text(className)], entry)
    }

    /// The entry numbered `seq`, if the journal still holds it.
    static func entry(_ connection: some SQLStoreConnection, seq: Int64) throws -> JournalEntry? {
        try connection.rows(
            "SELECT \(entryColumns) FROM \(SQLTableName.journal.quoted) WHERE seq = ?", [.integer(seq)], entry
        ).first
    }

    /// The relation members the delete entry `seq` of the object took away with it: the `removeRelation` entries
    /// of the object between its previous change and the delete (its transaction wrote them just before it).
    static func relationsRemoved(
        _ connection: some SQLStoreConnection, className: String, objectId: String, deleteSeq: Int64
    ) throws -> [JournalRelationChange] {
        let table = SQLTableName.journal.quoted
        return try connection.rows(
            """
            SELECT "before" FROM \(table)
            WHERE className = ? AND objectId = ? AND op = 'removeRelation' AND seq < ?
            AND seq > COALESCE((
                SELECT max(seq) FROM \(table)
                WHERE className = ? AND objectId = ? AND seq < ? AND op IN \(objectOps)), 0)
            ORDER BY seq
            """,
            [.text(className), .text(objectId), .integer(deleteSeq), .text(className), .text(objectId), .integer(deleteSeq)]
        ) { row in try ObjectRows.parseJSON(row, column: 0).flatMap(JournalRelationChange.init(json:)) }
        .compactMap { $0 }
    }

    /// Deletes at most `limit` entries that `retention` no longer keeps, never the journal's newest entry nor
    /// one younger than `graceCutoff` (milliseconds since 1970); returns how many went.
    static func prune(
        _ connection: some SQLStoreConnection, _ retention: JournalRetention, now: Int64, graceCutoff: Int64, limit: Int
    ) throws -> Int {
        let table = SQLTableName.journal.quoted
        let head = try lastSeq(connection)
        var removed = 0
        if let days = retention.keepDays {
            let cutoff = min(graceCutoff, now - Int64(max(0, days)) * 86_400_000)
            removed += try connection.run(
                """
                DELETE FROM \(table) WHERE seq IN (
                    SELECT seq FROM \(table) WHERE time < ? AND seq < ? ORDER BY seq LIMIT \(max(0, limit)))
                """,
                [.integer(cutoff), .integer(head)])
        }
        if let keep = retention.keepChanges, removed < limit {
            // Per object, everything up to its newest change beyond the `keep` newest goes, relation entries with
            // it; the relation entries written after that change (with a kept delete) stay.
            removed += try connection.run(
                """
                DELETE FROM \(table) WHERE seq IN (
                    SELECT j.seq FROM \(table) AS j JOIN (
                        SELECT className, objectId, max(seq) AS upto FROM (
                            SELECT seq, className, objectId,
                                row_number() OVER (PARTITION BY className, objectId ORDER BY seq DESC) AS position
                            FROM \(table) WHERE objectId IS NOT NULL AND op IN \(objectOps)
                        ) AS ranked
                        WHERE position > ? GROUP BY className, objectId
                    ) AS cut ON j.className = cut.className AND j.objectId = cut.objectId
                    WHERE j.seq <= cut.upto AND j.seq < ? AND j.time < ?
                    ORDER BY j.seq LIMIT \(max(0, limit - removed)))
                """,
                [.integer(Int64(max(1, keep))), .integer(head), .integer(graceCutoff)])
        }
        return removed
    }
}
