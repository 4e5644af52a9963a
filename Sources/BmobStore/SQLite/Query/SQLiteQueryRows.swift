import BmobWire

/// Runs compiled queries on a connection: find, count, aggregate, and the query plan of a find.
///
/// Shared by read and write transactions; `catalog` is the schema the transaction sees. Statements run as the
/// compiler marks them: ``SQLiteDialect/statementText(_:)`` keeps `?` as it is.
enum SQLiteQueryRows {
    private static let dialect = SQLiteDialect()

    /// The compiler for the schema a transaction sees.
    private static func compiler(_ catalog: SchemaCatalog) -> SQLQueryCompiler<SQLiteDialect> {
        SQLQueryCompiler(dialect: dialect, classes: catalog.classes)
    }

    static func find(_ connection: SQLiteConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> [StoredObject]
    {
        guard let statement = try compiler(catalog).find(query) else { return [] }
        return try connection.rows(statement.sql, statement.arguments) { row in
            try SQLiteObjectRows.decodeSelected(row, className: query.className)
        }
    }

    static func findDocuments(_ connection: SQLiteConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> [StoredDocument]
    {
        guard let statement = try compiler(catalog).find(query) else { return [] }
        return try connection.rows(statement.sql, statement.arguments) { row in
            SQLiteObjectRows.decodeSelectedDocument(row)
        }
    }

    static func count(_ connection: SQLiteConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws -> Int {
        guard let statement = try compiler(catalog).count(query) else { return 0 }
        return Int(try connection.firstRow(statement.sql, statement.arguments) { $0.int64(0) } ?? 0)
    }

    static func aggregate(_ connection: SQLiteConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> [[String: JSONValue]]
    {
        guard let compiled = try compiler(catalog).aggregate(query) else { return [] }
        return try connection.rows(compiled.statement.sql, compiled.statement.arguments) { row in
            var result: [String: JSONValue] = [:]
            var column: Int32 = 0
            for description in compiled.columns {
                let value: JSONValue
                switch description.kind {
                case .value:
                    value = json(row.value(column))
                case .json:
                    value = try typedJSON(row, value: column, type: column + 1)
                    column += 1
                case .milliseconds:
                    if case .integer(let milliseconds) = row.value(column) {
                        value = .string(BmobDateFormat.format(millisecondsSince1970: milliseconds))
                    } else {
                        value = .null
                    }
                case .date:
                    if case .text(let iso) = row.value(column) {
                        value = ["__type": "Date", "iso": .string(iso)]
                    } else {
                        value = .null
                    }
                }
                column += 1
                if result[description.name] == nil { result[description.name] = value }
            }
            return result
        }
    }

    /// The SQL of a find and SQLite's plan for it (`EXPLAIN QUERY PLAN`, one detail line per step).
    static func explain(_ connection: SQLiteConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> SQLiteQueryPlan
    {
        guard let statement = try compiler(catalog).find(query) else {
            throw StoreError(.notFound, "class not found")
        }
        let sql = statement.sql
        let details = try connection.rows("EXPLAIN QUERY PLAN " + sql, statement.arguments) { row in
            row.text(3) ?? ""
        }
        return SQLiteQueryPlan(sql: sql, details: details)
    }

    private static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let integer): .int(integer)
        case .real(let real): .double(real)
        case .text(let text): .string(text)
        case .utf8(let bytes): .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A grouped JSON field from its `json_extract` value and `json_type`.
    private static func typedJSON(_ row: SQLiteStatement, value: Int32, type: Int32) throws -> JSONValue {
        switch row.text(type) {
        case "true"?: return .bool(true)
        case "false"?: return .bool(false)
        case "object"?, "array"?: return try SQLiteObjectRows.parseJSON(row, column: value) ?? .null
        case nil, "null"?: return .null
        default: return json(row.value(value))
        }
    }
}
