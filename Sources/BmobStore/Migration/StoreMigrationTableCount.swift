/// One table's row count on both sides after ``StoreMigration`` ran: the copy is complete when they agree.
package struct StoreMigrationTableCount: Sendable, Equatable {
    /// The table.
    package var table: String
    /// Rows in the SQLite database.
    package var sqliteRows: Int
    /// Rows in the app's PostgreSQL schema.
    package var postgresRows: Int

    /// Makes a table's counts.
    package init(table: String, sqliteRows: Int, postgresRows: Int) {
        self.table = table
        self.sqliteRows = sqliteRows
        self.postgresRows = postgresRows
    }

    /// Whether both sides hold as many rows.
    package var matches: Bool { sqliteRows == postgresRows }
}
