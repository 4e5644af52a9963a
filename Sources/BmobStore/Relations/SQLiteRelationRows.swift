import BmobWire

/// The SQL for `__relation`, where Relation fields keep their members: one row per owner object, relation
/// key and target. The owner's `data` holds only the marker `{"__type":"Relation","className":…}`.
///
/// The primary key serves `$relatedTo` (owner → targets); `__relation_target` serves "relation holds"
/// queries (target → owners).
enum SQLiteRelationRows {
    static let createTable = """
        CREATE TABLE "__relation" (
            className TEXT NOT NULL,
            objectId TEXT NOT NULL,
            key TEXT NOT NULL,
            targetClassName TEXT NOT NULL,
            targetObjectId TEXT NOT NULL,
            PRIMARY KEY (className, objectId, key, targetObjectId)
        ) WITHOUT ROWID;
        CREATE INDEX "__relation_target" ON "__relation" (className, key, targetObjectId);
        """

    private static let table = SQLiteTableName.relation.quoted

    /// Adds targets to the relation; targets already there are left alone.
    static func add(
        _ connection: SQLiteConnection,
        className: String,
        objectId: String,
        key: String,
        targets: [PointerValue]
    ) throws {
        for target in targets {
            try connection.run(
                """
                INSERT INTO \(table) (className, objectId, key, targetClassName, targetObjectId)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
                [.text(className), .text(objectId), .text(key), .text(target.className), .text(target.objectId)])
        }
    }

    /// Removes targets from the relation; targets not there are ignored.
    static func remove(
        _ connection: SQLiteConnection,
        className: String,
        objectId: String,
        key: String,
        targets: [PointerValue]
    ) throws {
        for target in targets {
            try connection.run(
                "DELETE FROM \(table) WHERE className = ? AND objectId = ? AND key = ? AND targetObjectId = ?",
                [.text(className), .text(objectId), .text(key), .text(target.objectId)])
        }
    }

    /// The relation's targets, ordered by objectId.
    static func targets(_ connection: SQLiteConnection, className: String, objectId: String, key: String) throws
        -> [PointerValue]
    {
        try connection.rows(
            """
            SELECT targetClassName, targetObjectId FROM \(table)
            WHERE className = ? AND objectId = ? AND key = ? ORDER BY targetObjectId
            """,
            [.text(className), .text(objectId), .text(key)]
        ) { row in
            PointerValue(className: row.text(0) ?? "", objectId: row.text(1) ?? "")
        }
    }

    /// Removes every relation the object owns (when it is deleted).
    /// Removes every member of one relation field of a class.
    static func deleteKey(_ connection: SQLiteConnection, className: String, key: String) throws {
        try connection.run("DELETE FROM \(table) WHERE className = ? AND key = ?", [.text(className), .text(key)])
    }

    static func deleteOwner(_ connection: SQLiteConnection, className: String, objectId: String) throws {
        try connection.run(
            "DELETE FROM \(table) WHERE className = ? AND objectId = ?", [.text(className), .text(objectId)])
    }

    /// Removes the class's relations and every membership of its objects in other relations.
    static func deleteClass(_ connection: SQLiteConnection, className: String) throws {
        try connection.run(
            "DELETE FROM \(table) WHERE className = ? OR targetClassName = ?", [.text(className), .text(className)])
    }
}
