import BmobWire

/// The SQL for a class table's rows on every engine: `objectId` (primary key), `createdAt`, `updatedAt`, `acl`
/// (JSON or NULL), `data` (JSON object of the fields); the table itself is the connection's
/// (``SQLStoreConnection/createClassTable(_:)``). Table names arrive validated as ``SQLTableName``; values are
/// bound.
enum ObjectRows {
    static func fetch(_ connection: some SQLStoreConnection, _ table: SQLTableName, objectId: String) throws
        -> StoredObject?
    {
        let sql = connection.classSQL.text(.select, for: table) {
            "SELECT createdAt, updatedAt, acl, data FROM \($0) WHERE objectId = ?"
        }
        return try connection.firstRow(sql, [.text(objectId)]) { row in
            try decode(row, className: table.name, objectId: objectId)
        }
    }

    /// The row of `objectId` with its JSON columns kept as text (the same statement as ``fetch(_:_:objectId:)``).
    static func fetchDocument(_ connection: some SQLStoreConnection, _ table: SQLTableName, objectId: String) throws
        -> StoredDocument?
    {
        let sql = connection.classSQL.text(.select, for: table) {
            "SELECT createdAt, updatedAt, acl, data FROM \($0) WHERE objectId = ?"
        }
        return try connection.firstRow(sql, [.text(objectId)]) { row in
            StoredDocument(
                objectId: objectId, createdAt: row.int64(0), updatedAt: row.int64(1), acl: row.withBytes(2) { Array($0) },
                data: row.withBytes(3) { Array($0) } ?? Array("{}".utf8))
        }
    }

    /// Up to `limit` objects with an objectId above `objectId` (all when `nil`), by objectId: a class's objects a
    /// page at a time.
    static func page<Connection: SQLStoreConnection>(
        _ connection: Connection, _ table: SQLTableName, after objectId: String?, limit: Int
    ) throws -> [StoredObject] {
        let select = "SELECT \(selectedColumns) FROM \(table.quoted)"
        let decode = { (row: Connection.Row) in try decodeSelected(row, className: table.name) }
        guard let objectId else {
            return try connection.rows("\(select) ORDER BY objectId LIMIT ?", [.integer(Int64(limit))], decode)
        }
        return try connection.rows(
            "\(select) WHERE objectId > ? ORDER BY objectId LIMIT ?", [.text(objectId), .integer(Int64(limit))], decode)
    }

    static func count(_ connection: some SQLStoreConnection, _ table: SQLTableName) throws -> Int {
        Int(try connection.firstRow("SELECT count(*) FROM \(table.quoted)") { $0.int64(0) } ?? 0)
    }

    /// Inserts a row; `dataJSON` is the fields' JSON text when the caller already encoded it.
    static func insert(
        _ connection: some SQLStoreConnection,
        _ table: SQLTableName,
        _ object: StoredObject,
        dataJSON: [UInt8]? = nil
    ) throws {
        let sql = connection.classSQL.text(.insert, for: table) {
            "INSERT INTO \($0) (objectId, createdAt, updatedAt, acl, data) VALUES (?, ?, ?, ?, ?)"
        }
        do {
            try connection.run(sql, [
                .text(object.objectId), .integer(object.createdAt), .integer(object.updatedAt),
                SQLValue(utf8: object.acl?.jsonBytes), .utf8(dataJSON ?? JSONValue.object(object.fields).jsonBytes),
            ])
        } catch {
            throw connection.constraintError(error)
        }
    }

    /// ``insert(_:_:_:dataJSON:)`` and the object's journal row (``JournalRows/values(className:objectId:op:beforeJSON:afterJSON:author:time:)``),
    /// as the engine sends them best; returns the row's `seq`.
    static func insertJournaled(
        _ connection: some SQLStoreConnection, _ table: SQLTableName, _ object: StoredObject, dataJSON: [UInt8],
        journal: [SQLValue]
    ) throws -> Int64 {
        let sql = connection.classSQL.text(.insert, for: table) {
            "INSERT INTO \($0) (objectId, createdAt, updatedAt, acl, data) VALUES (?, ?, ?, ?, ?)"
        }
        do {
            return try connection.insertJournaled(
                sql,
                [
                    .text(object.objectId), .integer(object.createdAt), .integer(object.updatedAt),
                    SQLValue(utf8: object.acl?.jsonBytes), .utf8(dataJSON),
                ],
                journal: journal)
        } catch {
            throw connection.constraintError(error)
        }
    }

    /// Replaces the row's columns; returns whether a row matched.
    static func update(
        _ connection: some SQLStoreConnection, _ table: SQLTableName, _ object: StoredObject, dataJSON: [UInt8]? = nil
    ) throws -> Bool {
        let sql = connection.classSQL.text(.update, for: table) {
            "UPDATE \($0) SET createdAt = ?, updatedAt = ?, acl = ?, data = ? WHERE objectId = ?"
        }
        do {
            return try connection.run(sql, columns(object, dataJSON: dataJSON) + [.text(object.objectId)]) > 0
        } catch {
            throw connection.constraintError(error)
        }
    }

    /// Deletes the row and returns what it held, or `nil` when there was none.
    static func delete(_ connection: some SQLStoreConnection, _ table: SQLTableName, objectId: String) throws
        -> StoredObject?
    {
        let sql = connection.classSQL.text(.delete, for: table) {
            "DELETE FROM \($0) WHERE objectId = ? RETURNING createdAt, updatedAt, acl, data"
        }
        return try connection.firstRow(sql, [.text(objectId)]) { row in
            try decode(row, className: table.name, objectId: objectId)
        }
    }

    private static func columns(_ object: StoredObject, dataJSON: [UInt8]? = nil) -> [SQLValue] {
        [
            .integer(object.createdAt), .integer(object.updatedAt), SQLValue(utf8: object.acl?.jsonBytes),
            .utf8(dataJSON ?? JSONValue.object(object.fields).jsonBytes),
        ]
    }

    /// The columns a query selects for whole objects, in the order ``decodeSelected(_:className:)`` reads.
    static let selectedColumns = SQLQueryCompiler<SQLiteDialect>.selectedColumns

    /// Reads a row of ``selectedColumns``.
    static func decodeSelected(_ row: some SQLRow, className: String) throws -> StoredObject {
        let acl = try parseJSON(row, column: 3)
        guard let fields = try parseJSON(row, column: 4)?.objectValue else {
            throw StoreError(.corrupt, "stored object data is not a JSON object")
        }
        return StoredObject(
            className: className, objectId: row.text(0) ?? "", createdAt: row.int64(1), updatedAt: row.int64(2),
            acl: acl, fields: fields)
    }

    /// Reads a row of ``selectedColumns`` keeping the JSON columns as text.
    static func decodeSelectedDocument(_ row: some SQLRow) -> StoredDocument {
        StoredDocument(
            objectId: row.text(0) ?? "", createdAt: row.int64(1), updatedAt: row.int64(2),
            acl: row.withBytes(3) { Array($0) }, data: row.withBytes(4) { Array($0) } ?? Array("{}".utf8))
    }

    /// Reads columns `createdAt, updatedAt, acl, data` (0…3).
    private static func decode(_ row: some SQLRow, className: String, objectId: String) throws -> StoredObject {
        let acl = try parseJSON(row, column: 2)
        guard let fields = try parseJSON(row, column: 3)?.objectValue else {
            throw StoreError(.corrupt, "stored object data is not a JSON object")
        }
        return StoredObject(
            className: className, objectId: objectId, createdAt: row.int64(0), updatedAt: row.int64(1), acl: acl,
            fields: fields)
    }

    /// Parses a JSON text column; `nil` for NULL.
    static func parseJSON(_ row: some SQLRow, column: Int32) throws(StoreError) -> JSONValue? {
        let result = row.withBytes(column) { bytes in
            Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
        }
        switch result {
        case nil: return nil
        case .success(let value)?: return value
        case .failure(let error)?: throw StoreError(.corrupt, "stored JSON is invalid", underlying: error)
        }
    }
}
