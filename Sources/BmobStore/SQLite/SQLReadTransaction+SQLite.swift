import BmobWire

extension SQLReadTransaction where Connection == SQLiteConnection {
    /// The SQL and plan of a find, for ``SQLiteStore/explain(_:)``.
    func explain(_ query: FindQuery) throws -> SQLiteQueryPlan {
        _ = try SQLTableName(className: query.className)
        try checkUsable()
        return try QueryRows.explain(connection, catalog, query)
    }

    /// Names of applied migrations, for ``SQLiteStore/appliedMigrations()``.
    func appliedMigrations() throws -> [String] {
        try checkUsable()
        return try MigrationRows.appliedNames(connection)
    }
}
