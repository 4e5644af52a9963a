/// Brings a database up to date with a list of ``SQLiteMigration``s, in one `BEGIN IMMEDIATE` transaction
/// so that two processes opening the same file cannot both run a migration.
enum SQLiteMigrator {
    private static let table = SQLTableName.migrations.quoted

    /// Runs the migrations the database has not recorded yet.
    ///
    /// - Throws: ``StoreError/Code/incompatible`` when the database recorded a migration this list lacks
    ///   (it was written by a newer version), or the error of a failed migration (nothing is kept then).
    static func migrate(_ connection: SQLiteConnection, _ migrations: [SQLiteMigration], now: Int64) throws {
        try MigrationRows.applyPending(
            connection,
            begin: "BEGIN IMMEDIATE; "
                + "CREATE TABLE IF NOT EXISTS \(table) (name TEXT PRIMARY KEY NOT NULL, appliedAt INTEGER NOT NULL)",
            migrations.map { ($0.name, $0.apply) }, now: now)
    }
}
