import BmobWire

/// Runs compiled queries on a connection of either engine, in its dialect: find, count, aggregate.
///
/// Shared by read and write transactions; `catalog` is the schema the transaction sees.
enum QueryRows {
    /// The compiler for the schema a transaction sees, in the connection's dialect.
    static func compiler<Connection: SQLStoreConnection>(_ connection: Connection, _ catalog: SchemaCatalog)
        -> SQLQueryCompiler<Connection.Dialect>
    {
        SQLQueryCompiler(dialect: Connection.dialect, classes: catalog.classes)
    }

    static func find(_ connection: some SQLStoreConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> [StoredObject]
    {
        guard let statement = try compiler(connection, catalog).find(query) else { return [] }
        return try connection.rows(statement.sql, statement.arguments) { row in
            try ObjectRows.decodeSelected(row, className: query.className)
        }
    }

    static func findDocuments(_ connection: some SQLStoreConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> [StoredDocument]
    {
        guard let statement = try compiler(connection, catalog).find(query) else { return [] }
        return try connection.rows(statement.sql, statement.arguments) { row in
            ObjectRows.decodeSelectedDocument(row)
        }
    }

    static func count(_ connection: some SQLStoreConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws -> Int {
        guard let statement = try compiler(connection, catalog).count(query) else { return 0 }
        return Int(try connection.firstRow(statement.sql, statement.arguments) { $0.int64(0) } ?? 0)
    }

    static func aggregate(_ connection: some SQLStoreConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> [[String: JSONValue]]
    {
        guard let compiled = try compiler(connection, catalog).aggregate(query) else { return [] }
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

    private static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: .null
        case .integer(let integer): .int(integer)
        case .real(let real): .double(real)
        case .text(let text): .string(text)
        case .utf8(let bytes): .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A grouped JSON field from its value and its JSON type (SQLite's `json_type`: the value is an SQL scalar
    /// unless an object or array; PostgreSQL's `jsonb_typeof`: the value is JSON text).
    private static func typedJSON(_ row: some SQLRow, value: Int32, type: Int32) throws -> JSONValue {
        switch row.text(type) {
        case "true"?: return .bool(true)
        case "false"?: return .bool(false)
        case "object"?, "array"?, "boolean"?, "number"?, "string"?:
            return try ObjectRows.parseJSON(row, column: value) ?? .null
        case nil, "null"?: return .null
        default: return json(row.value(value))
        }
    }
}
