import BmobWire

/// The SQL for `__relation`, where Relation fields keep their members: one row per owner object, relation
/// key and target. The owner's `data` holds only the marker `{"__type":"Relation","className":…}`.
///
/// The primary key serves `$relatedTo` (owner → targets); `__relation_target` serves "relation holds"
/// queries (target → owners).
enum RelationRows {
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

    private static let table = SQLTableName.relation.quoted

    /// Adds targets to the relation; targets already there are left alone. Returns the targets it added.
    static func add(
        _ connection: some SQLStoreConnection,
        className: String,
        objectId: String,
        key: String,
        targets: [PointerValue]
    ) throws -> [PointerValue] {
        var added: [PointerValue] = []
        for target in targets {
            let inserted = try connection.run(
                """
                INSERT INTO \(table) (className, objectId, key, targetClassName, targetObjectId)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """,
                [.text(className), .text(objectId), .text(key), .text(target.className), .text(target.objectId)])
            if inserted > 0 { added.append(target) }
        }
        return added
    }

    /// Removes targets from the relation; targets not there are ignored. Returns the targets it removed, as
    /// stored.
    static func remove(
        _ connection: some SQLStoreConnection,
        className: String,
        objectId: String,
        key: String,
        targets: [PointerValue]
    ) throws -> [PointerValue] {
        var removed: [PointerValue] = []
        for target in targets {
            let stored = try connection.firstRow(
                """
                DELETE FROM \(table) WHERE className = ? AND objectId = ? AND key = ? AND targetObjectId = ?
                RETURNING targetClassName
                """,
                [.text(className), .text(objectId), .text(key), .text(target.objectId)]
            ) { row in row.text(0) ?? "" }
            if let stored { removed.append(PointerValue(className: stored, objectId: target.objectId)) }
        }
        return removed
    }

    /// The relation's targets, ordered by objectId.
    static func targets(_ connection: some SQLStoreConnection, className: String, objectId: String, key: String) throws
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

    /// Removes every member of one relation field of a class; returns them.
    static func deleteKey(_ connection: some SQLStoreConnection, className: String, key: String) throws -> [Member] {
        try connection.rows(
            "DELETE FROM \(table) WHERE className = ? AND key = ? RETURNING \(memberColumns)",
            [.text(className), .text(key)], member)
    }

    /// Removes every relation the object owns (when it is deleted); returns them.
    static func deleteOwner(_ connection: some SQLStoreConnection, className: String, objectId: String) throws -> [Member] {
        try connection.rows(
            "DELETE FROM \(table) WHERE className = ? AND objectId = ? RETURNING \(memberColumns)",
            [.text(className), .text(objectId)], member)
    }

    /// Removes the class's relations and every membership of its objects in other relations; returns them.
    static func deleteClass(_ connection: some SQLStoreConnection, className: String) throws -> [Member] {
        try connection.rows(
            "DELETE FROM \(table) WHERE className = ? OR targetClassName = ? RETURNING \(memberColumns)",
            [.text(className), .text(className)], member)
    }

    /// One row of `__relation`: an owner object's relation key and one target.
    struct Member: Equatable {
        var className: String
        var objectId: String
        var key: String
        var target: PointerValue
    }

    /// The removed members as journal changes: one per owner object and key, owners and keys in ascending order,
    /// targets by objectId (`RETURNING` gives rows in no set order).
    static func changes(_ members: [Member]) -> [(className: String, objectId: String, change: JournalRelationChange)] {
        var groups: [String: [String: [String: [PointerValue]]]] = [:]
        for member in members {
            groups[member.className, default: [:]][member.objectId, default: [:]][member.key, default: []]
                .append(member.target)
        }
        var result: [(className: String, objectId: String, change: JournalRelationChange)] = []
        for className in groups.keys.sorted() {
            let owners = groups[className]!
            for objectId in owners.keys.sorted() {
                let keys = owners[objectId]!
                for key in keys.keys.sorted() {
                    let targets = keys[key]!.sorted { ($0.objectId, $0.className) < ($1.objectId, $1.className) }
                    result.append((className, objectId, JournalRelationChange(key: key, targets: targets)))
                }
            }
        }
        return result
    }

    private static let memberColumns = "className, objectId, key, targetClassName, targetObjectId"

    private static func member(_ row: some SQLRow) -> Member {
        Member(
            className: row.text(0) ?? "", objectId: row.text(1) ?? "", key: row.text(2) ?? "",
            target: PointerValue(className: row.text(3) ?? "", objectId: row.text(4) ?? ""))
    }
}
