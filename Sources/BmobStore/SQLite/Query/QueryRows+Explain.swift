import BmobWire

extension QueryRows {
    /// The SQL of a find and SQLite's plan for it (`EXPLAIN QUERY PLAN`, one detail line per step).
    static func explain(_ connection: SQLiteConnection, _ catalog: SchemaCatalog, _ query: FindQuery) throws
        -> SQLiteQueryPlan
    {
        guard let statement = try compiler(connection, catalog).find(query) else {
            throw StoreError(.notFound, "class not found")
        }
        let sql = statement.sql
        let details = try connection.rows("EXPLAIN QUERY PLAN " + sql, statement.arguments) { row in
            row.text(3) ?? ""
        }
        return SQLiteQueryPlan(sql: sql, details: details)
    }
}
