/// The `__migrations` table on either engine: which named migrations a database has run, in order. Each engine's
/// migrator begins its own transaction (SQLite's write lock, PostgreSQL's schema and advisory lock) and makes the
/// table; ``applyPending(_:begin:_:now:)`` does the rest the same way on both.
enum MigrationRows {
    private static let table = SQLTableName.migrations.quoted

    /// Runs `begin` (which opens the transaction and makes the table if needed), then every migration the database
    /// has not recorded, recording each, and commits; on any failure rolls everything back.
    ///
    /// - Throws: ``StoreError/Code/incompatible`` when the database recorded a migration this list lacks (a newer
    ///   version wrote it), or the error of a failed migration (nothing is kept then).
    static func applyPending<Connection: SQLStoreConnection>(
        _ connection: Connection,
        begin: String,
        _ migrations: [(name: String, apply: (Connection) throws -> Void)],
        now: Int64
    ) throws {
        do {
            try connection.execute(begin)
            let applied = Set(try appliedNames(connection))
            guard applied.isSubset(of: Set(migrations.map(\.name))) else {
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
    static func appliedNames(_ connection: some SQLStoreConnection) throws -> [String] {
        try connection.readRows("SELECT name FROM \(table) ORDER BY \(type(of: connection).insertionOrder)") {
            $0.text(0) ?? ""
        }
    }
}
