/// Brings a database up to date with a list of ``SQLiteMigration``s, in one `BEGIN IMMEDIATE` transaction
/// so that two processes opening the same file cannot both run a migration.
enum SQLiteMigrator {
    private static let table = SQLTableName.migrations.quoted

    /// Runs the migrations the database has not recorded yet.
    ///
    /// - Throws: ``StoreError/Code/incompatible`` when the database recorded a migration this list lacks
    ///   (it was written by a newer version), or the error of a failed migration (nothing is kept then).
    static func migrate(_ connection: SQLiteConnection, _ migrations: [SQLiteMigration], now: Int64) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS \(table) (name TEXT PRIMARY KEY NOT NULL, appliedAt INTEGER NOT NULL)")
            let applied = Set(try appliedNames(connection))
            let known = Set(migrations.map(\.name))
            guard applied.isSubset(of: known) else {
                throw StoreError(.incompatible, "the database was written by a newer version of the store")
            }
            for migration in migrations where !applied.contains(migration.name) {
                try migration.apply(connection)
                try connection.run(
                    "INSERT INTO \(table) (name, appliedAt) VALUES (?, ?)", [.text(migration.name), .integer(now)])
            }
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Names of applied migrations, in the order they ran.
    static func appliedNames(_ connection: SQLiteConnection) throws -> [String] {
        try connection.rows("SELECT name FROM \(table) ORDER BY rowid") { $0.text(0) ?? "" }
    }
}
