import BmobWire

/// Declared indexes: SQLite expression indexes over ``SQLDialect/comparable(_:schema:)`` of each path,
/// recorded in `__index` so that they can be listed and dropped by their field paths.
///
/// An index is named `__index_<Class>_<hash of the paths>`: the `__` prefix keeps it clear of class names.
/// DROP TABLE drops a class's indexes with it; ``deleteClass(_:className:)`` forgets them.
enum IndexRows {
    static let createTable = """
        CREATE TABLE "__index" (
            name TEXT PRIMARY KEY NOT NULL,
            className TEXT NOT NULL,
            paths TEXT NOT NULL,
            isUnique INTEGER NOT NULL
        );
        CREATE INDEX "__index_class" ON "__index" (className);
        """

    private static let table = SQLTableName.indexes.quoted

    /// The index name for `paths` on `className`: the class plus a 64-bit FNV-1a hash of the paths.
    static func name(className: String, paths: [SQLFieldPath]) -> SQLTableName {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in paths.map(\.path).joined(separator: ",").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return .index(trusted: "__index_\(className)_\(String(repeating: "0", count: 16 - hex.count))\(hex)")
    }

    /// The `CREATE INDEX` statement: the canonical expressions, in path order.
    static func createStatement(
        dialect: some SQLDialect,
        name: SQLTableName,
        table: SQLTableName,
        paths: [SQLFieldPath],
        schema: [String: FieldSchema],
        unique: Bool
    ) -> String {
        let expressions = paths.map { dialect.indexTerm(dialect.comparable($0, schema: $0.schema(in: schema))) }
        return
            "CREATE \(unique ? "UNIQUE " : "")INDEX \(name.quoted) ON \(table.quoted) (\(expressions.joined(separator: ", ")))"
    }

    /// The statements that follow ``createStatement(dialect:name:table:paths:schema:unique:)``: statistics on the
    /// paths whose index expression is the field's JSON value (``SQLDialect/indexStatistics(name:table:valueExpressions:)``).
    static func statisticsStatements(
        dialect: some SQLDialect,
        name: SQLTableName,
        table: SQLTableName,
        paths: [SQLFieldPath],
        schema: [String: FieldSchema]
    ) -> [String] {
        let values = paths.filter { dialect.comparableKind($0, schema: $0.schema(in: schema)) == .value }
            .map { dialect.comparable($0, schema: $0.schema(in: schema)) }
        return dialect.indexStatistics(name: name.quoted, table: table.quoted, valueExpressions: values)
    }

    /// Whether the index is recorded, and whether it is unique.
    static func isUnique(_ connection: some SQLStoreConnection, name: SQLTableName) throws -> Bool? {
        try connection.firstRow("SELECT isUnique FROM \(table) WHERE name = ?", [.text(name.name)]) { $0.int64(0) != 0 }
    }

    static func insert(
        _ connection: some SQLStoreConnection,
        name: SQLTableName,
        className: String,
        paths: [SQLFieldPath],
        unique: Bool
    ) throws {
        let pathsJSON = JSONValue.array(paths.map { .string($0.path) }).jsonString
        try connection.run(
            "INSERT INTO \(table) (name, className, paths, isUnique) VALUES (?, ?, ?, ?)",
            [.text(name.name), .text(className), .text(pathsJSON), .integer(unique ? 1 : 0)])
    }

    static func delete(_ connection: some SQLStoreConnection, name: SQLTableName) throws {
        try connection.run("DELETE FROM \(table) WHERE name = ?", [.text(name.name)])
    }

    /// The class's indexes with their uniqueness, in the order they were declared.
    static func list(_ connection: some SQLStoreConnection, className: String) throws -> [StoredIndex] {
        try connection.rows(
            "SELECT paths, isUnique FROM \(table) WHERE className = ? ORDER BY \(type(of: connection).insertionOrder)",
            [.text(className)]
        ) { row in
            guard let paths = try ObjectRows.parseJSON(row, column: 0)?.arrayValue else {
                throw StoreError(.corrupt, "the index registry holds invalid paths")
            }
            return StoredIndex(paths: paths.compactMap(\.stringValue), unique: row.int64(1) != 0)
        }
    }

    /// Forgets the class's indexes (DROP TABLE already dropped them).
    static func deleteClass(_ connection: some SQLStoreConnection, className: String) throws {
        try connection.run("DELETE FROM \(table) WHERE className = ?", [.text(className)])
    }
}
