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
        // `EXPLAIN QUERY PLAN` reads no table, so it never learns that the schema changed (an index made since):
        // a statement that reads the schema makes SQLite reload it, and the plan is prepared anew.
        _ = try connection.firstRow("SELECT 1 FROM sqlite_schema LIMIT 1") { _ in 0 }
        connection.discardStatements()
        let details = try connection.rows("EXPLAIN QUERY PLAN " + sql, statement.arguments) { row in
            row.text(3) ?? ""
        }
        return SQLiteQueryPlan(sql: sql, details: details)
    }
}
