/// Creates an app's schema and brings it up to date with the ``PostgresMigration`` list, in one transaction under
/// the app's advisory lock, so that several nodes opening the same app at once run each migration once.
enum PostgresMigrator {
    private static let table = SQLTableName.migrations.quoted

    /// Runs the migrations the schema has not recorded yet, on a connection that ``PostgresConnection/use(schema:)``
    /// set up.
    ///
    /// - Throws: ``StoreError/Code/incompatible`` when the schema recorded a migration this list lacks (a newer
    ///   version wrote it), or the error of a failed migration (nothing is kept then).
    static func migrate(
        _ connection: PostgresConnection, _ schema: PostgresSchemaName, _ migrations: [PostgresMigration], now: Int64
    ) throws {
        try MigrationRows.applyPending(
            connection,
            begin: """
                BEGIN; SELECT pg_advisory_xact_lock(\(schema.lockKey));
                CREATE SCHEMA IF NOT EXISTS \(schema.quoted);
                SET LOCAL search_path TO \(schema.quoted);
                CREATE TABLE IF NOT EXISTS \(table) (
                    position bigint GENERATED ALWAYS AS IDENTITY, name text PRIMARY KEY, appliedAt bigint NOT NULL)
                """,
            migrations.map { migration in (migration.name, { connection in try connection.execute(migration.sql) }) },
            now: now)
    }
}
